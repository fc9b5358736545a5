// Timestamp family: what serdiff accepts from each implementation it did not write, declared
// once. Today one peer: python-driver 3.25's timestamp arithmetic, as serdiff's model of it
// (python_driver_3_25) and as the live driver (the worker python_cassandra), in the driver
// targets; its definitions are in divergences_python_cassandra.cc. docs/peers.md's generated
// table lists every one with its file (`serdiff list --emit divergences-md`).
#pragma once

#include <cstdint>
#include <vector>

#include "harness/target.h"
#include "serdiff/timestamp/timestamp.h"

namespace serdiff::targets::timestamp {

// timestamp_driver_serialize, for `driver` (python_driver_3_25 or python_cassandra): before
// 1970 int() truncates toward zero (floor + 1 with a sub-ms part); near year 9999 the double
// sum rounds up to the next whole ms.
std::vector<harness::Divergence<::serdiff::timestamp::CivilDateTime>>
PythonDriverSerializeDivergences(const char* driver);
// timestamp_driver_deserialize (python_driver_3_25): once |seconds| >= 2^33, ms / 1000.0 can miss
// the exact µs by up to half an ulp.
std::vector<harness::Divergence<int64_t>> PythonDriverDeserializeDivergences();
// timestamp_driver_roundtrip (python_driver_3_25): once |seconds| >= 2^33 the round trip can
// lose one ms.
std::vector<harness::Divergence<int64_t>> PythonDriverRoundTripDivergences();

}  // namespace serdiff::targets::timestamp
