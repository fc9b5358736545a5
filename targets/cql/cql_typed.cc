// CQL family: the typed fast path (serdiff/cql/typed.h) against the Value-tree codec and the
// reference. cql_typed_encode builds a column of fixed-width elements from a small spec and
// compares the typed encoder's bytes with the tree encoder's and the reference's;
// cql_typed_decode reads bytes with the typed decoder and with the tree decoder and compares a
// canonical dump of the elements.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "harness/hex.h"
#include "serdiff/cql/literal.h"
#include "serdiff/cql/typed.h"
#include "targets/cql/divergences.h"
#include "targets/cql/domain.h"
#include "targets/cql/interchange.h"
#include "targets/cql/internal.h"

namespace serdiff::targets::cql {

namespace {

template <typename T>
absl::Span<const T> ValuesOf(const AnyColumn& c) {
  if constexpr (std::is_same_v<T, bool>) return absl::Span<const bool>(c.b.get(), c.n);
  if constexpr (std::is_same_v<T, int8_t>) return c.i8;
  if constexpr (std::is_same_v<T, int16_t>) return c.i16;
  if constexpr (std::is_same_v<T, int32_t>) return c.i32;
  if constexpr (std::is_same_v<T, int64_t>) return c.i64;
  if constexpr (std::is_same_v<T, float>) return c.f32;
  if constexpr (std::is_same_v<T, double>) return c.f64;
  if constexpr (std::is_same_v<T, serdiff::cql::Uuid>) return c.uuid;
}

template <typename T>
serdiff::cql::ColumnView<T> ViewOf(const AnyColumn& c) {
  return {ValuesOf<T>(c), c.nulls};
}

// Fills `c` with n values of kind k (edge values now and then) and nulls at null_pct %;
// `bad` makes element n / 2 invalid for its kind when the kind has invalid values. Appends the
// same elements as Values to `tree` (interleaved with the map's other column by the caller).
void FillColumn(AnyColumn& c, Kind k, uint32_t n, uint8_t null_pct, bool bad, uint64_t* rng,
                std::vector<Value>* tree) {
  c.kind = k;
  c.n = n;
  const bool any_null = null_pct > 0 && n > 0;
  if (any_null) c.nulls.assign((n + 7) / 8, 0);
  WithElementType(k, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>) {
      c.b = std::shared_ptr<bool[]>(new bool[n > 0 ? n : 1]());
    }
    for (uint32_t i = 0; i < n; ++i) {
      const uint64_t r = SplitMix(rng);
      const bool null = any_null && (null_pct >= 100 || r % 100 < null_pct);
      static constexpr uint64_t kEdges[] = {0, ~0ull, 1ull << 63, (1ull << 63) - 1};
      const uint64_t x = (r >> 8) % 8 == 0 ? kEdges[r % 4] : SplitMix(rng);
      T v{};
      if constexpr (std::is_same_v<T, serdiff::cql::Uuid>) {
        uint64_t y = SplitMix(rng);
        std::memcpy(v.data(), &x, 8);
        std::memcpy(v.data() + 8, &y, 8);
        if (k == Kind::kTimeuuid) v[6] = static_cast<uint8_t>((v[6] & 0x0F) | 0x10);
        if (bad && i == n / 2 && k == Kind::kTimeuuid) v[6] = 0x40;
      } else if constexpr (std::is_same_v<T, float>) {
        v = std::bit_cast<float>(static_cast<uint32_t>(x));
      } else if constexpr (std::is_same_v<T, double>) {
        v = std::bit_cast<double>(x);
      } else if constexpr (std::is_same_v<T, bool>) {
        v = (x & 1) != 0;
      } else {
        v = static_cast<T>(x);
        if (k == Kind::kTime) {
          v = static_cast<T>(x % 86'400'000'000'000ull);
          if (bad && i == n / 2) v = -1;
        }
      }
      if constexpr (std::is_same_v<T, bool>) {
        c.b[i] = v;
      } else if constexpr (std::is_same_v<T, int8_t>) {
        c.i8.push_back(v);
      } else if constexpr (std::is_same_v<T, int16_t>) {
        c.i16.push_back(v);
      } else if constexpr (std::is_same_v<T, int32_t>) {
        c.i32.push_back(v);
      } else if constexpr (std::is_same_v<T, int64_t>) {
        c.i64.push_back(v);
      } else if constexpr (std::is_same_v<T, float>) {
        c.f32.push_back(v);
      } else if constexpr (std::is_same_v<T, double>) {
        c.f64.push_back(v);
      } else {
        c.uuid.push_back(v);
      }
      if (null) c.nulls[i / 8] = static_cast<uint8_t>(c.nulls[i / 8] | (1u << (i % 8)));
      if (null) {
        tree->push_back(Value::Null());
      } else if constexpr (std::is_same_v<T, serdiff::cql::Uuid>) {
        tree->push_back(Value::FromUuid(v));
      } else if constexpr (std::is_same_v<T, float>) {
        tree->push_back(Value::Float(v));
      } else if constexpr (std::is_same_v<T, double>) {
        tree->push_back(Value::Double(v));
      } else if constexpr (std::is_same_v<T, bool>) {
        tree->push_back(Value::Bool(v));
      } else {
        tree->push_back(Value::Int(static_cast<int64_t>(v)));
      }
    }
    return 0;
  });
  if (any_null && std::all_of(c.nulls.begin(), c.nulls.end(), [](uint8_t x) { return x == 0; })) {
    c.nulls.clear();  // no null drawn: no bitmap
  }
}

}  // namespace

Type TypedType(uint8_t container, uint8_t key, uint8_t value) {
  const Type k = Type::Native(kTypedKinds[key % kTypedKindCount]);
  if (container % 3 == 2) return Type::Map(k, Type::Native(kTypedKinds[value % kTypedKindCount]));
  return container % 3 == 1 ? Type::Set(k) : Type::List(k);
}

TypedInput BuildTyped(const TypedSpec& spec) {
  auto built = std::make_shared<TypedBuilt>();
  uint64_t rng = spec.seed;
  const bool map = spec.container % 3 == 2;
  std::vector<Value> keys;
  std::vector<Value> values;
  const Kind kk = kTypedKinds[spec.key % kTypedKindCount];
  const Kind vk = kTypedKinds[spec.value % kTypedKindCount];
  FillColumn(built->keys, kk, spec.count, spec.null_pct, spec.bad, &rng, &keys);
  if (map) FillColumn(built->values, vk, spec.count, spec.null_pct, false, &rng, &values);
  std::vector<Value> items;
  if (map) {
    items.reserve(2 * keys.size());
    for (size_t i = 0; i < keys.size(); ++i) {
      items.push_back(std::move(keys[i]));
      items.push_back(std::move(values[i]));
    }
  } else {
    items = std::move(keys);
  }
  built->tree.type = TypedType(spec.container, spec.key, spec.value);
  built->tree.value = map ? Value::Pairs(std::move(items)) : Value::Items(std::move(items));
  built->tree.version = spec.version;
  built->tree.framed = false;
  return TypedInput{spec, std::move(built)};
}

std::string ShowTypedSpec(const TypedSpec& s) {
  return absl::StrCat("v", s.version, " ",
                      opt::TypeToString(TypedType(s.container, s.key, s.value)), " count=", s.count,
                      " nulls=", s.null_pct, "%", s.bad ? " bad" : "", " seed=", s.seed);
}

absl::StatusOr<std::string> TypedEncode(const TypedInput& in) {
  const TypedBuilt& b = *in.built;
  const int version = in.spec.version;
  if (in.spec.container % 3 != 2) {
    return WithElementType(b.keys.kind, [&](auto tag) {
      using T = typename decltype(tag)::type;
      return opt::SerializeFixedList<T>(b.keys.kind, ViewOf<T>(b.keys), version);
    });
  }
  return WithElementType(b.keys.kind, [&](auto ktag) {
    using K = typename decltype(ktag)::type;
    return WithElementType(b.values.kind, [&](auto vtag) {
      using V = typename decltype(vtag)::type;
      return opt::SerializeFixedMap<K, V>(b.keys.kind, ViewOf<K>(b.keys), b.values.kind,
                                          ViewOf<V>(b.values), version);
    });
  });
}

namespace {

// Whether the target runs `tier` here: the CPU has it, and for the avx512 kernel's SIMDe
// emulation also that the CPU lacks the native avx512 tier (which then runs the same kernel
// source at full speed: the emulation would only cost fuzz throughput).
bool TierRuns(opt::TypedTier tier) {
  if (tier == opt::TypedTier::kAvx512Emulated && opt::TypedTierSupported(opt::TypedTier::kAvx512)) {
    return false;
  }
  return opt::TypedTierSupported(tier);
}

// Tier `tier` of the typed list encoder (typed_tiers.h): forced, so that every input is
// written by each CPU tier this machine has and compared with the others, the Value tree and
// the reference. Declined where no tier applies (maps, v1/v2, kinds other than int, date and
// float: they have one loop) and where the CPU lacks the instruction set.
Output TypedEncodeTier(const TypedInput& in, opt::TypedTier tier) {
  const TypedBuilt& b = *in.built;
  const Kind k = b.keys.kind;
  // Built once: copying an absl::Status shares its payload, so declining costs no
  // allocation (most inputs are declined, and every implementation runs twice per input).
  static const absl::Status* const kNoTier = new absl::Status(
      harness::Declined("CPU tiers cover v3+ lists and sets of int, date and float"));
  if (in.spec.container % 3 == 2 || in.spec.version < 3 ||
      (k != Kind::kInt && k != Kind::kDate && k != Kind::kFloat)) {
    return *kNoTier;
  }
  if (!TierRuns(tier)) {
    static const absl::Status* const kUnsupported =
        new absl::Status(harness::Declined("this CPU cannot run the tier"));
    static const absl::Status* const kNative = new absl::Status(
        harness::Declined("this CPU runs the native avx512 tier (or the build lacks SIMDe)"));
    return tier == opt::TypedTier::kAvx512Emulated ? *kNative : *kUnsupported;
  }
  return WithElementType(k, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return opt::SerializeFixedList<T>(k, ViewOf<T>(b.keys), in.spec.version, tier);
  });
}

// A decline edge's input: 20 elements of kTypedKinds[key], 10 % null, in `container` (0 list,
// 1 set, 2 map) and protocol `version`.
TypedInput EdgeInput(uint8_t container, uint8_t key, uint8_t version) {
  TypedSpec spec;
  spec.container = container;
  spec.key = key;
  spec.count = 20;
  spec.null_pct = 10;
  spec.seed = 7;
  spec.version = version;
  return BuildTyped(spec);
}

// The edges of a tier's declines: the protocol version (3 is the first with tiers), the
// container (a set has them, a map not) and the kind (int, date and float next to smallint,
// bigint and double). An input a tier covers is declined only where this CPU cannot run it.
std::vector<harness::DeclineEdge<TypedInput>> TierDeclineEdges(opt::TypedTier tier) {
  const bool cpu = TierRuns(tier);
  return {
      {"list<int> in v3, the first version with tiers", EdgeInput(0, 3, 3), !cpu},
      {"list<int> in v2", EdgeInput(0, 3, 2), true},
      {"set<int> in v4", EdgeInput(1, 3, 4), !cpu},
      {"map<int, int> in v4", EdgeInput(2, 3, 4), true},
      {"list<smallint> in v4 (the kind before int)", EdgeInput(0, 2, 4), true},
      {"list<date> in v4", EdgeInput(0, 4, 4), !cpu},
      {"list<bigint> in v4 (the kind after date)", EdgeInput(0, 5, 4), true},
      {"list<float> in v4", EdgeInput(0, 9, 4), !cpu},
      {"list<double> in v4 (the kind after float)", EdgeInput(0, 10, 4), true},
  };
}

// The edges of the value tree's forced tiers (OptEncodeValueTreeTier) on this target's inputs:
// the version, the container and the kind, as for the typed tiers above; float has a typed
// tier but no value-tree one.
std::vector<harness::DeclineEdge<TypedInput>> TreeTierDeclineEdges(opt::TypedTier tier) {
  const bool here = ValueTreeTierRuns(tier);
  return {
      {"list<int> in v3", EdgeInput(0, 3, 3), !here},
      {"list<int> in v2", EdgeInput(0, 3, 2), true},
      {"set<date> in v4", EdgeInput(1, 4, 4), !here},
      {"map<int, int> in v4", EdgeInput(2, 3, 4), true},
      {"list<smallint> in v4 (the kind before int)", EdgeInput(0, 2, 4), true},
      {"list<bigint> in v4 (the kind after date)", EdgeInput(0, 5, 4), true},
      {"list<float> in v4 (a typed tier, no value-tree one)", EdgeInput(0, 9, 4), true},
  };
}

template <typename IO>
void VisitTypedSpec(IO& io, TypedSpec& s) {
  io.Int(s.container, uint8_t{0}, uint8_t{2});
  io.Int(s.key, uint8_t{0}, static_cast<uint8_t>(kTypedKindCount - 1));
  io.Int(s.value, uint8_t{0}, static_cast<uint8_t>(kTypedKindCount - 1));
  io.Int(s.count, uint32_t{0}, kTypedMaxCount);
  io.Int(s.null_pct, uint8_t{0}, uint8_t{100});
  io.Bool(s.bad);
  io.Int(s.seed, uint64_t{0}, ~uint64_t{0});
  io.Int(s.version, uint8_t{1}, uint8_t{5});
  // The input's length bounds the column: kTypedCountPerByte elements per byte after the
  // fields (domain.h); the writer pads the input to hold the count it wrote.
  if constexpr (IO::kReading) {
    const uint64_t cap = uint64_t{kTypedCountPerByte} * io.remaining_bytes();
    s.count = static_cast<uint32_t>(std::min<uint64_t>(s.count, cap));
  } else {
    io.PadUnread((s.count + kTypedCountPerByte - 1) / kTypedCountPerByte);
  }
}

template <typename IO>
void VisitTypedDecode(IO& io, TypedDecodeInput& in) {
  io.Int(in.container, uint8_t{0}, uint8_t{2});
  io.Int(in.key, uint8_t{0}, static_cast<uint8_t>(kTypedKindCount - 1));
  io.Int(in.value, uint8_t{0}, static_cast<uint8_t>(kTypedKindCount - 1));
  io.Int(in.version, 1, 5);
  VisitOptions(io, in.options);
}

// Canonical dump shared by both sides of cql_typed_decode: per element 'N' (null) or 'V' and
// 8 bytes (integers, date days, time, boolean 0/1, float and double bits) or 16 (uuid).
template <typename T>
void DumpTyped(const serdiff::cql::Column<T>& c, size_t i, std::string* out) {
  if (c.is_null(i)) {
    out->push_back('N');
    return;
  }
  out->push_back('V');
  const T& v = c.values[i];
  if constexpr (std::is_same_v<T, serdiff::cql::Uuid>) {
    out->append(reinterpret_cast<const char*>(v.data()), 16);
  } else {
    uint64_t bits;
    if constexpr (std::is_same_v<T, float>) {
      bits = std::bit_cast<uint32_t>(v);
    } else if constexpr (std::is_same_v<T, double>) {
      bits = std::bit_cast<uint64_t>(v);
    } else {
      bits = static_cast<uint64_t>(static_cast<int64_t>(v));
    }
    out->append(reinterpret_cast<const char*>(&bits), 8);
  }
}

size_t DumpWidth(Kind k) { return (k == Kind::kUuid || k == Kind::kTimeuuid) ? 17 : 9; }

void DumpValue(Kind k, const Value& v, std::string* out) {
  if (v.is_null()) {
    out->push_back('N');
    return;
  }
  out->push_back('V');
  if (k == Kind::kUuid || k == Kind::kTimeuuid) {
    out->append(reinterpret_cast<const char*>(v.uuid().data()), 16);
    return;
  }
  uint64_t bits;
  if (k == Kind::kFloat) {
    bits = std::bit_cast<uint32_t>(v.as_float());
  } else if (k == Kind::kDouble) {
    bits = std::bit_cast<uint64_t>(v.as_double());
  } else if (k == Kind::kBoolean) {
    bits = v.as_bool() ? 1 : 0;
  } else {
    bits = static_cast<uint64_t>(v.as_int());
  }
  out->append(reinterpret_cast<const char*>(&bits), 8);
}

Output TypedDecodeRun(const TypedDecodeInput& in) {
  const Kind kk = kTypedKinds[in.key % kTypedKindCount];
  const Kind vk = kTypedKinds[in.value % kTypedKindCount];
  if (in.container % 3 != 2) {
    return WithElementType(kk, [&](auto tag) -> Output {
      using T = typename decltype(tag)::type;
      absl::StatusOr<serdiff::cql::Column<T>> c =
          opt::DeserializeFixedList<T>(kk, in.bytes, in.version, in.options);
      if (!c.ok()) return c.status();
      std::string out;
      out.reserve(c->values.size() * DumpWidth(kk));
      for (size_t i = 0; i < c->values.size(); ++i) DumpTyped(*c, i, &out);
      return out;
    });
  }
  return WithElementType(kk, [&](auto ktag) -> Output {
    using K = typename decltype(ktag)::type;
    return WithElementType(vk, [&](auto vtag) -> Output {
      using V = typename decltype(vtag)::type;
      auto c = opt::DeserializeFixedMap<K, V>(kk, vk, in.bytes, in.version, in.options);
      if (!c.ok()) return c.status();
      std::string out;
      out.reserve(c->first.values.size() * (DumpWidth(kk) + DumpWidth(vk)));
      for (size_t i = 0; i < c->first.values.size(); ++i) {
        DumpTyped(c->first, i, &out);
        DumpTyped(c->second, i, &out);
      }
      return out;
    });
  });
}

// The Value-tree decoder's reading of the same input, dumped the same way. Inputs it reads
// with an Empty payload or element (no typed form) are declined.
Output TreeDecodeRun(const TypedDecodeInput& in) {
  const Type t = TypedType(in.container, in.key, in.value);
  absl::StatusOr<Value> v = opt::Deserialize(t, in.bytes, in.version, in.options);
  if (!v.ok()) return v.status();
  if (v->is_empty()) return harness::Declined("empty payload: no typed form");
  std::string out;
  const bool map = t.kind == Kind::kMap;
  for (size_t i = 0; i < v->items().size(); ++i) {
    const Value& e = v->items()[i];
    if (e.is_empty()) return harness::Declined("empty element: no typed form");
    DumpValue(map ? t.params[i % 2].kind : t.params[0].kind, e, &out);
  }
  return out;
}

}  // namespace

absl::StatusOr<std::string> TypedDecodeOutput(const TypedDecodeInput& in) {
  return TypedDecodeRun(in);
}
absl::StatusOr<std::string> TreeDecodeOutput(const TypedDecodeInput& in) {
  return TreeDecodeRun(in);
}

harness::Domain<TypedInput> TypedDomain() {
  harness::Domain<TypedInput> d;
  d.type_name = "(list/set/map, fixed-width kinds, count, null %, seed, version; padding)";
  d.gen = rc::gen::exec([] {
    TypedSpec s;
    s.container = Roll<uint8_t>(0, 3);
    s.key = Roll<uint8_t>(0, kTypedKindCount);
    // Unused by a list or set, and not printed for one: the default, so that the printed form
    // names the whole input (targets/cql/domain.h).
    s.value = s.container == 2 ? Roll<uint8_t>(0, kTypedKindCount) : uint8_t{3};
    s.count =
        *rc::gen::weightedOneOf<uint32_t>({{3, rc::gen::inRange<uint32_t>(0, 40)},
                                           {1, rc::gen::element<uint32_t>(0, 1, 2, 65535, 65536)},
                                           {1, rc::gen::inRange<uint32_t>(0, 3000)}});
    s.null_pct = *rc::gen::element<uint8_t>(0, 1, 33, 99, 100);
    s.bad = Roll(0, 8) == 0;
    s.seed = *rc::gen::arbitrary<uint64_t>();
    s.version = Roll<uint8_t>(1, 6);
    return BuildTyped(s);
  });
  d.decode = [](FuzzedDataProvider& p) {
    TypedSpec s;
    FdpIn io{p};
    VisitTypedSpec(io, s);
    return BuildTyped(s);
  };
  d.encode = [](const TypedInput& v, harness::FuzzInputWriter& w) {
    TypedSpec s = v.spec;
    FdpOut io{w};
    VisitTypedSpec(io, s);
  };
  d.show = [](const TypedInput& in) { return ShowTypedSpec(in.spec); };
  WithShownCheck(d, ParseTypedInput);
  return d;
}

harness::Domain<TypedDecodeInput> TypedDecodeDomain() {
  harness::Domain<TypedDecodeInput> d;
  d.type_name = "(list/set/map, fixed-width kinds, version, options, bytes)";
  d.gen = rc::gen::exec([] {
    TypedDecodeInput in;
    TypedSpec s;
    s.container = Roll<uint8_t>(0, 3);
    s.key = Roll<uint8_t>(0, kTypedKindCount);
    // Unused by a list or set, and not printed for one: the default, so that the printed form
    // names the whole input (targets/cql/domain.h).
    s.value = s.container == 2 ? Roll<uint8_t>(0, kTypedKindCount) : uint8_t{3};
    s.count = *rc::gen::weightedOneOf<uint32_t>(
        {{4, rc::gen::inRange<uint32_t>(0, 20)}, {1, rc::gen::inRange<uint32_t>(0, 2000)}});
    s.null_pct = *rc::gen::element<uint8_t>(0, 1, 33, 99, 100);
    s.seed = *rc::gen::arbitrary<uint64_t>();
    s.version = Roll<uint8_t>(1, 6);
    in.container = s.container;
    in.key = s.key;
    in.value = s.value;
    in.version = s.version;
    in.options = GenOptionsNow();
    if (Roll(0, 8) == 0) in.options.max_depth = Roll(0, 3);
    const int mode = Roll(0, 10);
    if (mode < 7) {  // a valid encoding, mutated 3 times in 4
      const TypedInput built = BuildTyped(s);
      Output b = RefEncode(built.built->tree);
      if (b.ok()) in.bytes = *b;
      if (mode >= 2 && !in.bytes.empty()) {
        const size_t pos = Roll<size_t>(0, in.bytes.size());
        switch (Roll(0, 5)) {
          case 0:
            in.bytes.resize(pos);
            break;
          case 1:
            in.bytes[pos] = static_cast<char>(in.bytes[pos] ^ (Roll(0, 255) | 1));
            break;
          case 2:
            in.bytes.insert(pos, 1, static_cast<char>(Roll(0, 256)));
            break;
          case 3: {
            const uint32_t v = *rc::gen::element<uint32_t>(0, 0xFFFFFFFF, 0xFFFFFFFE, 0x7FFFFFFF, 0,
                                                           3, 4, 8, 0xFFFF);
            for (size_t i = 0; i < 4 && pos + i < in.bytes.size(); ++i) {
              in.bytes[pos + i] = static_cast<char>(v >> (24 - 8 * i));
            }
            break;
          }
          default:
            in.bytes.erase(pos, 1);
        }
      }
    } else if (mode < 8) {
      in.bytes = harness::Unhex(
                     Pick(std::vector<std::string>{"3b9aca00", "7fffffff", "ffffffff", "ffff"})) +
                 *rc::gen::container<std::string>(Roll<size_t>(0, 9), rc::gen::arbitrary<char>());
    } else {
      in.bytes = *rc::gen::arbitrary<std::string>();
    }
    return in;
  });
  d.decode = [](FuzzedDataProvider& p) {
    TypedDecodeInput in;
    FdpIn io{p};
    VisitTypedDecode(io, in);
    in.bytes = p.ConsumeRemainingBytesAsString();
    return in;
  };
  d.encode = [](const TypedDecodeInput& v, harness::FuzzInputWriter& w) {
    TypedDecodeInput c = v;
    FdpOut io{w};
    VisitTypedDecode(io, c);
    w.WriteRemainingBytes(c.bytes);
  };
  d.show = [](const TypedDecodeInput& in) {
    return absl::StrCat(
        "v", in.version, " ", opt::TypeToString(TypedType(in.container, in.key, in.value)),
        ShowOptions(in.options), " bytes(", in.bytes.size(), ")=", harness::Hex(in.bytes));
  };
  WithShownCheck(d, ParseTypedDecodeInput);
  return d;
}

harness::TargetDef<TypedInput> TypedEncodeTarget() {
  harness::TargetDef<TypedInput> def;
  def.name = "cql_typed_encode";
  def.description =
      "list/set/map of fixed-width kinds from spans + null bitmap (0/1/33/99/100% nulls, "
      "counts 0, 1, 65535, 65536, v1..v5): typed SerializeFixedList/Map (auto tier) vs each "
      "CPU tier forced (portable, ssse3, avx2, avx512; avx512_emulated where the CPU lacks "
      "avx512) vs the Value-tree encoder vs the "
      "reference, byte for byte";
  def.domain = TypedDomain();
  // `serdiff review`'s size ladder: list<int> (kTypedKinds[3]), v4.
  def.ladder = {[](uint32_t count, int null_percent) {
                  TypedSpec spec;
                  spec.container = 0;
                  spec.key = 3;
                  spec.count = count;
                  spec.null_pct = static_cast<uint8_t>(null_percent);
                  spec.seed = 42;
                  spec.version = 4;
                  return BuildTyped(spec);
                },
                kTypedMaxCount, true};
  def.optimized = {"optimized", [](const TypedInput& in) -> Output { return TypedEncode(in); }};
  def.others.push_back({"value_tree", harness::Role::kOptimizedTier,
                        [](const TypedInput& in) { return OptEncode(in.built->tree); }});
  // The value tree's other block loops (internal.h, OptEncodeValueTreeTier).
  for (const opt::TypedTier tier : kForcedValueTreeTiers) {
    def.others.push_back(
        {"value_tree_" + std::string(opt::TypedTierName(tier)), harness::Role::kOptimizedTier,
         [tier](const TypedInput& in) { return OptEncodeValueTreeTier(in.built->tree, tier); }});
    def.others.back().decline_edges = [tier] { return TreeTierDeclineEdges(tier); };
  }
  for (opt::TypedTier tier :
       {opt::TypedTier::kPortable, opt::TypedTier::kSsse3, opt::TypedTier::kAvx2,
        opt::TypedTier::kAvx512, opt::TypedTier::kAvx512Emulated}) {
    def.others.push_back({std::string(opt::TypedTierName(tier)), harness::Role::kOptimizedTier,
                          [tier](const TypedInput& in) { return TypedEncodeTier(in, tier); }});
    def.others.back().decline_edges = [tier] { return TierDeclineEdges(tier); };
  }
  def.others.push_back(
      {"reference", [](const TypedInput& in) { return RefEncode(in.built->tree); }});
  // Accepted: the one exact-size output allocation plus 64 bytes. Rejected: nothing but the
  // error status (its message and offset payload), at most 1 KiB.
  def.heap_bound = harness::HeapBound<TypedInput>::Custom(
      "output + 64 (rejected: 1 KiB, the error status)",
      [](const TypedInput&, const Output& out) -> int64_t {
        return out.ok() ? static_cast<int64_t>(out->size()) + 64 : 1024;
      });
  def.show_output = [](const std::string& out) {
    return absl::StrCat(out.size(), " bytes, starting ", harness::Hex(out.substr(0, 32)));
  };
  def.interchange = CqlSerializeInterchange<TypedInput>(
      [](const TypedInput& in) -> const EncodeInput& { return in.built->tree; });
  AddPeerDivergences(def, [](const TypedInput& in) -> const EncodeInput& { return in.built->tree; },
                     {"python_cassandra", "node_cassandra", "gocql"});
  return def;
}

harness::TargetDef<TypedDecodeInput> TypedDecodeTarget() {
  harness::TargetDef<TypedDecodeInput> def;
  def.name = "cql_typed_decode";
  def.description =
      "arbitrary and mutated bytes as list/set/map of fixed-width kinds: typed "
      "DeserializeFixedList/Map vs the Value-tree decoder (error class, then every element); "
      "Value-tree results with empty elements are declined (no typed form)";
  def.domain = TypedDecodeDomain();
  def.optimized = {"optimized", TypedDecodeRun};
  def.others.push_back({"value_tree", harness::Role::kOptimizedTier, TreeDecodeRun});
  // Both decoders report where the first invalid field starts (docs/architecture.md,
  // "Error offsets"); a missing or different offset fails the case.
  def.offsets = harness::OffsetPolicy::kRequired;
  def.heap_bound = harness::HeapBound<TypedDecodeInput>::Custom(
      "typed column + its dump (reserved at full size) + 64 (rejected: a column of input/2 "
      "elements + 1 KiB)",
      [](const TypedDecodeInput& in, const Output& result) -> int64_t {
        // The typed column (values + bitmap; both columns for a map) and the dump of it.
        const Kind kk = kTypedKinds[in.key % kTypedKindCount];
        const Kind vk = kTypedKinds[in.value % kTypedKindCount];
        const bool map = in.container % 3 == 2;
        auto size_of = [](Kind k) -> size_t {
          return WithElementType(k, [](auto tag) { return sizeof(typename decltype(tag)::type); });
        };
        if (!result.ok()) {
          // Rejected: the column may have been reserved for the count before an element failed,
          // but only once the count was checked against the bytes that remain, at 4 bytes (a
          // length: 2 bytes in v1/v2, 4 from v3) per element at least; plus the error status.
          const size_t n_max = in.bytes.size() / 2;
          const size_t column =
              n_max * (size_of(kk) + (map ? size_of(vk) : 0)) + 2 * (n_max / 8 + 1);
          return static_cast<int64_t>(column) + 1024;
        }
        const std::string& out = *result;
        // Elements in the dump: 'N' alone, or 'V' and the value (8 or 16 bytes).
        size_t n = 0;
        for (size_t i = 0; i < out.size(); ++n) {
          const Kind k = (map && n % 2 == 1) ? vk : kk;
          i += out[i] == 'N' ? 1 : DumpWidth(k);
        }
        if (map) n /= 2;
        const size_t column =
            n * size_of(kk) + (n + 7) / 8 + (map ? n * size_of(vk) + (n + 7) / 8 : 0);
        // The dump reserves its largest size (every element present) up front.
        const size_t dump = n * (DumpWidth(kk) + (map ? DumpWidth(vk) : 0));
        return static_cast<int64_t>(column + dump) + 64;
      });
  return def;
}

}  // namespace serdiff::targets::cql
