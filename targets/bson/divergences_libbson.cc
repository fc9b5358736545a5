// BSON family: what serdiff accepts from libbson 1.23 (oracles/libbson, in process), in
// bson_encode, bson_encode_packed and bson_decode. Declared in targets/bson/divergences.h; where
// the BSON spec and libbson disagree, the spec decides serdiff's behaviour, and each entry says
// what libbson does instead and why it is accepted. tests/bson_test.cc shows, for each, a nearby
// valid input that the predicate does not cover.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "reference/bson/bson_ref.h"
#include "serdiff/bson/codec.h"
#include "targets/bson/divergences.h"
#include "targets/bson/internal.h"

namespace serdiff::targets::bson {

using serdiff::bson::Document;

namespace {

// True when the options, once in the alphabetical order serdiff writes them in, hold each a
// letter of the spec's "ilmsux" at most once: what libbson's bson_append_regex writes unchanged.
bool LibbsonKeepsRegexOptions(std::string options) {
  constexpr std::string_view kValid = "ilmsux";  // the spec's option letters, in order
  std::sort(options.begin(), options.end());
  for (size_t i = 0; i < options.size(); ++i) {
    if (kValid.find(options[i]) == std::string_view::npos) return false;
    if (i > 0 && options[i - 1] == options[i]) return false;
  }
  return true;
}

bool HasNonCanonicalRegex(const std::vector<serdiff::bson::Element>& els) {
  for (const serdiff::bson::Element& e : els) {
    if (e.value.type == serdiff::bson::Type::kRegex &&
        !LibbsonKeepsRegexOptions(e.value.s2.get())) {
      return true;
    }
    if (HasNonCanonicalRegex(e.value.children)) return true;
  }
  return false;
}

// Deep enough for any input a fuzzer sends (7 bytes per level), shallow enough for the stack.
constexpr int kUnlimitedDepth = 1000;

}  // namespace

std::vector<harness::Divergence<Document>> LibbsonEncodeDivergences() {
  std::vector<harness::Divergence<Document>> out;
  out.push_back({"libbson",
                 "nesting deeper than 100 levels: serdiff refuses it (the spec's recommended "
                 "limit, kDefaultMaxDepth), libbson's bson_append_* builds any depth",
                 [](const Document& doc, const harness::Output& opt, const harness::Output&) {
                   return !opt.ok() && serdiff::bson::Depth(doc) > serdiff::bson::kDefaultMaxDepth;
                 }});
  out.push_back({"libbson",
                 "regex options with a repeated letter or a letter outside \"ilmsux\": both "
                 "write them in alphabetical order (BSON 1.1, element 0x0B), libbson's "
                 "bson_append_regex also drops repeats and unknown letters, serdiff keeps "
                 "them (it reorders, it does not drop what the caller gave)",
                 [](const Document& doc, const harness::Output& opt, const harness::Output& other) {
                   return opt.ok() && other.ok() && *opt != *other &&
                          HasNonCanonicalRegex(doc.elements);
                 }});
  // Held at their edges: 100 levels, which serdiff writes (had it refused them, a planted
  // off-by-one, the divergence must not cover that), and options libbson keeps as they are.
  out[0].edges = [] {
    const Document doc = NestedDocument(100);
    return std::vector<harness::DivergenceEdge<Document>>{
        {"100 levels deep, the limit itself", doc, Rejection("nesting deeper than 100 levels"),
         *sb::Encode(doc)}};
  };
  out[1].edges = [] {
    const Document doc = DocumentOf(R"({"r": regex /abc/ilmsux})");
    std::string other = *sb::Encode(doc);
    other.back() = '\x01';  // any other bytes libbson might write
    return std::vector<harness::DivergenceEdge<Document>>{
        {"regex options ilmsux, each letter once", doc, *sb::Encode(doc), other}};
  };
  return out;
}

std::vector<harness::Divergence<std::string>> LibbsonDecodeDivergences() {
  namespace sb = serdiff::bson;
  std::vector<harness::Divergence<std::string>> out;
  out.push_back(
      {"libbson",
       "checks libbson 1.23's bson_validate skips (found by the bson_decode property and "
       "fuzzer; modelled by Validate with libbson_quirks, no depth limit): after a "
       "code_w_scope with a valid scope, or a value with ill-formed UTF-8 (it never rejects a "
       "string value's UTF-8, only keys'), it accepts the rest of that document unchecked (a "
       "bool 2 after it passes; the parents are still checked); it checks only the lengths of a "
       "code_w_scope; it steps over an embedded document or array shorter than 5 bytes or not "
       "ending with 0x00 without looking inside (its visitor sees only subdocuments "
       "bson_init_static accepts)",
       [](const std::string& in, const harness::Output& opt, const harness::Output& other) {
         // Only where the spec (the reference) rejects the input too.
         if (opt.ok() || !other.ok() || ref::bson::Validate(in).ok()) return false;
         sb::DecodeOptions libbson_model;
         libbson_model.max_depth = kUnlimitedDepth;
         libbson_model.libbson_quirks = true;
         return sb::Validate(in, libbson_model).ok();
       }});
  out.push_back(
      {"libbson",
       "nesting deeper than 100 levels: serdiff rejects it (kDefaultMaxDepth, the "
       "limit the spec recommends), libbson 1.23's bson_validate has no depth limit",
       [](const std::string& in, const harness::Output& opt, const harness::Output& other) {
         return !opt.ok() && other.ok() && !ref::bson::Validate(in).ok() &&
                sb::Validate(in, sb::DecodeOptions{true, false, kUnlimitedDepth}).ok();
       }});
  // Held at their edges: inputs the spec accepts (100 levels; a bool 1), which a serdiff that
  // rejected them would get wrong whatever libbson says, and one libbson's quirks reject too.
  for (auto& d : out) {
    d.edges = [] {
      const std::string deep = NestedBytes(100);
      const std::string flag = BytesOfHex("090000000861000100");
      const std::string two = BytesOfHex("090000000861000200");
      return std::vector<harness::DivergenceEdge<std::string>>{
          {"100 levels deep, the limit itself", deep, Rejection("too deep"), deep},
          {"{\"a\": true}", flag, Rejection("planted"), flag},
          {"{\"a\": bool 2}: libbson's bson_validate rejects it too", two, sb::Validate(two), two}};
    };
  }
  return out;
}

std::vector<harness::DeclineEdge<Document>> LibbsonEncodeDeclineEdges() {
  using serdiff::bson::Type;
  using serdiff::bson::Value;
  const auto packed = [](Value v) {  // {a: v}
    Document d;
    d.elements.push_back({"a", std::move(v)});
    return d;
  };
  const auto one = [&packed](Type type, std::string s, std::string s2 = {}, int64_t i = 0) {
    Value v;
    v.type = type;
    v.s = std::move(s);
    v.s2 = std::move(s2);
    v.i = i;
    return packed(std::move(v));
  };
  Value ragged = serdiff::bson::PackedInt32(std::vector<int32_t>{1, 2});
  ragged.s.pop_back();  // 7 bytes: not a multiple of 4
  const std::string id12(12, '\x01');
  return {
      {"ObjectId of 12 bytes, its size", one(Type::kObjectId, id12), false},
      {"ObjectId of 11 bytes", one(Type::kObjectId, std::string(11, '\x01')), true},
      {"ObjectId of 13 bytes", one(Type::kObjectId, std::string(13, '\x01')), true},
      {"decimal128 of 16 bytes, its size", one(Type::kDecimal128, std::string(16, '\x02')), false},
      {"decimal128 of 15 bytes", one(Type::kDecimal128, std::string(15, '\x02')), true},
      {"DBPointer with a 12-byte id", one(Type::kDbPointer, "db.c", id12), false},
      {"DBPointer with an 11-byte id", one(Type::kDbPointer, "db.c", id12.substr(1)), true},
      {"DBPointer namespace with a NUL", one(Type::kDbPointer, std::string("db\0c", 4), id12),
       true},
      {"bool 1, the last value it takes", one(Type::kBool, "", "", 1), false},
      {"bool 2", one(Type::kBool, "", "", 2), true},
      {"regex without a NUL", one(Type::kRegex, "a.b", "i"), false},
      {"regex options with a NUL", one(Type::kRegex, "a.b", std::string("i\0", 2)), true},
      {"code without a NUL", one(Type::kCode, "f()"), false},
      {"code with a NUL", one(Type::kCode, std::string("f\0", 2)), true},
      {"code_w_scope without a NUL", one(Type::kCodeWithScope, "f()"), false},
      {"code_w_scope with a NUL", one(Type::kCodeWithScope, std::string("f\0", 2)), true},
      {"packed bool bytes 0 and 1", packed(serdiff::bson::PackedBool(std::vector<uint8_t>{0, 1})),
       false},
      {"packed bool byte 2", packed(serdiff::bson::PackedBool(std::vector<uint8_t>{1, 2})), true},
      {"packed int32 of 8 bytes", packed(serdiff::bson::PackedInt32(std::vector<int32_t>{1, 2})),
       false},
      {"packed int32 of 7 bytes", packed(std::move(ragged)), true},
  };
}

harness::OffsetExemption LibbsonDecodeOffsetExemption() {
  return {"libbson", "bson_validate's error offset follows libbson's own rules, not serdiff's"};
}

}  // namespace serdiff::targets::bson
