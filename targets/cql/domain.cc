// CQL family: the harness domains of the tree-codec targets (encode, decode, mutated, large):
// generator, corpus-file reader and writer, printer; and the helpers tests share with them
// (ExpectedDecode, MutatedBytes, the hex helpers).
#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "harness/hex.h"
#include "serdiff/cql/literal.h"
#include "targets/cql/domain.h"
#include "targets/cql/internal.h"

namespace serdiff::targets::cql {

Value ExpectedDecode(const Type& t, const Value& v) {
  switch (v.shape()) {
    case Shape::kItems: {
      const bool fields = t.kind == Kind::kUdt || t.kind == Kind::kTuple;
      if (fields && v.items().empty()) return Value::Empty();
      std::vector<Value> items;
      for (size_t i = 0; i < v.items().size(); ++i) {
        const Type& it =
            (t.kind == Kind::kList || t.kind == Kind::kSet) ? t.params[0] : t.params[i];
        items.push_back(ExpectedDecode(it, v.items()[i]));
      }
      return Value::Items(std::move(items));
    }
    case Shape::kPairs: {
      std::vector<Value> items;
      for (size_t i = 0; i < v.items().size(); ++i) {
        items.push_back(ExpectedDecode(t.params[i % 2], v.items()[i]));
      }
      return Value::Pairs(std::move(items));
    }
    default:
      return v;
  }
}

Value ReadAsCassandra(const Type& t, const Value& v) {
  switch (v.shape()) {
    case Shape::kItems: {
      const bool fields = t.kind == Kind::kUdt || t.kind == Kind::kTuple;
      std::vector<Value> items;
      for (size_t i = 0; i < v.items().size(); ++i) {
        const bool in_type = fields ? i < t.params.size() : !t.params.empty();
        items.push_back(in_type ? ReadAsCassandra(fields ? t.params[i] : t.params[0], v.items()[i])
                                : v.items()[i]);
      }
      if (fields && items.size() < t.params.size()) items.resize(t.params.size());
      return Value::Items(std::move(items));
    }
    case Shape::kPairs: {
      std::vector<Value> items;
      for (size_t i = 0; i < v.items().size(); ++i) {
        items.push_back(t.params.size() == 2 ? ReadAsCassandra(t.params[i % 2], v.items()[i])
                                             : v.items()[i]);
      }
      return Value::Pairs(std::move(items));
    }
    default:
      return v;
  }
}

std::string ShowEncodeInput(const EncodeInput& in) {
  return absl::StrCat("v", in.version, in.framed ? " [value] " : " payload ",
                      opt::TypeToString(in.type), " = ", opt::FormatValue(in.type, in.value));
}

std::string ShowOptions(const DecodeOptions& o) {
  std::string s = absl::StrCat(" max_depth=", o.max_depth);
  if (o.require_minimal_varint) s += " require_minimal_varint";
  if (o.reject_short_tuples) s += " reject_short_tuples";
  if (o.reject_negative_lengths) s += " reject_negative_lengths";
  if (o.require_time_in_day) s += " require_time_in_day";
  if (o.reject_duration_trailing_bytes) s += " reject_duration_trailing_bytes";
  if (o.strict_utf8) s += " strict_utf8";
  if (o.reject_empty_where_cassandra_does) s += " reject_empty_where_cassandra_does";
  return s;
}

namespace {

std::string ShowDecodeInput(const DecodeInput& in) {
  return absl::StrCat("v", in.version, in.framed ? " [value] " : " payload ",
                      opt::TypeToString(in.type), ShowOptions(in.options), " bytes(",
                      in.bytes.size(), ")=", harness::Hex(in.bytes));
}

}  // namespace

harness::Domain<EncodeInput> EncodeDomain(bool nested) {
  harness::Domain<EncodeInput> d;
  d.type_name = nested ? "(version, framing, nested cql type, value)"
                       : "(version, framing, native cql type, value)";
  d.gen = GenEncodeInput(nested);
  const int max_depth = nested ? kMaxTypeDepth : 0;
  d.decode = [max_depth](FuzzedDataProvider& p) {
    EncodeInput in;
    FdpIn io{p};
    VisitEncodeInput(io, in, max_depth);
    return in;
  };
  d.encode = [max_depth](const EncodeInput& v, harness::FuzzInputWriter& w) {
    EncodeInput copy = v;
    FdpOut io{w};
    VisitEncodeInput(io, copy, max_depth);
  };
  d.show = ShowEncodeInput;
  WithShownCheck(d,
                 [max_depth](std::string_view text) { return ParseEncodeInput(text, max_depth); });
  return d;
}

harness::Domain<DecodeInput> DecodeDomain() {
  harness::Domain<DecodeInput> d;
  d.type_name = "(version, framing, options, cql type, bytes)";
  d.gen = rc::gen::exec([] {
    DecodeInput in;
    in.version = GenVersion();
    in.framed = Roll(0, 10) < 3;
    in.options = GenOptionsNow();
    in.options.max_depth = *rc::gen::weightedOneOf<int>(
        {{4, rc::gen::just(serdiff::cql::kDefaultMaxDepth)}, {1, harness::UniformIn(0, 8)}});
    in.type = GenTypeNow(0, *rc::gen::inRange(0, kMaxTypeDepth + 1));
    const int mode = Roll(0, 10);
    if (mode < 4) {  // a valid encoding of a generated value
      const int null_pct = *Percent();
      int budget = kNodeBudget;
      EncodeInput e{in.type, GenValueNow(in.type, null_pct, budget, true), in.version, in.framed};
      Output b = RefEncode(e);
      if (b.ok()) in.bytes = *b;
    } else if (mode < 6) {  // a huge or negative count / length, then a few bytes
      in.bytes = Pick(std::vector<std::string>{"3b9aca00", "ffffffff", "7fffffff", "fffffffe",
                                               "80000000", "0000ffff", "ffff"});
      in.bytes = harness::Unhex(in.bytes) +
                 *rc::gen::container<std::string>(Roll<size_t>(0, 9), rc::gen::arbitrary<char>());
    } else {
      in.bytes = *rc::gen::arbitrary<std::string>();
    }
    return in;
  });
  d.decode = [](FuzzedDataProvider& p) {
    DecodeInput in;
    FdpIn io{p};
    io.Int(in.version, 1, 5);
    io.Bool(in.framed);
    VisitOptions(io, in.options);
    VisitType(io, in.type, 0, kMaxTypeDepth);
    in.bytes = p.ConsumeRemainingBytesAsString();
    return in;
  };
  d.encode = [](const DecodeInput& v, harness::FuzzInputWriter& w) {
    DecodeInput c = v;
    FdpOut io{w};
    io.Int(c.version, 1, 5);
    io.Bool(c.framed);
    VisitOptions(io, c.options);
    VisitType(io, c.type, 0, kMaxTypeDepth);
    w.WriteRemainingBytes(c.bytes);
  };
  d.show = ShowDecodeInput;
  WithShownCheck(d, ParseDecodeInput);
  return d;
}

harness::Domain<DecodeSetup> DecodeSetupDomain() {
  harness::Domain<DecodeSetup> d;
  d.type_name = "(encode input, decode options)";
  d.gen = rc::gen::exec([] {
    DecodeSetup in;
    in.base = *GenEncodeInput(Roll(0, 3) != 0);
    in.options = GenOptionsNow();
    in.options.max_depth = *rc::gen::weightedOneOf<int>(
        {{4, rc::gen::just(serdiff::cql::kDefaultMaxDepth)}, {1, harness::UniformIn(0, 6)}});
    return in;
  });
  d.decode = [](FuzzedDataProvider& p) {
    DecodeSetup in;
    FdpIn io{p};
    VisitOptions(io, in.options);
    VisitEncodeInput(io, in.base, kMaxTypeDepth);
    return in;
  };
  d.encode = [](const DecodeSetup& v, harness::FuzzInputWriter& w) {
    DecodeSetup c = v;
    FdpOut io{w};
    VisitOptions(io, c.options);
    VisitEncodeInput(io, c.base, kMaxTypeDepth);
  };
  d.show = [](const DecodeSetup& in) {
    return absl::StrCat(ShowEncodeInput(in.base), "\n  options", ShowOptions(in.options));
  };
  WithShownCheck(d, ParseDecodeSetup);
  return d;
}

harness::Domain<MutatedInput> MutatedDomain() {
  // The reference encoder makes the valid encoding, so that a bug in the optimized encoder
  // cannot hide the same bug in the optimized decoder.
  return harness::MutatedOf<DecodeSetup>(DecodeSetupDomain(), [](const DecodeSetup& in) {
    Output enc = RefEncode(in.base);
    return enc.ok() ? *enc : std::string();
  });
}

namespace {

// The spec's fields, then the padding that makes the input long enough for the spec's work
// (ClampLargeSpec, LargePadBytes): a spec read from fewer bytes than its work needs is
// clamped, so the input's length bounds the work of the case.
template <typename IO>
void VisitLargeSpec(IO& io, LargeSpec& s) {
  io.Int(s.shape, uint8_t{0}, static_cast<uint8_t>(kLargeShapes - 1));
  io.Int(s.count, uint32_t{0}, kLargeMaxCount);
  io.Int(s.null_pct, uint8_t{0}, uint8_t{100});
  io.Int(s.text_len, uint32_t{0}, kLargeMaxTextLen);
  io.Int(s.seed);
  io.Int(s.version, uint8_t{3}, uint8_t{5});
  if constexpr (IO::kReading) {
    ClampLargeSpec(&s, io.remaining_bytes());
  } else {
    io.PadUnread(LargePadBytes(s));
  }
}

}  // namespace

harness::Domain<LargeInput> LargeDomain() {
  harness::Domain<LargeInput> d;
  d.type_name = "(shape, count, null %, text length, seed, version; padding)";
  d.gen = rc::gen::map(GenLargeSpec(), [](const LargeSpec& s) {
    return LargeInput{s, BuildLarge(s)};
  });
  d.decode = [](FuzzedDataProvider& p) {
    LargeSpec s;
    FdpIn io{p};
    VisitLargeSpec(io, s);
    return LargeInput{s, BuildLarge(s)};
  };
  d.encode = [](const LargeInput& v, harness::FuzzInputWriter& w) {
    LargeSpec s = v.spec;
    FdpOut io{w};
    VisitLargeSpec(io, s);
  };
  d.show = [](const LargeInput& in) {
    const LargeSpec& s = in.spec;
    return absl::StrCat(LargeShapeName(s.shape), " count=", s.count, " nulls=", s.null_pct,
                        "% text_len=", s.text_len, " seed=", s.seed, " v", s.version);
  };
  WithShownCheck(d, ParseLargeInput);
  return d;
}

}  // namespace serdiff::targets::cql
