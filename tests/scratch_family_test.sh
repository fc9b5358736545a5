#!/usr/bin/env bash
# Adding a family, followed from the list alone: docs/architecture.md, "Adding a family".
#
#   tests/scratch_family_test.sh SOURCE-DIR WORK-DIR
#
# Copies the source tree (the files `git ls-files` lists, tracked or new and not ignored, when
# SOURCE-DIR is a git checkout; else every file but build/, .git/ and serdiff-failures/) into
# WORK-DIR/tree, then adds the family `tiny` there by doing every step of the numbered list, in
# order (each marked "Step N" below), and nothing the list does not say. The family is one
# target, tiny_be32_encode: a batch of uint32 written as big-endian 32-bit words; optimized = a
# byte-swap loop, reference = shifts written from the definition. The copy is built with the
# dev preset (g++, warnings are errors) and -DSERDIFF_ONLY_FAMILIES=tiny, so that only what
# the family needs is compiled. Then it asserts, with exact text: `serdiff list` shows the
# target and its implementations; `serdiff check` passes it with 0 failures; the printed-value
# record of its corpus exists and holds the hand-picked values; the copy's own ctest passes;
# and with the family's mutant applied (the optimized side deliberately broken) `serdiff check`
# fails. ctest runs it as scratch_family.AddingAFamilyBuilds (tests/CMakeLists.txt).
#
# Exit status: 0 passed; 1 failed (the scratch tree is kept for a look: WORK-DIR/tree); 2 on a
# usage error; 77 (ctest's SKIP_RETURN_CODE) when cmake, or git for a git checkout, is missing.
# The scratch tree is removed after a pass (set SERDIFF_KEEP_SCRATCH=1 to keep it).
set -euo pipefail

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }
case "${1-}" in
  -h|--help) usage; exit 0 ;;
esac
if [ $# -ne 2 ]; then
  echo "scratch_family_test: takes SOURCE-DIR and WORK-DIR, got $# arguments (see --help)" >&2
  exit 2
fi
[ -f "$1/CMakeLists.txt" ] || { echo "scratch_family_test: $1 is no source tree" >&2; exit 2; }
src=$(cd "$1" && pwd)
skip() { echo "SKIP: $*"; exit 77; }
command -v cmake >/dev/null || skip "cmake is not installed"
is_git=0
if [ -e "$src/.git" ]; then
  command -v git >/dev/null || skip "git is not installed (needed to list the files of $src)"
  is_git=1
fi
mkdir -p "$2"
work=$(cd "$2" && pwd)
tree=$work/tree
t_start=$SECONDS
fail() {
  echo "FAIL: $*" >&2
  echo "(the scratch tree is kept: $tree)" >&2
  exit 1
}
# expect_eq WHAT WANT GOT: exact text, with a diff when it differs.
expect_eq() {
  if [ "$2" != "$3" ]; then
    diff <(printf '%s\n' "$2") <(printf '%s\n' "$3") >&2 || true
    fail "$1: not the expected text (diff above: < expected, > got)"
  fi
  echo "ok: $1"
}

# ---- the scratch copy --------------------------------------------------------------------
rm -rf "$tree"
mkdir -p "$tree"
if [ "$is_git" = 1 ]; then
  # Paths that still exist (a tracked file deleted in the work tree is left out), without
  # WORK-DIR itself when it lies inside the source tree.
  inside=$(realpath -m --relative-to="$src" "$work")
  git -C "$src" ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do
      case "$f" in "$inside"/*) continue ;; esac
      if [ -e "$src/$f" ]; then printf '%s\0' "$f"; fi
    done | tar -C "$src" --null -T - -cf - | tar -C "$tree" -xf -
else
  tar -C "$src" --exclude=./build --exclude=./.git --exclude=./serdiff-failures -cf - . |
    tar -C "$tree" -xf -
fi
cd "$tree"
for p in src/serdiff/tiny reference/tiny targets/tiny corpus/tiny_be32_encode; do
  [ ! -e "$p" ] || fail "the source tree already has $p: this test adds a family named tiny"
done
echo "scratch copy: $(find . -type f | wc -l) files in $tree"

# ---- Step 1: src/serdiff/<family>/CMakeLists.txt, the optimized library serdiff_<family> ------
mkdir -p src/serdiff/tiny
cat >src/serdiff/tiny/CMakeLists.txt <<'EOF'
add_library(serdiff_tiny be32.cc)
serdiff_target_options(serdiff_tiny)
target_link_libraries(serdiff_tiny PUBLIC serdiff_common absl::span)
EOF
cat >src/serdiff/tiny/be32.h <<'EOF'
// tiny: a batch of unsigned 32-bit integers as big-endian words (docs/tiny.md).
#pragma once

#include <cstdint>
#include <string>

#include "absl/types/span.h"

namespace serdiff::tiny {

// Each value as 4 bytes, most significant first: 4 x values.size() bytes, allocated once.
// Never fails. Example: {0x01020304, 255} -> 01 02 03 04 00 00 00 ff.
std::string EncodeBe32Batch(absl::Span<const uint32_t> values);

}  // namespace serdiff::tiny
EOF
cat >src/serdiff/tiny/be32.cc <<'EOF'
#include "serdiff/tiny/be32.h"

#include <bit>
#include <cstring>

namespace serdiff::tiny {
namespace {

uint32_t ToBigEndian(uint32_t v) {
  if constexpr (std::endian::native == std::endian::little) {
    return __builtin_bswap32(v);
  } else {
    return v;
  }
}

}  // namespace

std::string EncodeBe32Batch(absl::Span<const uint32_t> values) {
  std::string out(4 * values.size(), '\0');
  char* p = out.data();
  for (uint32_t v : values) {
    const uint32_t word = ToBigEndian(v);
    std::memcpy(p, &word, sizeof word);
    p += sizeof word;
  }
  return out;
}

}  // namespace serdiff::tiny
EOF

# ---- Step 2: reference/<family>/CMakeLists.txt, the reference serdiff_ref_<family> ------------
# (no oracle: nothing for oracles/, scripts/bootstrap or OSS-Fuzz)
mkdir -p reference/tiny
cat >reference/tiny/CMakeLists.txt <<'EOF'
add_library(serdiff_ref_tiny be32_ref.cc)
serdiff_target_options(serdiff_ref_tiny)
target_link_libraries(serdiff_ref_tiny PUBLIC serdiff_common absl::span)
EOF
cat >reference/tiny/be32_ref.h <<'EOF'
// tiny, the reference: big-endian 32-bit words as the definition states them (docs/tiny.md).
#pragma once

#include <cstdint>
#include <string>

#include "absl/types/span.h"

namespace serdiff::ref::tiny {

// Each value as four bytes: bits 31..24, then 23..16, 15..8 and 7..0. Never fails.
// Example: {0x01020304} -> 01 02 03 04.
std::string EncodeBe32Batch(absl::Span<const uint32_t> values);

}  // namespace serdiff::ref::tiny
EOF
cat >reference/tiny/be32_ref.cc <<'EOF'
#include "reference/tiny/be32_ref.h"

namespace serdiff::ref::tiny {

std::string EncodeBe32Batch(absl::Span<const uint32_t> values) {
  std::string out;
  for (uint32_t v : values) {
    out.push_back(static_cast<char>((v >> 24) & 0xff));
    out.push_back(static_cast<char>((v >> 16) & 0xff));
    out.push_back(static_cast<char>((v >> 8) & 0xff));
    out.push_back(static_cast<char>(v & 0xff));
  }
  return out;
}

}  // namespace serdiff::ref::tiny
EOF

# ---- Step 3: targets/<family>/: the one-line CMakeLists.txt and the target definitions -------
mkdir -p targets/tiny
cat >targets/tiny/CMakeLists.txt <<'EOF'
serdiff_family_targets(tiny)
EOF
cat >targets/tiny/tiny.cc <<'EOF'
// Tiny family targets: optimized serdiff::tiny (a byte-swap loop) vs the reference
// serdiff::ref::tiny (shifts).
//
//   tiny_be32_encode   batch of uint32 -> 4 bytes each, most significant first
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "absl/strings/str_format.h"
#include "harness/domains.h"
#include "harness/edges.h"
#include "harness/target.h"
#include "harness/two_way.h"
#include "reference/tiny/be32_ref.h"
#include "serdiff/tiny/be32.h"
#include "targets/families.h"

namespace serdiff::targets::tiny {
namespace {

namespace st = ::serdiff::tiny;

using Batch = std::vector<uint32_t>;
using harness::Output;

constexpr uint32_t kMaxBatch = 1000;

// Byte boundaries 2^(8k) - 1 and 2^(8k), the top bit, and four distinct bytes.
std::vector<uint32_t> Be32Edges() {
  return {0,        1,         0xff,       0x100,      0xffff,     0x10000,
          0xffffff, 0x1000000, 0x01020304, 0x7fffffff, 0x80000000, 0xffffffff};
}

// Corpus form: the count as ConsumeIntegralInRange<uint32_t>(0, kMaxBatch), then each value
// as ConsumeIntegral<uint32_t>; printed as harness::ShowVector prints ("[2 values: 1, 2]").
harness::Domain<Batch> Be32Domain() {
  return harness::TwoWayDomain<Batch>(
      "vector<uint32>",
      rc::gen::mapcat(harness::BatchLength(kMaxBatch),
                      [](size_t n) {
                        return rc::gen::container<Batch>(
                            n, harness::EdgeBiased<uint32_t>(Be32Edges()));
                      }),
      [](auto& io, Batch& v) {
        uint32_t n = static_cast<uint32_t>(v.size());
        io.Int(n, uint32_t{0}, kMaxBatch);
        // Reading: no more values than the bytes left hold, so an input's length bounds it.
        if constexpr (std::decay_t<decltype(io)>::kReading) {
          n = std::min<uint32_t>(n, static_cast<uint32_t>(io.remaining_bytes() / 4));
        }
        v.resize(n);
        for (uint32_t& x : v) io.Int(x);
      },
      [](const Batch& v) { return harness::ShowVector(v); },
      [](std::string_view text) { return harness::ParseVector<uint32_t>(text, kMaxBatch); });
}

harness::TargetDef<Batch> Be32EncodeTarget() {
  harness::TargetDef<Batch> def;
  def.name = "tiny_be32_encode";
  def.description =
      "batch of uint32 as big-endian 32-bit words: optimized byte-swap loop vs reference shifts";
  def.domain = Be32Domain();
  def.optimized = {"optimized", [](const Batch& v) -> Output { return st::EncodeBe32Batch(v); }};
  def.others.push_back(
      {"reference", [](const Batch& v) -> Output { return ref::tiny::EncodeBe32Batch(v); }});
  def.checks.push_back({"size", [](const Batch& v, const std::string& out) {
                          if (out.size() == 4 * v.size()) return absl::OkStatus();
                          return absl::InternalError(
                              absl::StrFormat("%d bytes for %d values", out.size(), v.size()));
                        }});
  // One exactly sized string (its terminator included).
  def.heap_bound = harness::HeapBound<Batch>::Linear(1, 64);
  def.offsets = harness::OffsetPolicy::kNotApplicable;
  def.offsets_reason = "the input is a batch of integers, not bytes";
  return def;
}

}  // namespace

void RegisterTargets(harness::Registry& registry) {
  // Fuzz limits (Step 5): max_len, the heap bound at max_len, the timeout, the derivation.
  registry.SetFuzzLimits("tiny_*", {4002, 4064, 25,
                                    "count (2 bytes) + <= 1000 values (kMaxBatch) x 4 bytes: "
                                    "output <= 4000 bytes + 64"});
  // The custom mutator lies about the count (2 bytes, FuzzedDataProvider order).
  registry.SetDefaultLengthFields({{2, false}});
  registry.Add(Be32EncodeTarget());
}

SERDIFF_REGISTER_FAMILY("tiny", RegisterTargets);

}  // namespace serdiff::targets::tiny
EOF

# ---- Step 4: no list of names: the fuzz binaries are fuzz/limits.tsv's rows (Step 5) ----------

# ---- Step 5: the seed corpus (with the CLI built), a dictionary if any, the limits row ---------
# The dev preset as the list says, but -O0 without debug information (not the preset's -O2 -g):
# this tree is built to be tested once, and its build was most of this test's two minutes.
# When the tree that runs this test compiles through ccache (SERDIFF_SCRATCH_CCACHE=ON, set by
# tests/CMakeLists.txt), the copy takes that tree's flags instead and its objects are cache hits.
fast=(-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O0 -DCMAKE_C_FLAGS_RELWITHDEBINFO=-O0)
if [ "${SERDIFF_SCRATCH_CCACHE:-OFF}" = ON ]; then
  fast=(-DSERDIFF_CCACHE=ON -DSERDIFF_LINE_TABLES_ONLY="${SERDIFF_SCRATCH_LINE_TABLES_ONLY:-OFF}")
fi
cmake --preset dev -DSERDIFF_ONLY_FAMILIES=tiny -DSERDIFF_BENCH=ON "${fast[@]}" >"$work/configure.log" 2>&1 ||
  { tail -30 "$work/configure.log" >&2; fail "Step 5: configure (log: $work/configure.log)"; }
t_cli=$SECONDS
cmake --build --preset dev --target serdiff >"$work/build-cli.log" 2>&1 ||
  { tail -30 "$work/build-cli.log" >&2; fail "Step 5: build the CLI (log: $work/build-cli.log)"; }
echo "built the CLI in $((SECONDS - t_cli)) s"
serdiff=build/dev/tools/serdiff
"$serdiff" seed tiny_be32_encode --count 20 >"$work/seed.log"
"$serdiff" seed tiny_be32_encode --value '[0 values]' --value '[1 value: 16909060]' \
  --value '[4 values: 0, 255, 16777216, 4294967295]' >>"$work/seed.log"
# (no fuzz/tiny.dict: the family has no dictionary)
# The fuzz limits: registry.SetFuzzLimits in Step 3's registration function; then the files
# generated from the registry, and cmake again so that the .options follow.
scripts/registry-tables --write "$serdiff" >"$work/registry-tables.log" ||
  { cat "$work/registry-tables.log" >&2; fail "Step 5: scripts/registry-tables --write"; }
limits_row=$(printf 'tiny_be32_encode\t4002\t4064\t25\t1\t%s' \
  "count (2 bytes) + <= 1000 values (kMaxBatch) x 4 bytes: output <= 4000 bytes + 64")
grep -qxF "$limits_row" fuzz/limits.tsv || fail "Step 5: fuzz/limits.tsv has no row for tiny_be32_encode"
cmake --preset dev -DSERDIFF_ONLY_FAMILIES=tiny -DSERDIFF_BENCH=ON "${fast[@]}" >>"$work/configure.log" 2>&1 ||
  fail "Step 5: configure again (log: $work/configure.log)"
# (optional) the count's layout for the custom mutator: registry.SetDefaultLengthFields in
# Step 3's registration function.

# ---- Step 6: the printed-value record of every shipped corpus file -----------------------------
scripts/corpus-printed build/dev tiny_ >"$work/corpus-printed.log"

# ---- Step 7: tests, properties, benchmark, mutants --------------------------------------------
cat >tests/tiny_test.cc <<'EOF'
// tiny family: exact bytes (docs/tiny.md).
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "reference/tiny/be32_ref.h"
#include "serdiff/tiny/be32.h"

namespace {

const std::vector<uint32_t> kValues = {0x01020304, 0, 0xffffffff, 0x80};
const std::string kBytes(
    "\x01\x02\x03\x04"
    "\x00\x00\x00\x00"
    "\xff\xff\xff\xff"
    "\x00\x00\x00\x80",
    16);

TEST(TinyBe32, OptimizedWritesMostSignificantByteFirst) {
  EXPECT_EQ(serdiff::tiny::EncodeBe32Batch(kValues), kBytes);
}

TEST(TinyBe32, ReferenceWritesMostSignificantByteFirst) {
  EXPECT_EQ(serdiff::ref::tiny::EncodeBe32Batch(kValues), kBytes);
}

TEST(TinyBe32, EmptyBatchIsNoBytes) {
  EXPECT_EQ(serdiff::tiny::EncodeBe32Batch({}), "");
  EXPECT_EQ(serdiff::ref::tiny::EncodeBe32Batch({}), "");
}

}  // namespace
EOF
cat >props/tiny_test.cc <<'EOF'
// tiny family: the words read back, most significant byte first, are the values.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "serdiff/tiny/be32.h"

RC_GTEST_PROP(TinyBe32, WordsReadBackAsTheValues, (const std::vector<uint32_t>& values)) {
  const std::string out = serdiff::tiny::EncodeBe32Batch(values);
  RC_ASSERT(out.size() == 4 * values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    uint32_t word = 0;
    for (size_t b = 0; b < 4; ++b) word = (word << 8) | static_cast<uint8_t>(out[4 * i + b]);
    RC_ASSERT(word == values[i]);
  }
}
EOF
cat >bench/tiny_benchmark.cc <<'EOF'
// tiny family benchmark: optimized vs reference, 1000 uint32 values per iteration.
//   build/bench/bench/tiny_benchmark
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "reference/tiny/be32_ref.h"
#include "serdiff/tiny/be32.h"

namespace {

std::vector<uint32_t> Values() {
  std::vector<uint32_t> v(1000);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<uint32_t>(i * 2654435761u);
  return v;
}

void BM_Optimized(benchmark::State& state) {
  const std::vector<uint32_t> v = Values();
  for (auto _ : state) benchmark::DoNotOptimize(serdiff::tiny::EncodeBe32Batch(v));
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(v.size()));
}
BENCHMARK(BM_Optimized);

void BM_Reference(benchmark::State& state) {
  const std::vector<uint32_t> v = Values();
  for (auto _ : state) benchmark::DoNotOptimize(serdiff::ref::tiny::EncodeBe32Batch(v));
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(v.size()));
}
BENCHMARK(BM_Reference);

}  // namespace

BENCHMARK_MAIN();
EOF
# The mutant: the optimized file with values of 2^24 and above left unswapped, as a patch.
mkdir -p mutants/tiny
mutant=mutants/tiny/top_byte_values_not_swapped.patch
sed 's/return __builtin_bswap32(v);/return v >= 0x1000000 ? v : __builtin_bswap32(v);/' \
  src/serdiff/tiny/be32.cc >"$work/be32_mutated.cc"
{
  echo "# mutant: values of 2^24 and above written little-endian"
  echo "# fuzz-target: tiny_be32_encode"
  diff -u --label a/src/serdiff/tiny/be32.cc --label b/src/serdiff/tiny/be32.cc \
    src/serdiff/tiny/be32.cc "$work/be32_mutated.cc" || true
} >"$mutant"
grep -q '^+.*v >= 0x1000000' "$mutant" || fail "Step 7: the sed made no mutant"

# ---- Step 8: docs/<family>.md and the family's entry in the README -----------------------------
cat >docs/tiny.md <<'EOF'
# tiny family

The smallest family, written by tests/scratch_family_test.sh to show that the list in
docs/architecture.md ("Adding a family") is complete. Optimized: `src/serdiff/tiny/be32.{h,cc}`
(a byte-swap loop). Reference: `reference/tiny/be32_ref.{h,cc}` (shifts).

## Format

A batch of unsigned 32-bit integers, each written as four bytes, most significant first
(big-endian, "network byte order"): 0x01020304 is `01 02 03 04`, 255 is `00 00 00 ff`. A
batch of n values is exactly 4n bytes; there is no count and no error.

## Target

`tiny_be32_encode`: up to 1000 values (kMaxBatch), edge-biased at the byte boundaries
2^(8k) - 1 and 2^(8k) and the top bit; peak heap of the optimized side at most the output + 64.
EOF
# The entry goes last, before the paragraph's closing "; see".
perl -0pi -e 's/(Families \(each with `docs\/<family>\.md`\):.*?\));/$1, `tiny` (uint32 batches as\nbig-endian words: the smallest family);/s' README.md
# shellcheck disable=SC2016
grep -q '`tiny` (uint32 batches' README.md || fail "Step 8: found no family list in README.md"

# ---- Step 9: build and test ---------------------------------------------------------------------
t_all=$SECONDS
cmake --build --preset dev >"$work/build-all.log" 2>&1 ||
  { tail -30 "$work/build-all.log" >&2; fail "Step 9: build (log: $work/build-all.log)"; }
echo "built the rest in $((SECONDS - t_all)) s"
ctest --preset dev >"$work/ctest.log" 2>&1 ||
  { tail -40 "$work/ctest.log" >&2; fail "Step 9: ctest of the scratch tree (log: $work/ctest.log)"; }
echo "ok: $(grep -E 'tests passed' "$work/ctest.log")"

# ==== what the family gives: exact text ========================================================
expect_eq "serdiff list" "tiny_be32_encode
  family:   tiny
  domain:   vector<uint32>
  compares: optimized vs reference (reference)
  batch of uint32 as big-endian 32-bit words: optimized byte-swap loop vs reference shifts
  implementation optimized (optimized, compiled): src/serdiff/tiny
  implementation reference (reference, compiled): reference/tiny
  length fields (custom mutator): 2-byte little-endian
  peak heap bound: output + 64
  fuzz limits: max_len 4002 B, bound at max_len 4064 B (malloc_limit_mb 1), timeout 25 s: count (2 bytes) + <= 1000 values (kMaxBatch) x 4 bytes: output <= 4000 bytes + 64
  error offsets: not-applicable (the input is a batch of integers, not bytes)" "$("$serdiff" list)"

check_out=$("$serdiff" check --filter tiny_ --failures-dir "$work/failures") ||
  fail "serdiff check failed on the tiny family:
$check_out"
# Every column but the seconds.
# 19 corpus files: the 20 generated seeds hold the empty batch five times (files are named by
# their SHA-1), and the 3 hand-picked ones; the largest of 200 generated batches is 1000 values.
expect_eq "serdiff check" "target            corpus generated failures    peak heap        bound     ref peak  reject peak reject bound
tiny_be32_encode      19       200        0       4001 B       4064 B     11.3 KiB            -            -
1 targets, 0 failures" "$(printf '%s\n' "$check_out" | sed -E '2s/ +[0-9.]+$//; 1s/ +seconds$//')"

record=tests/data/corpus-printed/tiny_be32_encode.tsv
[ -f "$record" ] || fail "no corpus-printed record $record"
expect_eq "corpus-printed record: one line per corpus file" \
  "$(find corpus/tiny_be32_encode -type f | wc -l)" "$(wc -l <"$record")"
# The hand-picked seeds: their files (named by SHA-1), their record lines, and one file's bytes
# (FuzzedDataProvider reads from the back: the count 1, then the value 0x01020304).
expect_eq "serdiff seed --value: the files" "$tree/corpus/tiny_be32_encode/1489f923c4dca729178b3e3233458550d8dddf29
$tree/corpus/tiny_be32_encode/750cfe90608c5b0c093ad3757d2027facf19b719
$tree/corpus/tiny_be32_encode/c145cf5bc13978086775a5c8beb15b581982771e" "$(tail -3 "$work/seed.log")"
expect_eq "corpus-printed record: the hand-picked values" \
  "$(printf '%s\t%s\n' 1489f923c4dca729178b3e3233458550d8dddf29 '[0 values]' \
    750cfe90608c5b0c093ad3757d2027facf19b719 '[1 value: 16909060]' \
    c145cf5bc13978086775a5c8beb15b581982771e '[4 values: 0, 255, 16777216, 4294967295]')" \
  "$(grep -E '^(1489f923|750cfe90|c145cf5b)' "$record")"
expect_eq "the corpus form of [1 value: 16909060]" " 04 03 02 01 01 00" \
  "$(od -An -tx1 corpus/tiny_be32_encode/750cfe90608c5b0c093ad3757d2027facf19b719)"

bench_out=$(build/dev/bench/tiny_benchmark --benchmark_min_time=0.01 --benchmark_format=csv 2>/dev/null) ||
  fail "bench/tiny_benchmark did not run"
expect_eq "bench/tiny_benchmark: its benchmarks" "BM_Optimized
BM_Reference" "$(printf '%s\n' "$bench_out" | sed -nE 's/^"(BM_[A-Za-z]+)",.*/\1/p')"

# ==== the test can fail: the mutant of Step 7 breaks the optimized side =======================
patch -s -p1 <"$mutant"
cmake --build --preset dev >"$work/build-mutant.log" 2>&1 ||
  { tail -30 "$work/build-mutant.log" >&2; fail "the mutant does not compile"; }
set +e
"$serdiff" check --filter tiny_ --failures-dir "$work/failures" >"$work/mutant-check.out" \
  2>"$work/mutant-check.err"
mutant_rc=$?
set -e
expect_eq "serdiff check with the mutant: exit status" 1 "$mutant_rc"
expect_eq "serdiff check with the mutant: the table" "target            corpus generated failures    peak heap        bound     ref peak  reject peak reject bound
tiny_be32_encode      19       200      150       4001 B       4064 B     11.3 KiB            -            -
1 targets, 150 failures" "$(sed -E '3q; 2s/ +[0-9.]+$//; 1s/ +seconds$//' "$work/mutant-check.out")"
expect_eq "serdiff check with the mutant: every failure's class" \
  "FAIL tiny_be32_encode: bytes-mismatch:reference" "$(grep '^FAIL' "$work/mutant-check.out" | sort -u)"
expect_eq "serdiff check with the mutant: the reports' stable lines" \
  "serdiff: tiny_be32_encode: bytes-mismatch:reference" \
  "$(grep '^serdiff: ' "$work/mutant-check.err" | sort -u)"
# As scripts/mutants requires of a mutant: the suite (here the scratch tree's) fails.
if ctest --preset dev >"$work/ctest-mutant.log" 2>&1; then
  fail "ctest of the scratch tree passed with the mutant (log: $work/ctest-mutant.log)"
fi
echo "ok: ctest of the scratch tree fails with the mutant: $(grep -E 'tests failed out of' "$work/ctest-mutant.log")"
patch -s -R -p1 <"$mutant"

echo "scratch family: passed in $((SECONDS - t_start)) s"
if [ "${SERDIFF_KEEP_SCRATCH:-0}" != 1 ]; then
  cd "$work" && rm -rf "$tree"
fi
