// BSON family: what serdiff accepts from libbson 1.23 (oracles/libbson, in process), in
// bson_encode, bson_encode_packed and bson_decode. Declared in targets/bson/divergences.h; where
// the BSON spec and libbson disagree, the spec decides serdiff's behaviour, and each entry says
// what libbson does instead and why it is accepted. tests/bson_test.cc shows, for each, a nearby
// valid input that the predicate does not cover.
#include <algorithm>

#include <string>
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
    if (e.value.type == serdiff::bson::Type::kRegex && !LibbsonKeepsRegexOptions(e.value.s2)) {
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

harness::OffsetExemption LibbsonDecodeOffsetExemption() {
  return {"libbson", "bson_validate's error offset follows libbson's own rules, not serdiff's"};
}

}  // namespace serdiff::targets::bson
