// CQL family: the "cql.serialize" interchange (docs/workers.md, "The interchange";
// harness/external.h): how an encode input crosses to workers and modules and how their answer
// becomes the target's output. Defined in targets/cql/interchange.cc.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "harness/target.h"
#include "targets/cql/domain.h"

namespace serdiff::targets::cql {

// The CQL JSON value of `v` as type `t`, or Declined when the JSON form cannot hold it exactly.
absl::StatusOr<std::string> CqlValueJson(const Type& t, const Value& v);
// {"type": ..., "value": ..., "version": ...} for an encode input.
absl::StatusOr<std::string> CqlSerializeRequest(const EncodeInput& in);
// An outside payload as the target's output: a framed input's answer gets its [bytes] length.
absl::StatusOr<std::string> CqlSerializeOutput(const EncodeInput& in,
                                               const harness::ExternalAnswer& answer);
// The list<int> module form (SERDIFF_FORM_INT32_LIST); Declined for any other input.
absl::StatusOr<harness::Int32List> CqlInt32List(const EncodeInput& in);
// The interchange of a target whose input holds an EncodeInput (`get` finds it).
template <typename T, typename Get>
harness::Interchange<T> CqlSerializeInterchange(Get get) {
  harness::Interchange<T> ic;
  ic.op = "cql.serialize";
  ic.input_json = [get](const T& v) { return CqlSerializeRequest(get(v)); };
  ic.output = [get](const T& v, const harness::ExternalAnswer& a) {
    return CqlSerializeOutput(get(v), a);
  };
  ic.as_int32_list = [get](const T& v) { return CqlInt32List(get(v)); };
  // serdiff repro --upstream: the driver answers the payload alone (the [value] framing is
  // serdiff's, CqlSerializeOutput).
  ic.expected_answer = [get](const T& v, const std::string& out) -> absl::StatusOr<std::string> {
    const bool framed = get(v).framed;
    if (framed && out.size() < 4) return std::string("{}");
    return absl::StrCat("{\"hex\":\"", absl::BytesToHexString(framed ? out.substr(4) : out), "\"}");
  };
  return ic;
}

}  // namespace serdiff::targets::cql
