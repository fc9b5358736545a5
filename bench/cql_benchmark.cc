// CQL values benchmark: optimized serdiff::cql vs reference serdiff::ref::cql, ns per call,
// protocol v4 payloads, plus a memcpy baseline of the same number of bytes.
//
//   cmake --preset bench -B build/h-cql-bench && cmake --build build/h-cql-bench
//       --target cql_benchmark
//   build/h-cql-bench/bench/cql_benchmark --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true     (one command line each)
//
// Names: <op>/<case>/<implementation>
//   op:   encode (value -> payload bytes) or decode (payload bytes -> value)
//   case: list_int_<n>, list_bigint_<n> (n = 10, 100, 1000, and 100000 / 500000 for the
//         memcpy comparison), the same with _nulls33 (every third element null, fixed seed),
//         map_int_int_<n> (n = 10, 100), tuple10 (a 10-component tuple of mixed types),
//         udt5 (a 5-field UDT: uuid, text, int, set<text>, timestamp)
//   implementation:
//         optimized        serdiff::cql::Serialize -> exactly sized std::string
//         optimized_into   serdiff::cql::SerializeTo into a preallocated buffer
//         reference        serdiff::ref::cql::Serialize (per-element strings, concatenated)
//         memcpy           std::memcpy of the same number of output bytes into a preallocated
//                          buffer (the bandwidth ceiling for optimized_into)
//         memcpy_string    a std::string copy of the output (allocation + memcpy: the ceiling
//                          for optimized)
//         memcpy_input     (lists only) std::memcpy of the input's Value array (48 bytes per
//                          element) into a preallocated buffer: the memory traffic of reading
//                          the input once
//         read_values      (lists only) one read-only pass over the same Value objects, summing
//                          them: the floor for any encoder of this value model, which must
//                          read sizeof(Value) = 48 bytes per element to write 4 to 12
//         read_values_write_output  (lists only) that pass, then a memset of the output's size
//                          into a reused buffer: the memory traffic of any encoder of the
//                          model (48 bytes read and 4 to 12 written per element)
// Typed fast path (serdiff/cql/typed.h), names typed_<op>/<case>/<implementation>, cases
// list_int_<n> and list_bigint_<n> for n = 10, 1000, 500000, with _nulls33:
//         typed            SerializeFixedList from a std::vector<int32_t/int64_t> + null bitmap,
//                          the tier kAuto picks (typed_tiers.h)
//         typed_<tier>     (int only) the same with one CPU tier forced: portable, ssse3,
//                          avx2, avx512 (rows only for the tiers this CPU runs)
//         typed_into       SerializeFixedListInto a reused buffer of the exact size
//         value_tree       serdiff::cql::Serialize of the same list as Values (its block loop
//                          kAuto: avx512 where the CPU has it, value_tiers.h; the run's context
//                          block names it as cql_value_tree_auto_tier)
//         value_tree_<tier>  (list_int_1000 only) the same with the block loop forced:
//                          portable, avx512
//         reference        serdiff::ref::cql::Serialize of the Values
//         plain_loop       the fair baseline: a loop writing the count, then per element
//                          00000004 (00000008) and the byte-swapped value with one store
//                          (FF FF FF FF for a null), into an exact-size std::string
//                          (std::string(size, 0): the zero fill a C++20 caller pays)
//         plain_loop_into  the same loop into a reused buffer
//         memcpy           std::memcpy of the output bytes into a reused buffer
//   decode: typed (DeserializeFixedList), value_tree (Deserialize), reference.
// Counters: bytes_per_second = output bytes written per second.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "reference/cql/codec_ref.h"
#include "serdiff/cql/codec.h"
#include "serdiff/cql/typed.h"

namespace {

namespace opt = ::serdiff::cql;
namespace ref = ::serdiff::ref::cql;
using opt::Kind;
using opt::Type;
using opt::Value;

constexpr int kVersion = 4;

struct Case {
  std::string name;
  Type type;
  Value value;
};

Value IntList(size_t n, bool nulls, bool bigint) {
  std::mt19937_64 rng(20240601 + n);
  std::vector<Value> items;
  items.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    if (nulls && i % 3 == 2) {
      items.push_back(Value::Null());
    } else {
      const uint64_t r = rng();
      items.push_back(Value::Int(bigint ? static_cast<int64_t>(r) : static_cast<int32_t>(r)));
    }
  }
  return Value::List(std::move(items));
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (size_t n : {10, 100, 1000, 100000, 500000}) {
    for (bool nulls : {false, true}) {
      for (bool bigint : {false, true}) {
        if (n > 1000 && (nulls || bigint)) continue;  // the large ones: list<int> only
        cases.push_back({std::string(bigint ? "list_bigint_" : "list_int_") + std::to_string(n) +
                             (nulls ? "_nulls33" : ""),
                         Type::List(Type::Native(bigint ? Kind::kBigint : Kind::kInt)),
                         IntList(n, nulls, bigint)});
      }
    }
  }
  for (size_t n : {10, 100}) {
    std::vector<std::pair<Value, Value>> entries;
    for (size_t i = 0; i < n; ++i) {
      entries.emplace_back(Value::Int(static_cast<int64_t>(i)),
                           Value::Int(static_cast<int64_t>(i * 31)));
    }
    cases.push_back({"map_int_int_" + std::to_string(n),
                     Type::Map(Type::Native(Kind::kInt), Type::Native(Kind::kInt)),
                     Value::Map(std::move(entries))});
  }
  opt::Uuid u{};
  for (size_t i = 0; i < 16; ++i) u[i] = static_cast<uint8_t>(i * 17);
  {
    Type t = Type::Tuple({Type::Native(Kind::kInt), Type::Native(Kind::kBigint),
                          Type::Native(Kind::kText), Type::Native(Kind::kDouble),
                          Type::Native(Kind::kBoolean), Type::Native(Kind::kUuid),
                          Type::Native(Kind::kTimestamp), Type::Native(Kind::kVarint),
                          Type::Native(Kind::kDecimal), Type::List(Type::Native(Kind::kInt))});
    Value v =
        Value::Tuple({Value::Int(42), Value::Int(-1), Value::Text("hello world"),
                      Value::Double(3.25), Value::Bool(true), Value::FromUuid(u),
                      Value::Int(1'609'459'200'000), Value::Varint(opt::BigInt::FromInt64(-129)),
                      Value::FromDecimal({2, opt::BigInt::FromInt64(12345)}),
                      Value::List({Value::Int(1), Value::Int(2), Value::Int(3)})});
    cases.push_back({"tuple10", std::move(t), std::move(v)});
  }
  {
    Type t = Type::Udt("person", {{"id", Type::Native(Kind::kUuid)},
                                  {"name", Type::Native(Kind::kText)},
                                  {"age", Type::Native(Kind::kInt)},
                                  {"tags", Type::Set(Type::Native(Kind::kText))},
                                  {"created", Type::Native(Kind::kTimestamp)}});
    Value v = Value::Udt({Value::FromUuid(u), Value::Text("Ada Lovelace"), Value::Int(36),
                          Value::Set({Value::Text("math"), Value::Text("engines")}),
                          Value::Int(1'609'459'200'000)});
    cases.push_back({"udt5", std::move(t), std::move(v)});
  }
  return cases;
}

const std::vector<Case>& AllCases() {
  static const auto* cases = new std::vector<Case>(Cases());
  return *cases;
}

void Finish(benchmark::State& state, size_t bytes) {
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(bytes));
}

void RegisterAll() {
  for (const Case& c : AllCases()) {
    const Case* cp = &c;
    const std::string encoded = *opt::Serialize(c.type, c.value, kVersion);
    const size_t size = encoded.size();
    benchmark::RegisterBenchmark(("encode/" + c.name + "/optimized").c_str(),
                                 [cp, size](benchmark::State& state) {
                                   for (auto _ : state) {
                                     auto out = opt::Serialize(cp->type, cp->value, kVersion);
                                     benchmark::DoNotOptimize(out);
                                   }
                                   Finish(state, size);
                                 });
    benchmark::RegisterBenchmark(
        ("encode/" + c.name + "/optimized_into").c_str(), [cp, size](benchmark::State& state) {
          std::vector<uint8_t> buf(size);
          for (auto _ : state) {
            auto n = opt::SerializeTo(cp->type, cp->value, kVersion, absl::MakeSpan(buf));
            benchmark::DoNotOptimize(n);
            benchmark::ClobberMemory();
          }
          Finish(state, size);
        });
    benchmark::RegisterBenchmark(("encode/" + c.name + "/reference").c_str(),
                                 [cp, size](benchmark::State& state) {
                                   for (auto _ : state) {
                                     auto out = ref::Serialize(cp->type, cp->value, kVersion);
                                     benchmark::DoNotOptimize(out);
                                   }
                                   Finish(state, size);
                                 });
    benchmark::RegisterBenchmark(("encode/" + c.name + "/memcpy").c_str(),
                                 [encoded](benchmark::State& state) {
                                   std::vector<uint8_t> buf(encoded.size());
                                   for (auto _ : state) {
                                     std::memcpy(buf.data(), encoded.data(), encoded.size());
                                     benchmark::DoNotOptimize(buf.data());
                                     benchmark::ClobberMemory();
                                   }
                                   Finish(state, encoded.size());
                                 });
    benchmark::RegisterBenchmark(("encode/" + c.name + "/memcpy_string").c_str(),
                                 [encoded](benchmark::State& state) {
                                   for (auto _ : state) {
                                     std::string copy(encoded);
                                     benchmark::DoNotOptimize(copy);
                                   }
                                   Finish(state, encoded.size());
                                 });
    if (c.name.rfind("list_", 0) == 0) {
      benchmark::RegisterBenchmark(
          ("encode/" + c.name + "/memcpy_input").c_str(), [cp, size](benchmark::State& state) {
            const std::vector<Value>& items = cp->value.items();
            const size_t bytes = items.size() * sizeof(Value);
            std::vector<unsigned char> buf(bytes);
            for (auto _ : state) {
              std::memcpy(buf.data(), static_cast<const void*>(items.data()), bytes);
              benchmark::DoNotOptimize(buf.data());
              benchmark::ClobberMemory();
            }
            Finish(state, size);
          });
      benchmark::RegisterBenchmark(("encode/" + c.name + "/read_values").c_str(),
                                   [cp, size](benchmark::State& state) {
                                     for (auto _ : state) {
                                       int64_t sum = 0;
                                       for (const Value& e : cp->value.items()) {
                                         if (e.shape() == Value::Shape::kInt) sum += e.as_int();
                                       }
                                       benchmark::DoNotOptimize(sum);
                                     }
                                     Finish(state, size);
                                   });
      benchmark::RegisterBenchmark(("encode/" + c.name + "/read_values_write_output").c_str(),
                                   [cp, size](benchmark::State& state) {
                                     std::vector<unsigned char> buf(size);
                                     for (auto _ : state) {
                                       int64_t sum = 0;
                                       for (const Value& e : cp->value.items()) {
                                         if (e.shape() == Value::Shape::kInt) sum += e.as_int();
                                       }
                                       std::memset(buf.data(), static_cast<int>(sum & 0x7F),
                                                   buf.size());
                                       benchmark::DoNotOptimize(buf.data());
                                       benchmark::ClobberMemory();
                                     }
                                     Finish(state, size);
                                   });
    }
    if (c.name == "list_int_1000" || c.name == "list_int_1000_nulls33" ||
        c.name == "map_int_int_100" || c.name == "udt5" || c.name == "tuple10") {
      benchmark::RegisterBenchmark(("decode/" + c.name + "/optimized").c_str(),
                                   [cp, encoded](benchmark::State& state) {
                                     for (auto _ : state) {
                                       auto v = opt::Deserialize(cp->type, encoded, kVersion);
                                       benchmark::DoNotOptimize(v);
                                     }
                                     Finish(state, encoded.size());
                                   });
      benchmark::RegisterBenchmark(("decode/" + c.name + "/reference").c_str(),
                                   [cp, encoded](benchmark::State& state) {
                                     for (auto _ : state) {
                                       auto v = ref::Deserialize(cp->type, encoded, kVersion);
                                       benchmark::DoNotOptimize(v);
                                     }
                                     Finish(state, encoded.size());
                                   });
    }
  }
}

// ---- typed fast path ---------------------------------------------------------------------------

// The fair baseline loop: count, then per element 00 00 00 <width> and the value byte-swapped
// with one 4- or 8-byte store (ff ff ff ff for a null, tested per element only when there is
// a bitmap). noinline so that each row times the same code; bench/cql_benchmark.cc is built
// like the library (bench preset: -O3, baseline x86-64), and its disassembly shows one bswap
// and two plain stores per element, no byte stores.
template <typename T>
__attribute__((noinline)) uint8_t* PlainLoop(const std::vector<T>& v,
                                             const std::vector<uint8_t>& nulls, uint8_t* p) {
  auto store32 = [](uint8_t* q, uint32_t x) {
    x = __builtin_bswap32(x);
    std::memcpy(q, &x, 4);
  };
  store32(p, static_cast<uint32_t>(v.size()));
  p += 4;
  if (nulls.empty()) {
    for (const T& x : v) {
      store32(p, sizeof(T));
      if constexpr (sizeof(T) == 4) {
        store32(p + 4, static_cast<uint32_t>(x));
      } else {
        const uint64_t be = __builtin_bswap64(static_cast<uint64_t>(x));
        std::memcpy(p + 4, &be, 8);
      }
      p += 4 + sizeof(T);
    }
    return p;
  }
  const T* data = v.data();  // hoisted: stores through p could alias the vectors' fields
  const uint8_t* bits = nulls.data();
  const size_t n = v.size();
  for (size_t i = 0; i < n; ++i) {
    if ((bits[i / 8] >> (i % 8)) & 1) {
      store32(p, 0xFFFFFFFFu);
      p += 4;
      continue;
    }
    store32(p, sizeof(T));
    if constexpr (sizeof(T) == 4) {
      store32(p + 4, static_cast<uint32_t>(data[i]));
    } else {
      const uint64_t be = __builtin_bswap64(static_cast<uint64_t>(data[i]));
      std::memcpy(p + 4, &be, 8);
    }
    p += 4 + sizeof(T);
  }
  return p;
}

// The same loop into an exact-size std::string (sized by counting the bitmap's nulls).
template <typename T>
std::string PlainLoopString(const std::vector<T>& v, const std::vector<uint8_t>& nulls) {
  size_t null_count = 0;
  for (size_t i = 0; i < v.size() && !nulls.empty(); ++i)
    null_count += (nulls[i / 8] >> (i % 8)) & 1;
  std::string out(4 + 4 * v.size() + sizeof(T) * (v.size() - null_count), '\0');
  PlainLoop(v, nulls, reinterpret_cast<uint8_t*>(out.data()));
  return out;
}

template <typename T>
void RegisterTypedCase(size_t n, bool nulls) {
  const Kind kind = sizeof(T) == 4 ? Kind::kInt : Kind::kBigint;
  const std::string name = std::string(sizeof(T) == 4 ? "list_int_" : "list_bigint_") +
                           std::to_string(n) + (nulls ? "_nulls33" : "");
  // Never freed: the registered benchmarks hold spans and pointers into them until exit.
  auto* values = new std::vector<T>(n);
  auto* bitmap = new std::vector<uint8_t>();
  if (nulls) bitmap->assign((n + 7) / 8, 0);
  std::mt19937_64 rng(20240601 + n);
  std::vector<Value> items;
  items.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    (*values)[i] = static_cast<T>(rng());
    if (nulls && i % 3 == 2) {
      (*bitmap)[i / 8] = static_cast<uint8_t>((*bitmap)[i / 8] | (1u << (i % 8)));
      items.push_back(Value::Null());
    } else {
      items.push_back(Value::Int((*values)[i]));
    }
  }
  auto tree = std::make_shared<Value>(Value::List(std::move(items)));
  const Type type = Type::List(Type::Native(kind));
  const opt::ColumnView<T> view{*values, *bitmap};
  const std::string encoded = *opt::SerializeFixedList<T>(kind, view, kVersion);
  const size_t size = encoded.size();
  auto typed_row = [&](const std::string& impl, opt::TypedTier tier) {
    if (!opt::TypedTierSupported(tier)) return;
    benchmark::RegisterBenchmark(
        ("typed_encode/" + name + "/" + impl).c_str(), [=](benchmark::State& state) {
          for (auto _ : state) {
            auto out = opt::SerializeFixedList<T>(kind, view, kVersion, tier);
            benchmark::DoNotOptimize(out);
          }
          Finish(state, size);
        });
  };
  typed_row("typed", opt::TypedTier::kAuto);
  if (sizeof(T) == 4) {
    for (opt::TypedTier tier : {opt::TypedTier::kPortable, opt::TypedTier::kSsse3,
                                opt::TypedTier::kAvx2, opt::TypedTier::kAvx512}) {
      typed_row("typed_" + std::string(opt::TypedTierName(tier)), tier);
    }
  }
  benchmark::RegisterBenchmark(
      ("typed_encode/" + name + "/typed_into").c_str(), [=](benchmark::State& state) {
        std::vector<uint8_t> buf(size);
        for (auto _ : state) {
          auto n_written =
              opt::SerializeFixedListInto<T>(kind, view, kVersion, absl::MakeSpan(buf));
          benchmark::DoNotOptimize(n_written);
          benchmark::ClobberMemory();
        }
        if (std::memcmp(buf.data(), encoded.data(), size) != 0) {
          state.SkipWithError("typed_into wrote other bytes");
        }
        Finish(state, size);
      });
  benchmark::RegisterBenchmark(("typed_encode/" + name + "/value_tree").c_str(),
                               [=](benchmark::State& state) {
                                 for (auto _ : state) {
                                   auto out = opt::Serialize(type, *tree, kVersion);
                                   benchmark::DoNotOptimize(out);
                                 }
                                 Finish(state, size);
                               });
  // The value tree with its block loop forced (value_tiers.h): value_tree above runs kAuto. Int
  // lists of 1,000 only: the other kinds have one loop, 10 elements are one block, and 500,000
  // take the two passes, past the one-pass route.
  for (const opt::TypedTier tier : {opt::TypedTier::kPortable, opt::TypedTier::kAvx512}) {
    if (sizeof(T) != 4 || n != 1000 || !opt::ValueTreeTierSupported(tier)) continue;
    benchmark::RegisterBenchmark(
        ("typed_encode/" + name + "/value_tree_" + std::string(opt::TypedTierName(tier))).c_str(),
        [=](benchmark::State& state) {
          for (auto _ : state) {
            auto out = opt::Serialize(type, *tree, kVersion, tier);
            benchmark::DoNotOptimize(out);
          }
          Finish(state, size);
        });
  }
  if (n <= 1000) {
    benchmark::RegisterBenchmark(("typed_encode/" + name + "/reference").c_str(),
                                 [=](benchmark::State& state) {
                                   for (auto _ : state) {
                                     auto out = ref::Serialize(type, *tree, kVersion);
                                     benchmark::DoNotOptimize(out);
                                   }
                                   Finish(state, size);
                                 });
  }
  // The fair baselines: what a competent engineer writes without serdiff's tiers. They are
  // checked byte-identical to the typed output once, before timing.
  const std::vector<T>* vp = values;
  const std::vector<uint8_t>* bp = bitmap;
  if (PlainLoopString(*vp, *bp) != encoded) {
    std::fprintf(stderr, "plain loop for %s writes other bytes\n", name.c_str());
    std::abort();
  }
  benchmark::RegisterBenchmark(("typed_encode/" + name + "/plain_loop").c_str(),
                               [=](benchmark::State& state) {
                                 for (auto _ : state) {
                                   std::string out = PlainLoopString(*vp, *bp);
                                   benchmark::DoNotOptimize(out);
                                 }
                                 Finish(state, size);
                               });
  benchmark::RegisterBenchmark(("typed_encode/" + name + "/plain_loop_into").c_str(),
                               [=](benchmark::State& state) {
                                 std::vector<uint8_t> buf(size);
                                 for (auto _ : state) {
                                   benchmark::DoNotOptimize(PlainLoop(*vp, *bp, buf.data()));
                                   benchmark::ClobberMemory();
                                 }
                                 Finish(state, size);
                               });
  benchmark::RegisterBenchmark(("typed_encode/" + name + "/memcpy").c_str(),
                               [=](benchmark::State& state) {
                                 std::vector<char> buf(size);
                                 for (auto _ : state) {
                                   std::memcpy(buf.data(), encoded.data(), size);
                                   benchmark::DoNotOptimize(buf.data());
                                   benchmark::ClobberMemory();
                                 }
                                 Finish(state, size);
                               });
  benchmark::RegisterBenchmark(("typed_decode/" + name + "/typed").c_str(),
                               [=](benchmark::State& state) {
                                 for (auto _ : state) {
                                   auto c = opt::DeserializeFixedList<T>(kind, encoded, kVersion);
                                   benchmark::DoNotOptimize(c);
                                 }
                                 Finish(state, size);
                               });
  benchmark::RegisterBenchmark(("typed_decode/" + name + "/value_tree").c_str(),
                               [=](benchmark::State& state) {
                                 for (auto _ : state) {
                                   auto v = opt::Deserialize(type, encoded, kVersion);
                                   benchmark::DoNotOptimize(v);
                                 }
                                 Finish(state, size);
                               });
  if (n <= 1000) {
    benchmark::RegisterBenchmark(("typed_decode/" + name + "/reference").c_str(),
                                 [=](benchmark::State& state) {
                                   for (auto _ : state) {
                                     auto v = ref::Deserialize(type, encoded, kVersion);
                                     benchmark::DoNotOptimize(v);
                                   }
                                   Finish(state, size);
                                 });
  }
}

void RegisterTyped() {
  for (size_t n : {10, 1000, 500000}) {
    for (bool nulls : {false, true}) {
      RegisterTypedCase<int32_t>(n, nulls);
      RegisterTypedCase<int64_t>(n, nulls);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  RegisterAll();
  RegisterTyped();
  // The context block of every run names the tier the unforced "typed" rows dispatched to.
  benchmark::AddCustomContext("cql_typed_auto_tier",
                              std::string(opt::TypedTierName(opt::AutoTypedTier())));
  // And the block loop the unforced value_tree rows ran (Serialize's kAuto, codec.h).
  benchmark::AddCustomContext(
      "cql_value_tree_auto_tier",
      opt::ValueTreeTierSupported(opt::TypedTier::kAvx512) ? "avx512" : "portable");
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
