// serdiff repro --upstream (tools/upstream.cc, docs/workers.md "Upstream reproducers"): the
// request a worker writes its program from, as exact text; and the reference's answer in the
// answer's form of each op (harness::Interchange::expected_answer).
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "harness/interchange.h"
#include "harness/target.h"
#include "serdiff/common/error_offset.h"
#include "targets/families.h"

namespace serdiff::targets {
namespace {

TEST(InterchangeUpstream, RequestTextIsExact) {
  EXPECT_EQ(harness::UpstreamRequestJson("bson_encode", "bson.encode", R"({"document":{}})", "{}",
                                         std::string("\x05\0\0\0\0", 5), R"({"hex":"0500000000"})"),
            R"({"target":"bson_encode","op":"bson.encode","input":{"document":{}},"shown":"{}",)"
            R"("spec":"BSON 1.1, bsonspec.org/spec.html","expect":{"outcome":"accepted",)"
            R"("answer":{"hex":"0500000000"}}})");
  EXPECT_EQ(
      harness::UpstreamRequestJson("bson_decode", "bson.decode", R"({"bson":"08"})", "08",
                                   InvalidAt(7, "value \"truncated\""), "{}"),
      R"({"target":"bson_decode","op":"bson.decode","input":{"bson":"08"},"shown":"08",)"
      R"("spec":"BSON 1.1, bsonspec.org/spec.html","expect":{"outcome":"rejected","offset":7,)"
      R"("message":"offset 7: value \"truncated\""}})");
  EXPECT_EQ(
      harness::UpstreamRequestJson("x", "bson.decode", "{}", "", absl::InternalError("no"), "{}"),
      R"({"target":"x","op":"bson.decode","input":{},"shown":"",)"
      R"("spec":"BSON 1.1, bsonspec.org/spec.html","expect":{"outcome":"rejected",)"
      R"("offset":null,"message":"no"}})");
  // Not UTF-8: C-escaped, so that the request stays JSON text.
  EXPECT_EQ(harness::UpstreamRequestJson("x", "bson.decode", "{}", "k\xff",
                                         absl::InternalError("b\xc3"), "{}"),
            R"({"target":"x","op":"bson.decode","input":{},"shown":"k\\xff",)"
            R"("spec":"BSON 1.1, bsonspec.org/spec.html","expect":{"outcome":"rejected",)"
            R"("offset":null,"message":"b\\xc3"}})");
}

// The expectation comes from the target's reference, in the answer's form of each op: the
// payload without serdiff's [value] framing (cql), the values and count read (fury's reader),
// only the outcome (a decoder, whose answer bytes are its own re-encoding).
TEST(InterchangeUpstream, TargetsGiveTheReferenceAnswerInTheAnswersForm) {
  struct Case {
    std::string target, text, want;
  };
  const std::vector<Case> cases = {
      {"varint_fory_decode", "count 7, 8 bytes: ac 02 00 00 00 00 00 00",
       R"("expect":{"outcome":"accepted","answer":{"value":{"values":["300","0","0","0","0","0",)"
       R"("0"],"consumed":8}}}})"},
      {"cql_encode_nested", "v2 payload list<list<int>> = [[1]]",
       R"("expect":{"outcome":"accepted","answer":{"hex":"0001000c000000010000000400000001"}}})"},
      {"cql_encode_nested", "v4 [value] list<int> = [1]",
       R"("expect":{"outcome":"accepted","answer":{"hex":"000000010000000400000001"}}})"},
      {"cql_encode_scalar", "v4 payload ascii = '\xc3\xa9'",
       R"("expect":{"outcome":"rejected","offset":null,"message":"ref cql encode: ascii above 127"}})"},
      {"bson_decode", "08 00 00 00 08 61 00 00",
       R"("expect":{"outcome":"rejected","offset":7,"message":"offset 7: value truncated"}})"},
      {"bson_decode", "05 00 00 00 00", R"("expect":{"outcome":"accepted","answer":{}}})"},
  };
  for (const Case& c : cases) {
    const harness::Target* t = AllTargets().Find(c.target);
    ASSERT_NE(t, nullptr) << c.target;
    absl::StatusOr<std::string> bytes = t->BytesOfText(c.text);
    ASSERT_TRUE(bytes.ok()) << c.target << ": " << bytes.status();
    absl::StatusOr<std::string> req = t->UpstreamRequest(*bytes);
    ASSERT_TRUE(req.ok()) << c.target << ": " << req.status();
    EXPECT_TRUE(absl::EndsWith(*req, c.want)) << c.target << " " << c.text << "\n" << *req;
  }
  // A CQL request names the spec of its protocol version.
  const harness::Target* nested = AllTargets().Find("cql_encode_nested");
  ASSERT_NE(nested, nullptr);
  for (const auto& [text, spec] : std::vector<std::pair<std::string, std::string>>{
           {"v2 payload list<int> = [1]",
            "CQL native protocol v2 (apache/cassandra doc/native_protocol_v2.spec), section 6; a "
            "collection's values below the top in the v3 form, native_protocol_v3.spec section 10"},
           {"v5 payload list<int> = [1]",
            "CQL native protocol v5 (apache/cassandra doc/native_protocol_v5.spec), section 6 "
            "(values, collections, tuples), 7 (user types)"}}) {
    absl::StatusOr<std::string> req = nested->UpstreamRequest(*nested->BytesOfText(text));
    ASSERT_TRUE(req.ok()) << req.status();
    EXPECT_TRUE(absl::StrContains(*req, absl::StrCat("\"spec\":\"", spec, "\""))) << *req;
  }
  // No interchange, no request.
  const harness::Target* none = AllTargets().Find("varint_leb128_encode");
  ASSERT_NE(none, nullptr);
  EXPECT_EQ(none->UpstreamRequest(none->GeneratedBytes(1, 10)).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace serdiff::targets
