// BSON benchmark (docs/bson.md; results in docs/benchmarks.md): integer formatting, encoding a
// large array, decoding + validating.
//
//   cmake --preset bench && cmake --build --preset bench --target bson_benchmark
//   build/bench/bench/bson_benchmark --benchmark_repetitions=3
//       --benchmark_report_aggregates_only=true
//
// Names:
//   BM_Format<impl>/workload:<w> w: 0 small (0..999 in order, one iteration = all 1,000),
//                                1 random (uniform int64: a 2^20 pool from a fixed seed, one
//                                iteration = the next 2^16, never the same window twice in a
//                                row), 2 keys (0..999,999); items_per_second = integers.
//                                impl: Optimized (serdiff::bson::FormatInt64, fixed point),
//                                DigitPairs (FormatInt64DigitPairs, the second tier), ToChars
//                                (std::to_chars), AbslFastIntToBuffer (absl::numbers_internal::
//                                FastIntToBuffer, what StrCat runs), FmtFormatInt
//                                (fmt::format_int), FmtCompiled (fmt::format_to, compiled "{}"),
//                                AbslAlphaNum (absl::AlphaNum + memcpy), Snprintf ("%lld").
//                                Each is checked equal to std::to_chars on every workload value
//                                before it is timed.
//   BM_KeysCounter               ArrayKeyCounter::Next + write, what the encoder uses
//   BM_Encode<impl>/bits:<32|64> {a: [0, 1, ..., 999999]} as int32 or int64; impl:
//                                PackedWithBuild (PackedInt32/64 from the caller's vector, then
//                                Encode: model build + encode), Packed (Encode of a prebuilt
//                                packed model), OptimizedWithBuild (one Element per value,
//                                then Encode), MemcpyReused (memcpy of the output into a reused
//                                buffer), Optimized (serdiff::bson::
//                                Encode of a prebuilt children model), Reference
//                                (serdiff::ref::bson::Encode), Libbson
//                                (bson_append_array_begin, bson_append_int32/int64 with keys
//                                from bson_uint32_to_string, bson_append_array_end; the bson_t
//                                is initialized and destroyed each iteration: its model build
//                                and encode are one), Memcpy (a std::string copy of the output
//                                bytes: allocation + page faults + memcpy)
//   BM_ReadElements/bits:<32|64> one read-only pass over the prebuilt children model (type and
//                                integer of each Element): the floor of any encoder of it
//   BM_BuildChildrenOnly/...     the children model's build alone (one Element per value)
//   validate/int32/<impl>        the encoded bytes of the same document; impl: optimized
//                                (serdiff::bson::Validate, UTF-8 checked), libbson
//                                (bson_init_static + bson_validate with BSON_VALIDATE_UTF8),
//                                decode (serdiff::bson::Decode, builds the document model)
#include <benchmark/benchmark.h>
#include <bson/bson.h>
#include <fmt/compile.h>
#include <fmt/format.h>

#include <charconv>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "reference/bson/bson_ref.h"
#include "serdiff/bson/codec.h"
#include "serdiff/bson/int_format.h"

namespace {

namespace sb = serdiff::bson;

constexpr int64_t kKeys = 1000000;

// Workloads: 0 small (0..999, in order), 1 random (uniform int64), 2 keys (0..999,999).
// "random" is a pool of 2^20 values from a fixed seed; one iteration formats the next 2^16 of
// them, so consecutive iterations see different values and no branch predictor can learn the
// sequence (the pool is 8 MiB and read in order, so the prefetcher hides its misses).
constexpr size_t kRandomPool = size_t{1} << 20;
constexpr size_t kRandomWindow = size_t{1} << 16;

const std::vector<int64_t>& Workload(int which) {
  static const auto* small = [] {
    auto* v = new std::vector<int64_t>;
    for (int64_t i = 0; i < 1000; ++i) v->push_back(i);
    return v;
  }();
  static const auto* random = [] {
    auto* v = new std::vector<int64_t>;
    std::mt19937_64 rng(42);
    for (size_t i = 0; i < kRandomPool; ++i) v->push_back(static_cast<int64_t>(rng()));
    return v;
  }();
  static const auto* keys = [] {
    auto* v = new std::vector<int64_t>;
    for (int64_t i = 0; i < kKeys; ++i) v->push_back(i);
    return v;
  }();
  return which == 0 ? *small : which == 1 ? *random : *keys;
}

template <typename Fn>
void RunFormat(benchmark::State& state, Fn format) {
  const std::vector<int64_t>& values = Workload(static_cast<int>(state.range(0)));
  const size_t window = state.range(0) == 1 ? kRandomWindow : values.size();
  size_t start = 0;
  char buf[32];
  for (auto _ : state) {
    size_t total = 0;
    const int64_t* v = values.data() + start;
    for (size_t i = 0; i < window; ++i) {
      total += format(v[i], buf);
      benchmark::DoNotOptimize(buf);
    }
    benchmark::DoNotOptimize(total);
    start = (start + window) % values.size();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(window));
}

// Every formatter must agree with std::to_chars before it is timed.
template <typename Fn>
bool AgreesWithToChars(Fn format) {
  for (int which = 0; which < 3; ++which) {
    for (int64_t v : Workload(which)) {
      char want[32], got[32];
      const size_t n = static_cast<size_t>(std::to_chars(want, want + 32, v).ptr - want);
      if (format(v, got) != n || std::memcmp(want, got, n) != 0) return false;
    }
  }
  return true;
}

template <typename Fn>
void RunCheckedFormat(benchmark::State& state, Fn format) {
  static const bool ok = AgreesWithToChars(format);
  if (!ok) {
    state.SkipWithError("output differs from std::to_chars");
    return;
  }
  RunFormat(state, format);
}

void BM_FormatOptimized(benchmark::State& state) {
  RunCheckedFormat(state, [](int64_t v, char* buf) { return sb::FormatInt64(v, buf); });
}
void BM_FormatDigitPairs(benchmark::State& state) {
  RunCheckedFormat(state, [](int64_t v, char* buf) { return sb::FormatInt64DigitPairs(v, buf); });
}
void BM_FormatSnprintf(benchmark::State& state) {
  RunCheckedFormat(state, [](int64_t v, char* buf) {
    return static_cast<size_t>(std::snprintf(buf, 32, "%lld", static_cast<long long>(v)));
  });
}
void BM_FormatToChars(benchmark::State& state) {
  RunCheckedFormat(state, [](int64_t v, char* buf) {
    return static_cast<size_t>(std::to_chars(buf, buf + 32, v).ptr - buf);
  });
}
void BM_FormatAbslFastIntToBuffer(benchmark::State& state) {
  RunCheckedFormat(state, [](int64_t v, char* buf) {
    return static_cast<size_t>(absl::numbers_internal::FastIntToBuffer(v, buf) - buf);
  });
}
void BM_FormatAbslAlphaNum(benchmark::State& state) {
  RunCheckedFormat(state, [](int64_t v, char* buf) {
    const absl::AlphaNum a(v);
    std::memcpy(buf, a.data(), a.size());
    return a.size();
  });
}
void BM_FormatFmtFormatInt(benchmark::State& state) {
  RunCheckedFormat(state, [](int64_t v, char* buf) {
    const fmt::format_int f(v);
    std::memcpy(buf, f.data(), f.size());
    return f.size();
  });
}
void BM_FormatFmtCompiled(benchmark::State& state) {
  RunCheckedFormat(state, [](int64_t v, char* buf) {
    return static_cast<size_t>(fmt::format_to(buf, FMT_COMPILE("{}"), v) - buf);
  });
}
void BM_KeysCounter(benchmark::State& state) {
  char buf[32];
  for (auto _ : state) {
    sb::ArrayKeyCounter key;
    size_t total = 0;
    for (int64_t i = 0; i < kKeys; ++i, key.Next()) {
      total += key.WriteKeyWithNul(buf);
      benchmark::DoNotOptimize(buf);
    }
    benchmark::DoNotOptimize(total);
  }
  state.SetItemsProcessed(state.iterations() * kKeys);
}

#define FORMAT_ARGS ->ArgNames({"workload"})->Arg(0)->Arg(1)->Arg(2)
BENCHMARK(BM_FormatOptimized) FORMAT_ARGS;
BENCHMARK(BM_FormatDigitPairs) FORMAT_ARGS;
BENCHMARK(BM_FormatToChars) FORMAT_ARGS;
BENCHMARK(BM_FormatAbslFastIntToBuffer) FORMAT_ARGS;
BENCHMARK(BM_FormatFmtFormatInt) FORMAT_ARGS;
BENCHMARK(BM_FormatFmtCompiled) FORMAT_ARGS;
BENCHMARK(BM_FormatAbslAlphaNum) FORMAT_ARGS;
BENCHMARK(BM_FormatSnprintf) FORMAT_ARGS;
BENCHMARK(BM_KeysCounter);

// ---- encode ------------------------------------------------------------------------------

const sb::Document& BigArray(bool wide) {
  static const sb::Document* docs[2] = {nullptr, nullptr};
  const sb::Document*& d = docs[wide ? 1 : 0];
  if (d == nullptr) {
    auto* doc = new sb::Document;
    sb::Value arr = sb::OfType(sb::Type::kArray);
    arr.children.resize(kKeys);
    for (int64_t i = 0; i < kKeys; ++i) {
      arr.children[i].value = wide ? sb::Int64(i) : sb::Int32(static_cast<int32_t>(i));
    }
    doc->elements.push_back(sb::Element{"a", std::move(arr)});
    d = doc;
  }
  return *d;
}

void BM_EncodeOptimized(benchmark::State& state) {
  const sb::Document& doc = BigArray(state.range(0) == 64);
  int64_t bytes = 0;
  for (auto _ : state) {
    absl::StatusOr<std::string> out = sb::Encode(doc);
    bytes = static_cast<int64_t>(out->size());
    benchmark::DoNotOptimize(out->data());
  }
  state.SetBytesProcessed(state.iterations() * bytes);
}
void BM_EncodeReference(benchmark::State& state) {
  const sb::Document& doc = BigArray(state.range(0) == 64);
  int64_t bytes = 0;
  for (auto _ : state) {
    absl::StatusOr<std::string> out = serdiff::ref::bson::Encode(doc);
    bytes = static_cast<int64_t>(out->size());
    benchmark::DoNotOptimize(out->data());
  }
  state.SetBytesProcessed(state.iterations() * bytes);
}
void BM_EncodeLibbson(benchmark::State& state) {
  const bool wide = state.range(0) == 64;
  int64_t bytes = 0;
  for (auto _ : state) {
    bson_t b;
    bson_init(&b);
    bson_t child;
    bson_append_array_begin(&b, "a", 1, &child);
    char buf[16];
    for (int64_t i = 0; i < kKeys; ++i) {
      const char* key;
      const size_t len = bson_uint32_to_string(static_cast<uint32_t>(i), &key, buf, sizeof buf);
      if (wide) {
        bson_append_int64(&child, key, static_cast<int>(len), i);
      } else {
        bson_append_int32(&child, key, static_cast<int>(len), static_cast<int32_t>(i));
      }
    }
    bson_append_array_end(&b, &child);
    bytes = b.len;
    benchmark::DoNotOptimize(bson_get_data(&b));
    bson_destroy(&b);
  }
  state.SetBytesProcessed(state.iterations() * bytes);
}
void BM_EncodeMemcpy(benchmark::State& state) {
  const std::string encoded = *sb::Encode(BigArray(state.range(0) == 64));
  for (auto _ : state) {
    std::string copy(encoded);
    benchmark::DoNotOptimize(copy.data());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(encoded.size()));
}
// The caller's data: 0..999999 as int32 or int64 in a std::vector.
const std::vector<int64_t>& Values64() {
  static const auto* v = [] {
    auto* out = new std::vector<int64_t>(kKeys);
    for (int64_t i = 0; i < kKeys; ++i) (*out)[i] = i;
    return out;
  }();
  return *v;
}
const std::vector<int32_t>& Values32() {
  static const auto* v = [] {
    auto* out = new std::vector<int32_t>(kKeys);
    for (int64_t i = 0; i < kKeys; ++i) (*out)[i] = static_cast<int32_t>(i);
    return out;
  }();
  return *v;
}

sb::Document PackedDoc(bool wide) {
  sb::Document doc;
  doc.elements.push_back(
      sb::Element{"a", wide ? sb::PackedInt64(Values64()) : sb::PackedInt32(Values32())});
  return doc;
}

// Model build + encode, from the caller's vector: what a user of the packed model pays.
void BM_EncodePackedWithBuild(benchmark::State& state) {
  const bool wide = state.range(0) == 64;
  if (*sb::Encode(PackedDoc(wide)) != *sb::Encode(BigArray(wide))) {
    state.SkipWithError("packed and children encodings differ");
    return;
  }
  int64_t bytes = 0;
  for (auto _ : state) {
    const sb::Document doc = PackedDoc(wide);
    absl::StatusOr<std::string> out = sb::Encode(doc);
    bytes = static_cast<int64_t>(out->size());
    benchmark::DoNotOptimize(out->data());
  }
  state.SetBytesProcessed(state.iterations() * bytes);
}
// Encode only, of a prebuilt packed model.
void BM_EncodePacked(benchmark::State& state) {
  const sb::Document doc = PackedDoc(state.range(0) == 64);
  int64_t bytes = 0;
  for (auto _ : state) {
    absl::StatusOr<std::string> out = sb::Encode(doc);
    bytes = static_cast<int64_t>(out->size());
    benchmark::DoNotOptimize(out->data());
  }
  state.SetBytesProcessed(state.iterations() * bytes);
}
// The children model of the caller's vector: one Element per value.
sb::Document ChildrenDoc(bool wide) {
  sb::Document doc;
  sb::Value arr = sb::OfType(sb::Type::kArray);
  arr.children.resize(kKeys);
  for (int64_t i = 0; i < kKeys; ++i) {
    arr.children[i].value = wide ? sb::Int64(Values64()[i]) : sb::Int32(Values32()[i]);
  }
  doc.elements.push_back(sb::Element{"a", std::move(arr)});
  return doc;
}
// Model build (one Element per value) + encode: what a user of the children model pays.
void BM_EncodeOptimizedWithBuild(benchmark::State& state) {
  const bool wide = state.range(0) == 64;
  int64_t bytes = 0;
  for (auto _ : state) {
    const sb::Document doc = ChildrenDoc(wide);
    absl::StatusOr<std::string> out = sb::Encode(doc);
    bytes = static_cast<int64_t>(out->size());
    benchmark::DoNotOptimize(out->data());
  }
  state.SetBytesProcessed(state.iterations() * bytes);
}
// memcpy of the output into a reused buffer (no allocation, no page faults): the floor.
void BM_EncodeMemcpyReused(benchmark::State& state) {
  const std::string encoded = *sb::Encode(BigArray(state.range(0) == 64));
  std::string buf(encoded.size(), '\0');
  for (auto _ : state) {
    std::memcpy(buf.data(), encoded.data(), encoded.size());
    benchmark::DoNotOptimize(buf.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(encoded.size()));
}

// The floors of the children model, measured (docs/benchmarks.md, "The BSON generic path's
// floor"): one read-only pass over the 1,000,000 Elements (each value's type and integer, the
// least any encoder of this model reads) and the model build alone (what
// BM_EncodeOptimizedWithBuild adds to the encode).
void BM_ReadElements(benchmark::State& state) {
  const sb::Document& doc = BigArray(state.range(0) == 64);
  const std::vector<sb::Element>& items = doc.elements[0].value.children;
  for (auto _ : state) {
    int64_t sum = 0;
    for (const sb::Element& e : items) {
      if (e.value.type == sb::Type::kInt32 || e.value.type == sb::Type::kInt64) sum += e.value.i;
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(items.size()));
}
void BM_BuildChildrenOnly(benchmark::State& state) {
  const bool wide = state.range(0) == 64;
  for (auto _ : state) {
    const sb::Document doc = ChildrenDoc(wide);
    benchmark::DoNotOptimize(doc.elements.data());
  }
  state.SetItemsProcessed(state.iterations() * kKeys);
}

#define ENCODE_ARGS ->ArgNames({"bits"})->Arg(32)->Arg(64)->Unit(benchmark::kMillisecond)
BENCHMARK(BM_EncodePackedWithBuild) ENCODE_ARGS;
BENCHMARK(BM_EncodePacked) ENCODE_ARGS;
BENCHMARK(BM_EncodeOptimizedWithBuild) ENCODE_ARGS;
BENCHMARK(BM_EncodeMemcpyReused) ENCODE_ARGS;
BENCHMARK(BM_EncodeOptimized) ENCODE_ARGS;
BENCHMARK(BM_EncodeReference) ENCODE_ARGS;
BENCHMARK(BM_EncodeLibbson) ENCODE_ARGS;
BENCHMARK(BM_EncodeMemcpy) ENCODE_ARGS;
BENCHMARK(BM_ReadElements) ENCODE_ARGS;
BENCHMARK(BM_BuildChildrenOnly) ENCODE_ARGS;

// ---- validate ----------------------------------------------------------------------------

const std::string& Encoded32() {
  static const std::string* s = new std::string(*sb::Encode(BigArray(false)));
  return *s;
}

void BM_ValidateOptimized(benchmark::State& state) {
  const std::string& in = Encoded32();
  for (auto _ : state) {
    absl::Status st = sb::Validate(in);
    if (!st.ok()) state.SkipWithError("rejected");
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(in.size()));
}
void BM_ValidateLibbson(benchmark::State& state) {
  const std::string& in = Encoded32();
  for (auto _ : state) {
    bson_t b;
    bson_init_static(&b, reinterpret_cast<const uint8_t*>(in.data()), in.size());
    size_t offset = 0;
    if (!bson_validate(&b, BSON_VALIDATE_UTF8, &offset)) state.SkipWithError("rejected");
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(in.size()));
}
void BM_DecodeOptimized(benchmark::State& state) {
  const std::string& in = Encoded32();
  for (auto _ : state) {
    absl::StatusOr<sb::Document> doc = sb::Decode(in);
    benchmark::DoNotOptimize(doc->elements.data());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(in.size()));
}
BENCHMARK(BM_ValidateOptimized)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ValidateLibbson)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DecodeOptimized)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
