// Transcriptions of a peer's decoder, on which an accepted divergence relies, checked one
// transcribed check at a time: an input each check must reject (and, beside it, the nearest
// input it accepts), so that a transcription that loses or loosens one check fails here even
// where the divergence's own examples (tests/interchange_test.cc, InterchangePeers) still pass.
//
// pymongo 3.11's C decoder (PymongoDecode, targets/bson/divergences.h): every expected verdict
// below is what python3-bson-ext 3.11.0 (Debian 12, bson.decode with bson.has_c() true) answered
// for the same bytes on 2026-12-03: a rejection is any exception it raised. None of these inputs
// makes the model overrun a document's end (the bug the divergence covers; its inputs are in
// InterchangePeers.PymongoDecodeOverrunAndRejections). Two transcribed checks have no input of
// their own: a regex pattern longer than the bytes left and a pattern plus options longer than
// them (a document's last byte is a NUL, so neither cstring can run past its element list).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "harness/target.h"
#include "serdiff/common/error_offset.h"
#include "serdiff/cql/value.h"
#include "targets/bson/divergences.h"
#include "targets/cql/divergences.h"
#include "targets/families.h"
#include "targets/varint/divergences.h"
#include "targets/varint/interchange.h"

namespace serdiff::targets::bson {
namespace {

using V = PymongoDecodeVerdict;

struct Case {
  const char* name;
  const char* hex;
  V want;
};

const char* Name(V v) {
  return v == V::kAccepts ? "accepts" : v == V::kRejects ? "rejects" : "unknown";
}

TEST(PeerModels, PymongoDecodeModelHoldsEveryCheck) {
  const Case kCases[] = {
      {"empty document", "0500000000", V::kAccepts},
      {"fewer than 5 bytes", "05000000", V::kRejects},
      {"declared size below 5", "0400000000", V::kRejects},
      {"declared size not the input's", "0600000000", V::kRejects},
      {"last byte not NUL", "0500000001", V::kRejects},
      {"key runs into the terminator", "070000000a6100", V::kRejects},
      {"key not UTF-8", "080000000aff0000", V::kRejects},
      {"unknown type 0x14", "0800000014610000", V::kRejects},
      {"double: 7 of 8 bytes", "0f0000000161000000000000000000", V::kRejects},
      {"double: 8 bytes", "10000000016100000000000000000000", V::kAccepts},
      {"timestamp: 7 of 8 bytes", "0f0000001161000000000000000000", V::kRejects},
      {"int64: 7 of 8 bytes", "0f0000001261000000000000000000", V::kRejects},
      {"ObjectId: 11 of 12 bytes", "13000000076100000000000000000000000000", V::kRejects},
      {"ObjectId: 12 bytes", "1400000007610000000000000000000000000000", V::kAccepts},
      {"int32: 3 of 4 bytes", "0b00000010610000000000", V::kRejects},
      {"int32: 4 bytes", "0c0000001061000000000000", V::kAccepts},
      {"decimal128: 15 of 16 bytes", "1700000013610000000000000000000000000000000000", V::kRejects},
      {"string: length 0", "0c0000000261000000000000", V::kRejects},
      {"string: length past the document", "0e00000002610003000000780000", V::kRejects},
      {"string: not NUL-terminated", "0e00000002610002000000787900", V::kRejects},
      {"string: not UTF-8", "0e00000002610002000000ff0000", V::kRejects},
      {"string: valid", "0e00000002610002000000780000", V::kAccepts},
      {"code: not UTF-8", "0e0000000d610002000000ff0000", V::kRejects},
      {"symbol: length 0", "0c0000000e61000000000000", V::kRejects},
      {"DBPointer: 11 of 12 id bytes", "190000000c6100020000006300000000000000000000000000",
       V::kRejects},
      {"DBPointer: valid", "1a0000000c610002000000630000000000000000000000000000", V::kAccepts},
      {"bool 2", "090000000861000200", V::kRejects},
      {"bool 1", "090000000861000100", V::kAccepts},
      {"datetime: year 10000's first ms", "1000000009610000dc1fd277e6000000", V::kRejects},
      {"datetime: year 9999's last ms", "10000000096100ffdb1fd277e6000000", V::kAccepts},
      {"datetime: year 1's first ms", "100000000961000028d3ed7cc7ffff00", V::kAccepts},
      {"datetime: the ms before year 1", "10000000096100ff27d3ed7cc7ffff00", V::kRejects},
      {"datetime: 7 of 8 bytes", "0f0000000961000000000000000000", V::kRejects},
      {"document: size 4", "0d000000036100040000000000", V::kRejects},
      {"document: size past the parent", "0d000000036100060000000000", V::kRejects},
      {"document: last byte not NUL", "0d000000036100050000000100", V::kRejects},
      {"document: a bool 2 inside", "1100000003610009000000086100020000", V::kRejects},
      {"array: an element past its end", "13000000046100090000001030000000000000", V::kRejects},
      {"array: valid", "140000000461000c000000103000010000000000", V::kAccepts},
      {"binary: 4 of 5 header bytes", "0c0000000561000000000000", V::kRejects},
      {"binary: length past the document", "0f0000000561000900000000787900", V::kRejects},
      {"binary subtype 2: length below 4", "10000000056100030000000278797a00", V::kRejects},
      {"binary subtype 2: inner length not length - 4", "13000000056100060000000201000000787900",
       V::kRejects},
      {"binary subtype 2: valid", "13000000056100060000000202000000787900", V::kAccepts},
      {"binary subtype 4: 15 bytes", "1c0000000561000f0000000400000000000000000000000000000000",
       V::kRejects},
      {"binary subtype 3: 17 bytes", "1e0000000561001100000003000000000000000000000000000000000000",
       V::kRejects},
      {"binary subtype 4: 16 bytes", "1d00000005610010000000040000000000000000000000000000000000",
       V::kAccepts},
      {"regex: pattern not UTF-8", "0b0000000b6100ff000000", V::kRejects},
      {"regex: valid", "0d0000000b6100616200690000", V::kAccepts},
      {"code_w_scope: 7 of 8 bytes", "0f0000000f61000000000000000000", V::kRejects},
      {"code_w_scope: total past the document", "170000000f610064000000020000007800050000000000",
       V::kRejects},
      {"code_w_scope: code length 0", "170000000f61000f000000000000007800050000000000",
       V::kRejects},
      {"code_w_scope: code not NUL-terminated", "170000000f61000f000000020000007879050000000000",
       V::kRejects},
      {"code_w_scope: code not UTF-8", "170000000f61000f00000002000000ff00050000000000",
       V::kRejects},
      {"code_w_scope: scope size 4", "160000000f61000e0000000200000078000400000000", V::kRejects},
      {"code_w_scope: total not the parts' sum", "180000000f61001000000002000000780005000000000000",
       V::kRejects},
      {"code_w_scope: scope's last byte not NUL", "170000000f61000f000000020000007800050000000100",
       V::kRejects},
      {"code_w_scope: a bool 2 in the scope",
       "1b0000000f61001300000002000000780009000000086100020000", V::kRejects},
      {"code_w_scope: valid", "170000000f61000f000000020000007800050000000000", V::kAccepts},
  };
  for (const Case& c : kCases) {
    const std::string in = absl::HexStringToBytes(c.hex);
    bool overran = true;
    EXPECT_EQ(Name(PymongoDecode(in, &overran)), std::string(Name(c.want)))
        << c.name << ": " << c.hex;
    EXPECT_FALSE(overran) << c.name;
  }
}

// Every accepted divergence of every target held at its edge (harness::DivergenceEdge): its
// predicate does not cover the nearest inputs where the peer behaves as the spec says, given with
// the answers the divergence's pattern describes there, and one without edges says why. A
// predicate widened by one value (a `>` written `>=`, a depth rule starting at the limit, a time
// range taking the last valid nanosecond) covers its edge and fails here (mutants/*/..._edge_*).
TEST(DivergenceEdges, NoPredicateCoversItsEdge) {
  size_t with_edges = 0;
  size_t edges = 0;
  for (const auto& t : AllTargets().targets()) {
    for (const std::string& p : t->DivergenceEdgeProblems())
      ADD_FAILURE() << t->name() << ": " << p;
    for (const harness::Acceptance& d : t->accepted_divergences()) {
      if (!d.edge_texts) continue;
      ++with_edges;
      edges += d.edge_texts().size();
    }
  }
  // Every divergence of bson_encode, bson_decode, cql_encode_scalar, cql_encode_nested, the
  // timestamp driver targets and the varint Fory and LEB128 targets has edges.
  EXPECT_GE(with_edges, 50u);
  EXPECT_GE(edges, 80u);
}

// Fury JS 0.5.9-beta's BinaryReader.varUInt64 (FuryDecodeModel, targets/varint/divergences.h),
// on which fury's decode divergence relies: on inputs that take each path of the transcription
// (the slow path under 8 bytes left, the fast path's 1-, 5- and 9-byte reads, its 9th byte past
// the input, values read past the input), the model answers what the package itself answered
// for the same bytes (node, npm @furyjs/fury 0.5.9-beta as oracles/node/package-lock.json pins
// it, the worker's own loop: varUInt64 until the input ends, a read past it rejected at the
// value's first byte; 2026-12-03), as the target's output for `count` values.
TEST(PeerModels, FuryDecodeModelAnswersWhatTheReaderAnswered) {
  namespace vi = ::serdiff::targets::varint;
  const struct {
    const char* hex;
    uint32_t count;      // the values Fory's own form finds in the bytes (+1 when cut short)
    const char* answer;  // the reader's {"values", "consumed"}, or "" when it threw
    int64_t rejected_at;
  } kCases[] = {
      {"00", 1, R"({"values":["0"],"consumed":1})", -1},
      {"7f", 1, R"({"values":["127"],"consumed":1})", -1},
      {"ac02", 1, R"({"values":["300"],"consumed":2})", -1},
      {"ffffffffffffffffff", 1, R"({"values":["18446744073709551615"],"consumed":9})", -1},
      {"ffffffffffffffff", 1, "", 0},
      {"ac02000000000000", 7, R"({"values":["93001260","0","0","0"],"consumed":8})", -1},
      {"8001000000000000", 7, R"({"values":["0","0","0","0"],"consumed":8})", -1},
      {"0102030405060708", 8, R"({"values":["1","2","3","4","5","6","7","8"],"consumed":8})", -1},
      {"81818181010000000000", 6, R"({"values":["270549121","0","0","0","0","0"],"consumed":10})",
       -1},
      {"80808080808080808001", 2, R"({"values":["9223372036854775808","1"],"consumed":10})", -1},
      {"80", 1, "", 0},
      {"808080", 1, "", 0},
      {"0000ac02", 3, R"({"values":["0","0","300"],"consumed":4})", -1},
      {"00000000000000ac02", 8, R"({"values":["0","0","0","0","0","0","0","300"],"consumed":9})",
       -1},
      {"ac02ac02ac02ac02", 4, "", 0},
      {"ffffffff7f", 1, R"({"values":["34359738367"],"consumed":5})", -1},
      {"ffffffff7f000000", 4, R"({"values":["34359738367","0","0","0"],"consumed":8})", -1},
      {"ff7f00000000000000", 8, R"({"values":["268435455","0","0","0","0"],"consumed":9})", -1},
  };
  for (const auto& c : kCases) {
    const vi::DecodeInput in{c.count, absl::HexStringToBytes(c.hex)};
    harness::Output want = WithErrorOffset(absl::InvalidArgumentError("threw"), c.rejected_at);
    if (c.rejected_at < 0) {
      harness::ExternalAnswer a;
      a.value_json = c.answer;
      want = vi::ForyDecodeOutput(c.count, a);
    }
    bool misread = false;
    const absl::StatusOr<std::string> got = vi::FuryDecodeModel(in, 10000, &misread);
    ASSERT_EQ(got.ok(), want.ok()) << c.hex << ": " << got.status() << " / " << want.status();
    if (got.ok()) {
      EXPECT_EQ(absl::BytesToHexString(*got), absl::BytesToHexString(*want)) << c.hex;
    } else {
      EXPECT_EQ(ErrorOffset(got.status()), ErrorOffset(want.status())) << c.hex;
    }
  }
}

// The two CQL drivers' models held to the drivers' own answers (the tests below).
namespace sc = ::serdiff::cql;

// A cql.serialize input: the type text parsed, the value, the protocol version.
cql::EncodeInput CqlIn(const char* type, sc::Value v, int version) {
  cql::EncodeInput e;
  EXPECT_TRUE(sc::ParseType(type, &e.type).ok()) << type;
  e.value = std::move(v);
  e.version = version;
  return e;
}

// 00000000-0000-4000-8000-000000000000: a version-4 UUID, for the timeuuid cases.
sc::Uuid Version4Uuid() {
  sc::Uuid v4{};
  v4[6] = 0x40;
  v4[8] = 0x80;
  return v4;
}

struct DriverAnswer {
  cql::EncodeInput input;
  const char* hex;       // the driver's payload; "" when it raised or threw
  const char* rejected;  // the driver's message when it raised or threw
};

// How a model's rejection message must match the driver's: the same text, or a part of it.
enum class MessageMatch { kExact, kPartOfTheDrivers };

// Each case's model answer against the driver's: the same payload, or a rejection whose message
// matches as `match` says.
void ExpectModelAnswers(harness::Output (*model)(const cql::EncodeInput&),
                        absl::Span<const DriverAnswer> cases, MessageMatch match) {
  for (const DriverAnswer& c : cases) {
    const harness::Output got = model(c.input);
    const std::string what = absl::StrCat(sc::TypeToString(c.input.type), " v", c.input.version);
    if (*c.hex != '\0') {
      ASSERT_TRUE(got.ok()) << what << ": " << got.status();
      EXPECT_EQ(absl::BytesToHexString(*got), c.hex) << what;
    } else if (match == MessageMatch::kExact) {
      ASSERT_FALSE(got.ok()) << what << ": " << absl::BytesToHexString(*got);
      EXPECT_EQ(std::string(got.status().message()), c.rejected) << what;
    } else {
      ASSERT_FALSE(got.ok()) << what;
      EXPECT_NE(std::string(c.rejected).find(std::string(got.status().message())),
                std::string::npos)
          << what << ": " << got.status();
    }
  }
}

// The python driver's model (PythonCassandraModel, targets/cql/divergences.h), on which every
// python_cassandra divergence relies, against the driver itself: each expected answer is what
// python3-cassandra 3.25.0 (Debian 12) answered through its worker (oracles/python_cassandra,
// op cql.serialize) for the same type, value and protocol version on 2026-12-03: null elements,
// keys and values, empty and nested collections, tuples and UDTs with fewer components, the
// time range at both ends, a mixed-sign duration, a version-4 timeuuid.
TEST(PeerModels, PythonDriverModelAnswersWhatTheDriverAnswered) {
  using sc::Value;
  const auto in = CqlIn;
  const auto i = [](int64_t v) { return Value::Int(v); };
  const auto t = [](const char* s) { return Value::Text(s); };
  const Value null = Value::Null();
  const sc::Uuid v4 = Version4Uuid();
  const DriverAnswer kCases[] = {
      // rejected: part of the driver's message
      {in("list<int>", Value::List({i(1), null, i(3)}), 4),
       "000000030000000400000001000000000000000400000003", ""},
      {in("set<text>", Value::Set({t("a"), null}), 4), "00000002000000016100000000", ""},
      {in("map<int, text>", Value::Map({{i(1), null}, {i(2), t("b")}}), 4),
       "0000000200000004000000010000000000000004000000020000000162", ""},
      {in("map<int, text>", Value::Map({{null, t("x")}}), 3), "00000001000000000000000178", ""},
      {in("list<list<int>>", Value::List({Value::List({}), Value::List({i(1)})}), 4),
       "0000000200000004000000000000000c000000010000000400000001", ""},
      {in("tuple<int, text>", Value::Tuple({i(1), null}), 4), "0000000400000001ffffffff", ""},
      {in("tuple<int, text, int>", Value::Tuple({i(7)}), 4), "0000000400000007", ""},
      {in("udt<u, f0 int, f1 text>", Value::Udt({i(1), t("x")}), 4), "00000004000000010000000178",
       ""},
      {in("time", i(-1), 4), "ffffffffffffffff", ""},
      {in("time", i(86400000000000), 5), "",
       "value must be less than number of nanoseconds in a day"},
      {in("duration", Value::FromDuration({1, -2, 3}), 4), "020306", ""},
      {in("timeuuid", Value::FromUuid(v4), 4), "00000000000040008000000000000000", ""},
      {in("list<frozen<map<int, int>>>", Value::List({Value::Map({{i(1), null}})}), 3),
       "000000010000001000000001000000040000000100000000", ""},
      {in("list<int>", Value::List({}), 4), "00000000", ""},
      {in("list<duration>", Value::List({null, Value::FromDuration({0, 1, -1})}), 5),
       "000000020000000000000003000201", ""},
  };
  ExpectModelAnswers(&cql::PythonCassandraModel, kCases, MessageMatch::kPartOfTheDrivers);
}

// cassandra-driver 4.10.0's Encoder.encode (NodeCassandraModel, the model node_cassandra's
// divergences check answers against; targets/cql/divergences_node_cassandra.cc), on inputs that
// take each rule of the model: a null element or map key or value refused, an empty list inside
// a list, set or map key breaking Buffer.concat, an empty list as a UDT field or map value, UDT
// fields padded with nulls, tuples cut to the value's components, [short] counts and lengths at
// every depth in v1/v2, ascii as latin1 (a surrogate pair as two low bytes), any duration signs,
// any timeuuid. Each answer is what the driver itself answered for the same input (the
// node_cassandra worker, npm cassandra-driver 4.10.0 as oracles/node/package-lock.json pins it,
// 2026-12-03; the rejections' messages without the worker's "Encoder.encode: ").
TEST(PeerModels, NodeDriverModelAnswersWhatTheDriverAnswered) {
  using sc::Value;
  const auto in = CqlIn;
  const auto i = [](int64_t v) { return Value::Int(v); };
  const auto t = [](const char* s) { return Value::Text(s); };
  const Value null = Value::Null();
  const Value empty = Value::List({});
  const sc::Uuid v4 = Version4Uuid();
  constexpr const char* kNullBuffer = "Cannot read properties of null (reading 'length')";
  const DriverAnswer kCases[] = {
      {in("list<int>", Value::List({i(1), null, i(3)}), 4), "",
       "A collection can't contain null or unset values"},
      {in("list<list<int>>", Value::List({empty, Value::List({i(1)})}), 4), "", kNullBuffer},
      {in("set<set<int>>", Value::Set({Value::Set({})}), 3), "", kNullBuffer},
      {in("map<list<int>, int>", Value::Map({{empty, i(1)}}), 4), "", kNullBuffer},
      {in("map<int, list<int>>", Value::Map({{i(1), empty}}), 4),
       "00000001000000040000000100000000", ""},
      {in("map<int, text>", Value::Map({{i(1), null}}), 4), "",
       "A map can't contain null or unset values"},
      {in("map<int, text>", Value::Map({{null, t("x")}}), 4), "",
       "A map can't contain null or unset keys"},
      {in("udt<u, a int, b text>", Value::Udt({i(1)}), 4), "0000000400000001ffffffff", ""},
      {in("udt<u, a int, b list<int>>", Value::Udt({i(1), empty}), 4), "0000000400000001ffffffff",
       ""},
      {in("list<udt<u, a int>>", Value::List({Value::Udt({null})}), 4), "0000000100000004ffffffff",
       ""},
      {in("tuple<int, text, int>", Value::Tuple({i(7)}), 4), "0000000400000007", ""},
      {in("tuple<int, text>", Value::Tuple({i(1), null}), 4), "0000000400000001ffffffff", ""},
      {in("list<int>", Value::List({i(1), i(2)}), 2), "0002000400000001000400000002", ""},
      {in("list<list<int>>", Value::List({Value::List({i(1)})}), 2), "000100080001000400000001",
       ""},
      {in("map<int, int>", Value::Map({{i(1), i(2)}}), 1), "0001000400000001000400000002", ""},
      {in("ascii", Value::Text("\xc3\xa9"), 4), "e9", ""},
      {in("ascii", Value::Text("\xf0\x9f\x98\x80"), 4), "3d00", ""},
      {in("duration", Value::FromDuration({1, -2, 3}), 4), "020306", ""},
      {in("timeuuid", Value::FromUuid(v4), 4), "00000000000040008000000000000000", ""},
  };
  ExpectModelAnswers(&cql::NodeCassandraModel, kCases, MessageMatch::kExact);
}

// gocql 1.3.2's Marshal (GocqlModelAnswer, the model gocql's divergences check answers against;
// targets/cql/divergences_gocql.cc), on inputs that take each rule of the model: an inet of a
// bad length written as nil (-1 in a collection or UDT, an empty value as a tuple component,
// refused by the worker at the top), an IPv4-mapped inet as its 4 bytes, ascii and time and
// duration and timeuuid unchecked, a null element as an empty value and [short] lengths at every
// depth in v1/v2, a null tuple panicking and a null UDT refused where Marshal meets them, a short
// tuple refused, and the spec's answers beside them (a null tuple component, a null UDT field).
// Each answer is what the driver itself answered for the same input (the gocql worker, Debian 12's
// golang-github-gocql-gocql-dev 1.3.2 with golang-go 1.19, op cql.serialize, 2026-12-05); the
// model's rejection text is a part of the worker's message.
TEST(PeerModels, GocqlModelAnswersWhatTheDriverAnswered) {
  using sc::Value;
  const auto in = CqlIn;
  const auto i = [](int64_t v) { return Value::Int(v); };
  const Value null = Value::Null();
  const Value ip3 = Value::Inet(std::string("\x01\x02\x03", 3));
  constexpr const char* kPanic = "ValueError: reflect: call of reflect.Value.Type on zero Value";
  const DriverAnswer kCases[] = {
      {in("list<inet>", Value::List({ip3}), 4), "00000001ffffffff", ""},
      {in("tuple<inet, int>", Value::Tuple({ip3, i(1)}), 4), "000000000000000400000001", ""},
      {in("udt<u, a inet>", Value::Udt({ip3}), 4), "ffffffff", ""},
      {in("inet", Value::Inet(std::string(10, '\0') + "\xff\xff\x01\x02\x03\x04"), 4), "01020304",
       ""},
      {in("inet", ip3, 4), "", "gocql.Marshal wrote null (no bytes) for a value that is not null"},
      {in("ascii", Value::Text("\xc3\xa9"), 4), "c3a9", ""},
      {in("time", i(-1), 4), "ffffffffffffffff", ""},
      {in("duration", Value::FromDuration({1, -2, 3}), 4), "020306", ""},
      {in("timeuuid", Value::FromUuid(Version4Uuid()), 4), "00000000000040008000000000000000", ""},
      {in("list<int>", Value::List({i(1), null}), 2), "00020004000000010000", ""},
      {in("map<int, int>", Value::Map({{null, i(1)}}), 1), "00010000000400000001", ""},
      {in("list<list<int>>", Value::List({Value::List({i(1)})}), 2), "000100080001000400000001",
       ""},
      {in("list<tuple<int>>", Value::List({null}), 4), "", kPanic},
      {in("map<int, tuple<int>>", Value::Map({{i(1), null}}), 4), "", kPanic},
      {in("udt<u, a tuple<int>>", Value::Udt({null}), 4), "", kPanic},
      {in("list<udt<u, a int>>", Value::List({null}), 4), "",
       "gocql.Marshal: cannot marshal <nil> into .u{a=int}"},
      {in("udt<u, a udt<v, b int>>", Value::Udt({null}), 4), "",
       "gocql.Marshal: cannot marshal <nil> into .v{b=int}"},
      {in("tuple<int, int>", Value::Tuple({i(1)}), 4), "",
       "gocql.Marshal: cannont marshal tuple: wrong number of elements"},
      {in("tuple<tuple<int>, int>", Value::Tuple({null, i(1)}), 4), "ffffffff0000000400000001", ""},
      {in("list<int>", Value::List({i(1), null}), 4), "000000020000000400000001ffffffff", ""},
      {in("map<int, text>", Value::Map({{i(1), null}}), 3), "000000010000000400000001ffffffff", ""},
      {in("udt<u, a text, b int>", Value::Udt({Value::Text("a"), null}), 4), "0000000161ffffffff",
       ""},
      {in("list<blob>", Value::List({Value::Blob(std::string(1, '\0'))}), 4), "000000010000000100",
       ""},
  };
  ExpectModelAnswers(&cql::GocqlModelAnswer, kCases, MessageMatch::kPartOfTheDrivers);
}

}  // namespace
}  // namespace serdiff::targets::bson
