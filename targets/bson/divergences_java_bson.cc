// BSON family: the accepted divergences of java_bson (oracles/java_bson: the MongoDB Java
// driver's BSON library, org.bson 3.6.3 from Debian 12, a Java worker, docs/workers.md), in
// bson_decode. docs/peers.md ("## BSON") lists each; divergences.h says how the predicates work.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/string_view.h"

#include "harness/target.h"
#include "serdiff/bson/codec.h"
#include "targets/bson/divergences.h"
#include "targets/bson/internal.h"

namespace serdiff::targets::bson {

// BsonBinaryReader reads every string and cstring into a Java String with the JDK's UTF-8
// decoder, which replaces an ill-formed sequence with U+FFFD and reports nothing: keys, string
// values, code, symbols, DBPointer namespaces and both cstrings of a regex.
const Unchecked kJavaBsonUnchecked{true, true, true, true, true};

std::vector<harness::Divergence<std::string>> JavaBsonDecodeDivergences() {
  std::vector<harness::Divergence<std::string>> out;
  out.push_back(
      {"java_bson",
       "on purpose: BsonBinaryReader (org.bson 3.6.3) checks no UTF-8: keys, string values, "
       "code, symbols, DBPointer namespaces and regex cstrings become Java Strings through the "
       "JDK's decoder, an ill-formed sequence as U+FFFD, {\"a\": \"\\xe9\"}: 0e000000 02 6100 "
       "02000000 e900 00, serdiff rejects at offset 11, java_bson accepts (covered: the input "
       "validates once those bytes are blanked)",
       [](const std::string& in, const Output& opt, const Output& other) {
         return PeerSkipsTheCheck(in, opt, other, kJavaBsonUnchecked, sb::kDefaultMaxDepth);
       }});
  out.push_back(
      {"java_bson",
       "on purpose (serdiff's): serdiff rejects nesting deeper than 100 levels (the limit the "
       "spec recommends), BsonDocumentCodec has none, e.g. {\"d\": {\"d\": ...}} 101 levels "
       "deep: serdiff rejects, java_bson accepts (covered: the input validates with no depth "
       "limit, its unchecked UTF-8 blanked as above)",
       [](const std::string& in, const Output& opt, const Output& other) {
         return PeerSkipsTheCheck(in, opt, other, kJavaBsonUnchecked, kWalkDepth);
       }});
  out[0].edges = [] {
    // A string e9 whose length runs one byte past its element: a layout error, not UTF-8.
    const std::string runs_past = BytesOfHex("0e00000002610003000000e90000");
    const std::string valid = BytesOfHex("090000000861000100");
    return std::vector<harness::DivergenceEdge<std::string>>{
        {"a string e9 whose length runs past its element", runs_past, sb::Validate(runs_past),
         runs_past},
        {"{\"a\": true}, valid", valid, Rejection("planted"), valid}};
  };
  out[1].edges = DepthEdges;
  return out;
}

std::vector<harness::HeapDivergence<std::string>> JavaBsonDecodeHeapDivergences() {
  return {{"java_bson",
           "bug: org.bson 3.6.3 allocates a string's, code's, symbol's or binary's declared length "
           "(ByteBufferBsonInput.readString, BsonBinaryReader.doReadBinaryData: new byte[size]) "
           "before ensureAvailable checks it against the bytes that remain, so a 13-byte "
           "document declaring a 33,554,432-byte binary allocates 33,557,248 B and then rejects "
           "(\"While decoding a BSON document 33554432 bytes were required, but only 1 "
           "remain\"); under the worker's 512 MiB heap a longer length ends in "
           "OutOfMemoryError instead (covered: the length its error names, plus 64 bytes of "
           "array header; 2 GiB + 64 bytes, the most one Java array asks, when the call ended in "
           "OutOfMemoryError)",
           [](const std::string&, const Output& subject) -> int64_t {
             if (subject.ok()) return 0;
             const absl::string_view m = subject.status().message();
             if (m.find("OutOfMemoryError") != absl::string_view::npos)
               return (int64_t{1} << 31) + 64;
             constexpr absl::string_view kHead = "While decoding a BSON document ";
             constexpr absl::string_view kTail = " bytes were required, but only ";
             const size_t head = m.find(kHead);
             if (head == absl::string_view::npos) return 0;
             const size_t from = head + kHead.size();
             const size_t tail = m.find(kTail, from);
             int64_t required = 0;
             if (tail == absl::string_view::npos ||
                 !absl::SimpleAtoi(m.substr(from, tail - from), &required) || required <= 0) {
               return 0;
             }
             return required + 64;
           }}};
}

harness::OffsetExemption JavaBsonDecodeOffsetExemption() {
  return {"java_bson",
          "BsonSerializationException and BsonInvalidOperationException carry a message only "
          "(\"While decoding a BSON document 5 bytes were required, but only 3 remain\"), no "
          "position"};
}

}  // namespace serdiff::targets::bson
