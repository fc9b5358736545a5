// The heap bound of a subject (RunConfig::subject): the bound is computed from the subject's
// own answer, and a known peak-heap departure (HeapDivergence) widens it for the implementation
// that declared it alone, keyed on that implementation's answer, whatever the optimized side
// answered. Tiny synthetic targets (harness/typed_target.h, Judge).
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>

#include "harness/domains.h"
#include "harness/target.h"
#include "serdiff/common/error_offset.h"

namespace serdiff::harness {
namespace {

void* volatile g_sink;

// Allocates `bytes` and forgets them (the peak sees them).
void Touch(int64_t bytes) {
  std::unique_ptr<char[]> p(new char[static_cast<size_t>(bytes)]);
  g_sink = p.get();
}

// ref_a and ref_b both reject v, allocating v bytes first; the optimized side answers as
// `optimized_accepts` says, allocating 1 byte. ref_a declares a heap departure of 200,000 bytes
// on its rejections, and a class difference from the optimized side (when it accepts).
TargetDef<int64_t> TwoPeers(bool optimized_accepts) {
  TargetDef<int64_t> def;
  def.name = "tiny_heap";
  def.domain = IntegerDomain<int64_t>("int64", rc::gen::arbitrary<int64_t>());
  def.optimized = {"optimized", [optimized_accepts](const int64_t&) -> Output {
                     Touch(1);
                     if (optimized_accepts) return std::string("ok");
                     return InvalidAt(0, "no");
                   }};
  for (const char* name : {"ref_a", "ref_b"}) {
    def.others.push_back({name, [](const int64_t& v) -> Output {
                            Touch(v);
                            return InvalidAt(0, "asked for the bytes");
                          }});
  }
  def.heap_bound = HeapBound<int64_t>::Fixed(4096);
  def.heap_divergences.push_back(
      {"ref_a", "allocates before it checks",
       [](const int64_t&, const Output& out) -> int64_t { return out.ok() ? 0 : 200000; }});
  def.divergences.push_back({"ref_a",
                             "rejects what the optimized side takes",
                             [](const int64_t&, const Output& opt, const Output& other) {
                               return opt.ok() && !other.ok();
                             },
                             {},
                             "a synthetic target"});
  def.divergences.push_back({"ref_b",
                             "rejects what the optimized side takes",
                             [](const int64_t&, const Output& opt, const Output& other) {
                               return opt.ok() && !other.ok();
                             },
                             {},
                             "a synthetic target"});
  return def;
}

RunConfig Subject(const char* name) {
  RunConfig c;
  c.subject = name;
  return c;
}

TEST(VerdictSubjectHeap, ADeparturesAllowanceIsItsOwnImplementationsAlone) {
  TypedTarget<int64_t> t(TwoPeers(false));
  CaseResult a = t.Judge(100000, Subject("ref_a"));
  EXPECT_TRUE(a.passed) << a.report;
  EXPECT_EQ(a.heap_bound_bytes, 4096 + 200000);
  // ref_b peaks as ref_a does, but declared nothing: the plain bound.
  CaseResult b = t.Judge(100000, Subject("ref_b"));
  EXPECT_EQ(b.failure_class, "heap-bound:ref_b") << b.report;
  EXPECT_EQ(b.heap_bound_bytes, 4096);
}

// The allowance is keyed on the subject's answer (a rejection here), not the optimized side's
// (an acceptance, which would allow nothing).
TEST(VerdictSubjectHeap, TheAllowanceSeesTheSubjectsAnswer) {
  TypedTarget<int64_t> t(TwoPeers(true));
  CaseResult a = t.Judge(100000, Subject("ref_a"));
  EXPECT_TRUE(a.passed) << a.report;
  EXPECT_EQ(a.heap_bound_bytes, 4096 + 200000);
  EXPECT_EQ(t.Judge(300000, Subject("ref_a")).failure_class, "heap-bound:ref_a");
}

// A bound in proportion to the output is the subject's own output's: a subject whose (accepted,
// known to differ) output is 100,000 bytes may peak at that plus 4 KiB, whatever the optimized
// side's one byte allows.
TEST(VerdictSubjectHeap, ALinearBoundIsOfTheSubjectsOutput) {
  TargetDef<int64_t> def;
  def.name = "tiny_linear";
  def.domain = IntegerDomain<int64_t>("int64", rc::gen::arbitrary<int64_t>());
  def.optimized = {"optimized", [](const int64_t&) -> Output { return std::string("a"); }};
  def.others.push_back({"long", [](const int64_t& v) -> Output {
                          return std::string(static_cast<size_t>(v), 'x');
                        }});
  def.heap_bound = HeapBound<int64_t>::Linear(1, 4096);
  def.divergences.push_back({"long",
                             "writes the value out in full",
                             [](const int64_t&, const Output&, const Output&) { return true; },
                             {},
                             "a synthetic target"});
  TypedTarget<int64_t> t(std::move(def));
  CaseResult r = t.Judge(100000, Subject("long"));
  EXPECT_TRUE(r.passed) << r.report;
  EXPECT_EQ(r.heap_bound_bytes, 100000 + 4096);
  // Without a subject, the optimized side's bound: its own output's.
  EXPECT_EQ(t.Judge(100000, {}).heap_bound_bytes, 1 + 4096);
}

}  // namespace
}  // namespace serdiff::harness
