// CQL family: edge values per kind, the values where encoders and decoders most often go
// wrong (range ends, sign and length boundaries, special floats, invalid UTF-8, ...). The
// generators lean on them; the corpus-file form can name each by its index.
#include <algorithm>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/numeric/int128.h"
#include "harness/edges.h"
#include "targets/cql/internal.h"
#include "targets/timestamp/domain.h"

namespace serdiff::targets::cql {

namespace {

using harness::SortedUnique;

std::vector<int64_t> EdgeMillisList() { return ::serdiff::targets::timestamp::EdgeMillis(); }
std::vector<int64_t> EdgeDaysList() { return ::serdiff::targets::timestamp::EdgeDays(); }
std::vector<int64_t> EdgeTimeList() { return ::serdiff::targets::timestamp::EdgeCqlTimeNanos(); }

}  // namespace

// Edge values of an integer kind, including a few just outside its range.
const std::vector<int64_t>& IntEdges(Kind k) {
  static const auto* tables = [] {
    auto* m = new std::vector<std::vector<int64_t>>(5);
    auto around = [](std::vector<int64_t>* v, int64_t lo, int64_t hi) {
      v->insert(v->end(), {lo - 1, lo, lo + 1, -1, 0, 1, hi - 1, hi, hi + 1});
    };
    around(&(*m)[0], -128, 127);
    around(&(*m)[1], -32768, 32767);
    around(&(*m)[2], std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
    for (int b = 1; b < 31; b += 3) {
      (*m)[2].insert((*m)[2].end(), {int64_t{1} << b, -(int64_t{1} << b)});
    }
    (*m)[3] = harness::EdgeInt64();
    (*m)[4] = EdgeMillisList();
    for (auto& v : *m) v = SortedUnique(std::move(v));
    return m;
  }();
  static const auto* days = new std::vector<int64_t>(SortedUnique(EdgeDaysList()));
  static const auto* times = new std::vector<int64_t>(SortedUnique(EdgeTimeList()));
  switch (k) {
    case Kind::kTinyint:
      return (*tables)[0];
    case Kind::kSmallint:
      return (*tables)[1];
    case Kind::kInt:
      return (*tables)[2];
    case Kind::kTimestamp:
      return (*tables)[4];
    case Kind::kDate:
      return *days;
    case Kind::kTime:
      return *times;
    default:
      return (*tables)[3];
  }
}

// Valid range of an integer kind in the value model.
std::pair<int64_t, int64_t> IntRange(Kind k) {
  switch (k) {
    case Kind::kTinyint:
      return {-128, 127};
    case Kind::kSmallint:
      return {-32768, 32767};
    case Kind::kInt:
      return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
    case Kind::kDate:
      return {-kDateEpoch, kDateEpoch - 1};
    case Kind::kTime:
      return {0, kMaxTimeNanos};
    default:
      return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
  }
}

// The integer kinds are those the value model holds as an int64 (value.h, ShapeOfKind).
bool IsIntKind(Kind k) { return serdiff::cql::ShapeOfKind(k) == Value::Shape::kInt; }

const std::vector<uint32_t>& FloatEdges() {
  static const auto* v = new std::vector<uint32_t>{
      0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x3FC00000, 0x7F800000,
      0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0x7FBFFFFF, 0x00000001,
      0x807FFFFF, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x3DCCCCCD};
  return *v;
}
const std::vector<uint64_t>& DoubleEdges() {
  static const auto* v = new std::vector<uint64_t>{
      0x0000000000000000, 0x8000000000000000, 0x3FF0000000000000, 0x3FB999999999999A,
      0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 0xFFF8000000000000,
      0x7FF0000000000001, 0x7FF4000000000000, 0x0000000000000001, 0x000FFFFFFFFFFFFF,
      0x0010000000000000, 0x7FEFFFFFFFFFFFFF, 0xC3E0000000000000, 0x43E0000000000000};
  return *v;
}

std::string Cp(uint32_t cp) {  // UTF-8 of a code point (any value up to 0x1FFFFF)
  std::string s;
  if (cp < 0x80) {
    s.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    s.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    s.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    s.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    s.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    s.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    s.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    s.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    s.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    s.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
  return s;
}

// Text edges: valid boundary code points, and invalid sequences (overlong, surrogate, beyond
// U+10FFFF, truncated, stray continuation bytes).
const std::vector<std::string>& TextEdges() {
  static const auto* v = [] {
    auto* e = new std::vector<std::string>{
        "a", "hello", "\xC3\xA9\xE2\x82\xAC", "it's \\ \"q\"", std::string(1, '\0'), "\x7F",
        Cp(0x80), Cp(0x7FF), Cp(0x800), Cp(0xD7FF), Cp(0xE000), Cp(0xFFFF), Cp(0x10000),
        Cp(0x10FFFF), "x" + Cp(0x1F600) + "y",
        // invalid:
        "\xC0\x80", "\xC1\xBF", "\xE0\x80\x80", "\xED\xA0\x80", "\xED\xBF\xBF", "\xF0\x80\x80\x80",
        "\xF4\x90\x80\x80", "\xF5\x80\x80\x80", "\xFF", "\x80", "abc\xE2\x82", "\xE2\x82\xACz\xC3",
        std::string(kMaxString, 'z')};
    return e;
  }();
  return *v;
}

const std::vector<Duration>& DurationEdges() {
  static const auto* v = new std::vector<Duration>{
      {0, 0, 0},
      {1, 2, 3},
      {-1, -1, -1},
      {12, 0, 0},
      {0, 0, 3'600'000'000'000},
      {std::numeric_limits<int32_t>::max(), std::numeric_limits<int32_t>::max(),
       std::numeric_limits<int64_t>::max()},
      {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::min(),
       std::numeric_limits<int64_t>::min()},
      {0, 0, 63},
      {0, 0, -64},
      {0, 0, 64},
      {0, -65, 0},
      {1, -1, 0},  // mixed signs: invalid
      {0, 1, -1},  // mixed signs: invalid
      {-1, 0, 1},  // mixed signs: invalid
  };
  return *v;
}

const std::vector<Uuid>& UuidEdges() {
  static const auto* v = [] {
    auto* e = new std::vector<Uuid>;
    Uuid z{};
    e->push_back(z);
    Uuid f;
    f.fill(0xFF);
    e->push_back(f);
    Uuid seq;
    for (int i = 0; i < 16; ++i) seq[i] = static_cast<uint8_t>(i * 0x11);
    e->push_back(seq);  // 00112233-4455-6677-8899-aabbccddeeff
    Uuid v1 = seq;
    v1[6] = 0x11;  // version 1
    e->push_back(v1);
    Uuid v4 = seq;
    v4[6] = 0x41;  // version 4
    e->push_back(v4);
    return e;
  }();
  return *v;
}

const std::vector<std::string>& InetEdges() {
  static const auto* v = new std::vector<std::string>{std::string("\x7F\x00\x00\x01", 4),
                                                      std::string(4, '\0'),
                                                      std::string(4, '\xFF'),
                                                      std::string(15, '\0') + "\x01",
                                                      std::string(16, '\xFF'),
                                                      std::string(3, '\x01'),
                                                      std::string(5, '\x01'),
                                                      std::string(17, '\x01')};
  return *v;
}

const std::vector<BigInt>& VarintEdgeTable() {
  static const auto* v = new std::vector<BigInt>(EdgeVarints());
  return *v;
}

uint64_t SplitMix(uint64_t* state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::vector<BigInt> EdgeVarints() {
  std::vector<BigInt> v = {BigInt(),
                           BigInt::FromInt64(1),
                           BigInt::FromInt64(-1),
                           BigInt::FromInt64(std::numeric_limits<int64_t>::min()),
                           BigInt::FromInt64(std::numeric_limits<int64_t>::max()),
                           BigInt::FromInt128(std::numeric_limits<absl::int128>::min()),
                           BigInt::FromInt128(std::numeric_limits<absl::int128>::max())};
  for (int k = 0; k <= 300; k += (k < 80 ? 1 : 7)) {
    for (int d = -1; d <= 1; ++d) {
      v.push_back(BigInt::PowerOfTwo(false, k, d));
      v.push_back(BigInt::PowerOfTwo(true, k, d));
    }
  }
  for (int len = 1; len <= 40; ++len) {
    const int top = 8 * len - 1;  // an L-byte varint holds -2^top .. 2^top - 1
    v.push_back(BigInt::PowerOfTwo(false, top, -1));
    v.push_back(BigInt::PowerOfTwo(true, top, 0));
    if (len > 1) {
      v.push_back(BigInt::PowerOfTwo(false, top - 8, 0));
      v.push_back(BigInt::PowerOfTwo(true, top - 8, 1));
    }
  }
  std::vector<BigInt> out;
  for (BigInt& b : v) {
    if (b.magnitude().size() > kMaxMagnitude) continue;
    if (std::find(out.begin(), out.end(), b) == out.end()) out.push_back(std::move(b));
  }
  return out;
}

}  // namespace serdiff::targets::cql
