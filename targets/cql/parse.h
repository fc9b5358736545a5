// CQL family: parsers of the printed inputs (Domain::parse, harness/text_parse.h) of the nine
// cql_* targets. Each reads back exactly what the domain's printer writes (targets/
// domains.cc, targets/cql/typed.cc); the wiring (WithShownCheck) then requires that the
// value read prints as the very text given, so a text is accepted only in its printed form.
//
// Errors: InvalidArgument "at character N: ..." (N the byte offset in the whole text; errors
// of serdiff::cql::ParseType / ParseValue on a part of the text are moved to the offset of
// that part). A hex dump cut short by the printer ("... (N bytes)") fails with ElidedAt where
// the bytes are part of the input (cql_decode, cql_typed_decode); cql_decode_mutated derives
// its bytes from the other fields, so its dump is checked, not read.
//
// What the printed forms leave out:
//   - cql_typed_encode / cql_typed_decode: a list or set does not print the map-value kind
//     index (`value`), which the input carries but never uses for a list/set. The parser gives
//     it the default 3; the generators draw 3 for lists and sets, so parse(show(v)) == v holds.
//     A corpus file with another `value` for a list prints alike and parses to value 3 (its
//     bytes differ, its behaviour does not).
//   - Everything else is printed in full (types, options, values with every bit; wrong-shape
//     values print as <shape:...> and are read back too).
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "absl/status/statusor.h"
#include "harness/target.h"
#include "harness/text_parse.h"
#include "targets/cql/domain.h"

namespace serdiff::targets::cql {

// "v4 payload list<int> = [1, null]" (ShowEncodeInput). `max_depth`: the deepest type the
// domain holds (0 for cql_encode_scalar: native types only); a deeper type fails at the type.
absl::StatusOr<EncodeInput> ParseEncodeInput(std::string_view text, int max_depth);
// "v4 payload varint max_depth=32 require_minimal_varint bytes(2)=80 00".
absl::StatusOr<DecodeInput> ParseDecodeInput(std::string_view text);
// The encode input, then "\n  options max_depth=32 strict_utf8" (ReadOptions' flags).
absl::StatusOr<DecodeSetup> ParseDecodeSetup(std::string_view text);
// "list<int> count=500000 nulls=0% text_len=0 seed=42 v4".
absl::StatusOr<LargeInput> ParseLargeInput(std::string_view text);
// "v4 list<int> count=1000 nulls=1% bad seed=7" (" bad" only when set).
absl::StatusOr<TypedInput> ParseTypedInput(std::string_view text);
// "v1 list<time> max_depth=60 strict_utf8 bytes(N)=...".
absl::StatusOr<TypedDecodeInput> ParseTypedDecodeInput(std::string_view text);

// A CQL value as FormatValue prints it for `t` (also wrong-shape parts, <shape:body>), read
// from the cursor; the cursor stops after the value. Spacing is the printer's.
absl::Status ParseValueText(harness::TextCursor& c, const Type& t, Value* out);

// d.parse = parse, then MatchesShown(text, d.show(value)): the text must be the value's
// printed form (the error is at the first character where it is not).
template <typename T, typename Fn>
void WithShownCheck(harness::Domain<T>& d, Fn parse) {
  d.parse = [show = d.show, parse = std::move(parse)](std::string_view text) -> absl::StatusOr<T> {
    absl::StatusOr<T> v = parse(text);
    if (!v.ok()) return v;
    if (absl::Status s = harness::MatchesShown(text, show(*v)); !s.ok()) return s;
    return v;
  };
}

}  // namespace serdiff::targets::cql
