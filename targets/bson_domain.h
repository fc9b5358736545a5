// BSON documents as a harness domain (targets/bson_domain.cc): an edge-biased RapidCheck generator,
// the FuzzedDataProvider form and its exact mirror, and the mutated-bytes generator for the
// decoder targets.
//
// Corpus form of a Document (read by DecodeDocument, written by EncodeDocument, same calls in
// the same order): a container reads its element count as ConsumeIntegralInRange<uint32_t>
// (0, min(kMaxElements, budget)), where budget is what remains of kMaxTotalElements for the
// whole input (so a fuzz input never builds more than kMaxTotalElements elements); then per
// element: type index ConsumeIntegralInRange<uint8_t>(0, 20) into kAllTypes, the key as
// ConsumeRandomLengthString(24) (documents only; array keys are left empty), then the payload.
// Containers deeper than kMaxDomainDepth are read as empty.
#pragma once

#include <cstdint>
#include <string>

#include <rapidcheck.h>

#include "harness/fuzz_input.h"
#include "serdiff/bson/document.h"

namespace serdiff::targets::bson {

inline constexpr uint32_t kMaxElements = 10000;       // per container (properties: 10^4)
inline constexpr uint32_t kMaxTotalElements = 20000;  // per input
inline constexpr int kMaxDomainDepth = 104;           // a few levels past the codec's limit

serdiff::bson::Document DecodeDocument(FuzzedDataProvider& p);
void EncodeDocument(const serdiff::bson::Document& doc, harness::FuzzInputWriter& w);

// Documents: every element type, keys with multi-byte UTF-8, int32/int64 extremes, datetimes
// from the timestamp edge lists (ms boundaries, pre-1970, years 1 and 9999), large arrays (up
// to kMaxElements), deep chains (up to kMaxDomainDepth levels).
rc::Gen<serdiff::bson::Document> GenDocument();

// Bytes for the decoder: a well-formed encoded document, often with one length, terminator,
// type byte or count (array element, cut) changed; sometimes raw random bytes.
rc::Gen<std::string> GenDecoderInput();

}  // namespace serdiff::targets::bson
