// BSON family: documents as a harness domain (the corpus form as one two-way visitor, the
// edge-biased generators), the bson_array_keys count and the decoders' byte-string domain.
// Declared in targets/bson/domain.h.
#include "targets/bson/domain.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "harness/hex.h"
#include "harness/two_way.h"
#include "harness/uniform.h"
#include "serdiff/bson/codec.h"
#include "serdiff/timestamp/timestamp.h"
#include "targets/timestamp/domain.h"

namespace serdiff::targets::bson {

namespace sb = serdiff::bson;
using sb::Document;
using sb::Element;
using sb::Type;
using sb::Value;

// ---- corpus form -------------------------------------------------------------------------

namespace {

constexpr size_t kMaxKey = 24;
constexpr size_t kMaxString = 48;

uint8_t TypeIndex(Type t) {
  for (uint8_t i = 0; i < 21; ++i) {
    if (sb::kAllTypes[i] == t) return i;
  }
  return 0;
}

// One document's corpus form, run in both directions (IO = harness::FuzzReader or
// harness::FuzzWriter). A Value's meaningful fields depend on its type (document.h), so the
// type is visited first.
template <typename IO>
struct DocumentVisitor {
  IO& io;
  uint32_t budget = kMaxTotalElements;
  // Elements that the open containers announced and that are not visited yet. Each takes at
  // least one byte (its type index), so when reading, a new count may use only the bytes left
  // beyond these: an input of L bytes then builds at most L elements in all, and a file the
  // writer made (which holds every element) is never cut.
  size_t announced = 0;

  void Elements(std::vector<Element>& els, bool is_array, int depth) {
    const uint32_t cap = depth > kMaxDomainDepth ? 0 : std::min(kMaxElements, budget);
    uint32_t n = static_cast<uint32_t>(els.size());
    io.Int(n, uint32_t{0}, cap);
    if constexpr (IO::kReading) {
      const size_t left = io.remaining_bytes();
      n = static_cast<uint32_t>(std::min<size_t>(n, left > announced ? left - announced : 0));
      els.resize(n);
    }
    budget -= n;
    announced += n;
    for (Element& e : els) {
      --announced;
      uint8_t t = TypeIndex(e.value.type);
      io.Int(t, uint8_t{0}, uint8_t{20});
      // Reading fills a default-constructed element, so setting the type is enough: the
      // payload visit below overwrites every field OfType(type) would preset (the 12- and
      // 16-byte ids), without building and moving a temporary Value per element.
      if constexpr (IO::kReading) e.value.type = sb::kAllTypes[t];
      if (!is_array) io.Str(e.key, kMaxKey);
      Payload(e.value, depth);
    }
  }

  void Payload(Value& v, int depth) {
    switch (v.type) {
      case Type::kDouble: {
        uint64_t bits = IO::kReading ? 0 : std::bit_cast<uint64_t>(v.d);
        io.Int(bits);
        if constexpr (IO::kReading) v.d = std::bit_cast<double>(bits);
        break;
      }
      case Type::kString:
      case Type::kCode:
      case Type::kSymbol:
        io.Str(v.s, kMaxString);
        break;
      case Type::kDocument:
      case Type::kArray:
        Elements(v.children, v.type == Type::kArray, depth + 1);
        break;
      case Type::kBinary:
        io.Int(v.subtype);
        io.Str(v.s, kMaxString);
        break;
      case Type::kObjectId:
        io.Fixed(v.s, 12);
        break;
      case Type::kDecimal128:
        io.Fixed(v.s, 16);
        break;
      case Type::kBool: {
        uint8_t b = static_cast<uint8_t>(v.i);
        io.Int(b, uint8_t{0}, uint8_t{2});
        v.i = b;
        break;
      }
      case Type::kDateTime: {
        bool civil = v.civil.has_value();
        io.Bool(civil);
        if (civil) {
          if constexpr (IO::kReading) v.civil.emplace();
          ::serdiff::timestamp::CivilDateTime& c = *v.civil;
          io.Int(c.year, 0, 10000);
          io.Int(c.month, 0, 13);
          io.Int(c.day, 0, 32);
          io.Int(c.hour, 0, 24);
          io.Int(c.minute, 0, 60);
          io.Int(c.second, 0, 60);
          io.Int(c.microsecond, 0, 1000000);
        } else {
          io.Int(v.i);
        }
        break;
      }
      case Type::kRegex:
        io.Str(v.s, kMaxKey);
        io.Str(v.s2.mut(), kMaxKey);
        break;
      case Type::kDbPointer:
        io.Str(v.s, kMaxKey);
        io.Fixed(v.s2.mut(), 12);
        break;
      case Type::kCodeWithScope:
        io.Str(v.s, kMaxString);
        Elements(v.children, false, depth + 1);
        break;
      case Type::kInt32: {
        int32_t x = static_cast<int32_t>(v.i);
        io.Int(x);
        v.i = x;
        break;
      }
      case Type::kTimestamp:
      case Type::kInt64:
        io.Int(v.i);
        break;
      default:  // undefined, null, min key, max key: no payload
        break;
    }
  }
};

}  // namespace

harness::Domain<Document> DocumentDomain() {
  return harness::TwoWayDomain<Document>(
      "bson document", GenDocument(),
      [](auto& io, Document& doc) {
        DocumentVisitor<std::decay_t<decltype(io)>> visitor{io};
        visitor.Elements(doc.elements, false, 1);
      },
      [](const Document& doc) { return sb::Show(doc); }, ParseDocument);
}

harness::Domain<uint32_t> ArrayKeyCountDomain() {
  return harness::TwoWayDomain<uint32_t>(
      "uint32 (n <= 200000)",
      rc::gen::weightedOneOf<uint32_t>(
          {{3, rc::gen::element<uint32_t>(0, 1, 10, 11, 100, 101, 1000, 1001, 100001)},
           {3, rc::gen::inRange<uint32_t>(0, 20001)}}),
      [](auto& io, uint32_t& n) {
        io.Int(n, uint32_t{0}, kMaxArrayKeys);
        // The padding's bytes are 0xFF so that a long file cut to max_len by libFuzzer (which
        // keeps the front, the padding) reads as a large count, not as 0.
        std::string padding;
        if constexpr (std::decay_t<decltype(io)>::kReading) {
          n = static_cast<uint32_t>(
              std::min<uint64_t>(n, uint64_t{kArrayKeysPerByte} * io.remaining_bytes()));
        } else {
          padding.assign((n + kArrayKeysPerByte - 1) / kArrayKeysPerByte, '\xFF');
        }
        io.Rest(padding);
      },
      [](const uint32_t& n) { return absl::StrCat(n); }, ParseArrayKeyCount);
}

harness::Domain<std::string> DecoderInputDomain() {
  return harness::TwoWayDomain<std::string>(
      "bytes", GenDecoderInput(), [](auto& io, std::string& s) { io.Rest(s); },
      [](const std::string& s) { return harness::Hex(s); }, ParseDecoderInput);
}

// ---- generators -----------------------------------------------------------------------------

namespace {

const std::vector<std::string>& EdgeKeys() {
  static const auto* keys = new std::vector<std::string>{"",
                                                         "a",
                                                         "_id",
                                                         "key",
                                                         "0",
                                                         "10",
                                                         "x.y",
                                                         "$set",
                                                         "\xC3\xA9",
                                                         "\xE6\x97\xA5\xE6\x9C\xAC",
                                                         "\xF0\x9F\x98\x80",
                                                         "caf\xC3\xA9",
                                                         std::string(kMaxKey, 'k')};
  return *keys;
}

rc::Gen<std::string> GenText(size_t max) {
  return rc::gen::weightedOneOf<std::string>({
      {3, rc::gen::elementOf(EdgeKeys())},
      {3, rc::gen::map(rc::gen::container<std::string>(harness::UniformIn<char>('a', 'z' + 1)),
                       [max](std::string s) {
                         if (s.size() > max) s.resize(max);
                         return s;
                       })},
  });
}

rc::Gen<std::string> GenBytes(size_t n) {
  return rc::gen::container<std::string>(n, rc::gen::arbitrary<char>());
}

rc::Gen<int64_t> GenInt64() {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin32 = std::numeric_limits<int32_t>::min();
  constexpr int64_t kMax32 = std::numeric_limits<int32_t>::max();
  return rc::gen::weightedOneOf<int64_t>({
      {3, rc::gen::element<int64_t>(0, 1, -1, kMin, kMax, kMin + 1, kMax - 1, kMin32, kMax32,
                                    kMin32 - 1, kMax32 + 1, 9, 10, 99, 100)},
      {3, rc::gen::arbitrary<int64_t>()},
  });
}

rc::Gen<int32_t> GenInt32() {
  return rc::gen::weightedOneOf<int32_t>({
      {2, rc::gen::element<int32_t>(0, 1, -1, std::numeric_limits<int32_t>::min(),
                                    std::numeric_limits<int32_t>::max())},
      {3, rc::gen::arbitrary<int32_t>()},
  });
}

rc::Gen<::serdiff::timestamp::CivilDateTime> GenCivil() {
  return rc::gen::exec([] {
    const int which = *harness::UniformIn(0, 4);
    if (which == 0) {
      return *rc::gen::element(
          ::serdiff::timestamp::CivilDateTime{9999, 1, 1, 1, 1, 1, 999999},
          ::serdiff::timestamp::CivilDateTime{1969, 12, 31, 23, 59, 59, 999500},
          ::serdiff::timestamp::CivilDateTime{1, 1, 1, 0, 0, 0, 0},
          ::serdiff::timestamp::CivilDateTime{9999, 12, 31, 23, 59, 59, 999999},
          ::serdiff::timestamp::CivilDateTime{1970, 1, 1, 0, 0, 0, 1},
          ::serdiff::timestamp::CivilDateTime{2000, 2, 30, 0, 0, 0, 0});
    }
    const std::vector<int64_t> edges = ::serdiff::targets::timestamp::EdgeMillis();
    const int64_t ms = *rc::gen::elementOf(edges);
    absl::StatusOr<::serdiff::timestamp::CivilDateTime> c =
        ::serdiff::timestamp::FromUnixMillis(ms);
    ::serdiff::timestamp::CivilDateTime out = c.ok() ? *c : ::serdiff::timestamp::CivilDateTime{};
    if (which == 2) out.microsecond = *harness::UniformIn(0, 1000000);
    return out;
  });
}

rc::Gen<Value> GenValue(int depth);

rc::Gen<std::vector<Element>> GenElements(int depth, bool is_array, uint32_t max_n) {
  return rc::gen::exec([=] {
    const uint32_t n = *rc::gen::weightedOneOf<uint32_t>({
        {6, rc::gen::inRange<uint32_t>(0, 5)},
        {1, rc::gen::inRange<uint32_t>(0, std::min<uint32_t>(max_n, 40) + 1)},
    });
    std::vector<Element> out;
    for (uint32_t i = 0; i < n; ++i) {
      Element e;
      if (!is_array) e.key = *GenText(kMaxKey);
      e.value = *GenValue(depth);
      out.push_back(std::move(e));
    }
    return out;
  });
}

Value Chain(int levels) {  // {"d": {"d": ... {} }} with `levels` embedded documents
  Value v = sb::SubDocument({});
  for (int i = 1; i < levels; ++i) v = sb::SubDocument({Element{"d", std::move(v)}});
  return v;
}

rc::Gen<Value> GenValue(int depth) {
  return rc::gen::exec([depth] {
    const Type t = depth >= 4 ? *rc::gen::element(Type::kInt32, Type::kString, Type::kNull)
                              : *rc::gen::elementOf(std::vector<Type>(std::begin(sb::kAllTypes),
                                                                      std::end(sb::kAllTypes)));
    Value v = sb::OfType(t);
    switch (t) {
      case Type::kDouble:
        v.d = *rc::gen::weightedOneOf<double>(
            {{2, rc::gen::element(0.0, -0.0, 1.5, std::numeric_limits<double>::infinity(),
                                  std::numeric_limits<double>::quiet_NaN(), 1e308, 5e-324)},
             {2, rc::gen::arbitrary<double>()}});
        break;
      case Type::kString:
      case Type::kCode:
      case Type::kSymbol:
        v.s = *GenText(kMaxString);
        break;
      case Type::kDocument:
      case Type::kArray:
        v.children = *GenElements(depth + 1, t == Type::kArray, 40);
        break;
      case Type::kBinary:
        v.subtype = *rc::gen::element<uint8_t>(0, 1, 2, 3, 4, 5, 6, 7, 0x80, 0xFF);
        v.s = *rc::gen::container<std::string>(rc::gen::arbitrary<char>());
        if (v.s.size() > kMaxString) v.s.resize(kMaxString);
        break;
      case Type::kObjectId:
        v.s = *GenBytes(12);
        break;
      case Type::kDecimal128:
        v.s = *GenBytes(16);
        break;
      case Type::kBool:
        v.i = *rc::gen::weightedOneOf<int64_t>(
            {{10, rc::gen::element<int64_t>(0, 1)}, {1, rc::gen::just<int64_t>(2)}});
        break;
      case Type::kDateTime:
        if (*harness::UniformIn(0, 3) > 0) {
          v.civil = *GenCivil();
        } else {
          v.i = *GenInt64();
        }
        break;
      case Type::kRegex:
        v.s = *GenText(kMaxKey);
        // Sorted and unsorted options (the encoders must store them sorted), a repeat and a
        // letter outside "ilmsux" (kept by serdiff, dropped by libbson).
        v.s2 = *rc::gen::element<std::string>("", "i", "imsx", "ilmsux", "xmi", "mi", "usmxli",
                                              "\xff\x0f", "xix", "qa");
        break;
      case Type::kDbPointer:
        v.s = *GenText(kMaxKey);
        v.s2 = *GenBytes(12);
        break;
      case Type::kCodeWithScope:
        v.s = *GenText(kMaxString);
        v.children = *GenElements(depth + 1, false, 8);
        break;
      case Type::kInt32:
        v.i = *GenInt32();
        break;
      case Type::kTimestamp:
      case Type::kInt64:
        v.i = *GenInt64();
        break;
      default:
        break;
    }
    return v;
  });
}

// A large array of int32 or int64 edge values.
rc::Gen<Value> GenLargeArray() {
  return rc::gen::exec([] {
    const uint32_t n = *rc::gen::weightedOneOf<uint32_t>({
        {3, rc::gen::element<uint32_t>(10, 11, 100, 101, 1000, 1001)},
        {1, rc::gen::inRange<uint32_t>(0, kMaxElements + 1)},
    });
    const bool wide = *rc::gen::arbitrary<bool>();
    Value v = sb::OfType(Type::kArray);
    v.children.resize(n);
    const int64_t seed = *GenInt64();
    for (uint32_t i = 0; i < n; ++i) {
      // Unsigned arithmetic: wraps at the int64 extremes instead of overflowing.
      const auto step = static_cast<int64_t>(static_cast<uint64_t>(seed) + uint64_t{i} * 7919);
      v.children[i].value = wide ? sb::Int64(step) : sb::Int32(static_cast<int32_t>(i));
    }
    return v;
  });
}

}  // namespace

rc::Gen<Document> GenDocument() {
  return rc::gen::exec([] {
    Document doc;
    const int shape = *harness::UniformIn(0, 10);
    if (shape == 0) {
      doc.elements.push_back(Element{*GenText(kMaxKey), *GenLargeArray()});
    } else if (shape == 1) {
      const int levels = *rc::gen::weightedOneOf<int>(
          {{1, rc::gen::element(98, 99, 100, 101)}, {2, rc::gen::inRange(1, 30)}});
      doc.elements.push_back(Element{"d", Chain(levels)});
    } else {
      doc.elements = *GenElements(1, false, 40);
    }
    return doc;
  });
}

// ---- packed arrays ---------------------------------------------------------------------------

namespace {

// In place: the children are packed where they are, and a packable array is replaced by its
// packed form. Nothing is copied but the packed spans (the fuzz binary decodes a document
// and packs it on every input: a deep copy per level cost more than the encoders it feeds).
void PackValue(Value& v);

void PackChildren(std::vector<Element>& els) {
  for (Element& e : els) PackValue(e.value);
}

void PackValue(Value& v) {
  if (v.type == Type::kArray && !v.children.empty() && !sb::IsPacked(v)) {
    const Type t = v.children[0].value.type;
    const bool packable =
        (t == Type::kInt32 || t == Type::kInt64 || t == Type::kDouble || t == Type::kBool) &&
        std::all_of(v.children.begin(), v.children.end(),
                    [t](const Element& e) { return e.value.type == t; });
    if (packable) {
      const size_t n = v.children.size();
      if (t == Type::kDouble) {
        std::vector<double> d(n);
        for (size_t i = 0; i < n; ++i) d[i] = v.children[i].value.d;
        v = sb::PackedDouble(d);
      } else if (t == Type::kInt64) {
        std::vector<int64_t> x(n);
        for (size_t i = 0; i < n; ++i) x[i] = v.children[i].value.i;
        v = sb::PackedInt64(x);
      } else if (t == Type::kInt32) {
        std::vector<int32_t> x(n);
        for (size_t i = 0; i < n; ++i) x[i] = static_cast<int32_t>(v.children[i].value.i);
        v = sb::PackedInt32(x);
      } else {
        std::vector<uint8_t> b(n);
        for (size_t i = 0; i < n; ++i) b[i] = static_cast<uint8_t>(v.children[i].value.i);
        v = sb::PackedBool(b);
      }
      return;
    }
  }
  PackChildren(v.children);
}

// A homogeneous array of one packable type, children form (PackArrays packs it).
rc::Gen<Value> GenHomogeneousArray() {
  return rc::gen::exec([] {
    const Type t = *rc::gen::element(Type::kInt32, Type::kInt64, Type::kDouble, Type::kBool);
    const uint32_t n = *rc::gen::weightedOneOf<uint32_t>(
        {{3, rc::gen::element<uint32_t>(1, 9, 10, 11, 99, 100, 101, 1000, 1001)},
         {2, rc::gen::inRange<uint32_t>(1, 3000)}});
    std::vector<Value> items;
    items.reserve(n);
    for (uint32_t i = 0; i < n; ++i) {
      switch (t) {
        case Type::kInt32:
          items.push_back(sb::Int32(*rc::gen::weightedOneOf<int32_t>(
              {{1, rc::gen::element(std::numeric_limits<int32_t>::min(),
                                    std::numeric_limits<int32_t>::max(), 0, -1, 1)},
               {3, rc::gen::arbitrary<int32_t>()}})));
          break;
        case Type::kInt64:
          items.push_back(sb::Int64(*GenInt64()));
          break;
        case Type::kDouble:
          items.push_back(sb::Double(*rc::gen::weightedOneOf<double>(
              {{1, rc::gen::element(0.0, -0.0, std::numeric_limits<double>::quiet_NaN(),
                                    std::numeric_limits<double>::infinity(),
                                    -std::numeric_limits<double>::infinity(),
                                    std::numeric_limits<double>::denorm_min(),
                                    std::numeric_limits<double>::max())},
               {3, rc::gen::map(rc::gen::arbitrary<uint64_t>(),
                                [](uint64_t b) { return std::bit_cast<double>(b); })}})));
          break;
        default: {
          Value b = sb::OfType(Type::kBool);
          b.i = *rc::gen::weightedOneOf<int64_t>(
              {{20, rc::gen::element<int64_t>(0, 1)}, {1, rc::gen::just<int64_t>(2)}});
          items.push_back(std::move(b));
        }
      }
    }
    return sb::Array(std::move(items));
  });
}

// Documents with one to three homogeneous arrays beside generic elements, some nested one or
// two levels down (in a document or an array).
rc::Gen<Document> GenPackedDocument() {
  return rc::gen::exec([] {
    Document doc;
    if (*harness::UniformIn(0, 3) == 0) doc.elements = *GenElements(1, false, 8);
    const int arrays = *harness::UniformIn(1, 4);
    for (int a = 0; a < arrays; ++a) {
      Value v = *GenHomogeneousArray();
      const int wrap = *rc::gen::weightedOneOf<int>(
          {{3, rc::gen::just(0)}, {1, rc::gen::just(1)}, {1, rc::gen::just(2)}});
      for (int w = 0; w < wrap; ++w) {
        Value outer = sb::OfType(w % 2 == 0 ? Type::kDocument : Type::kArray);
        outer.children.push_back(Element{w % 2 == 0 ? "in" : "", std::move(v)});
        v = std::move(outer);
      }
      const size_t at = *harness::UniformIn<size_t>(0, doc.elements.size() + 1);
      doc.elements.insert(doc.elements.begin() + static_cast<ptrdiff_t>(at),
                          Element{*GenText(kMaxKey), std::move(v)});
    }
    return doc;
  });
}

}  // namespace

Document PackArrays(Document doc) {
  PackChildren(doc.elements);
  return doc;
}

harness::Domain<Document> PackedDocumentDomain() {
  harness::Domain<Document> d = DocumentDomain();
  d.type_name = "bson document, homogeneous arrays packed";
  d.gen = rc::gen::map(GenPackedDocument(), [](const Document& doc) { return PackArrays(doc); });
  auto decode = std::move(d.decode);
  d.decode = [decode](FuzzedDataProvider& p) { return PackArrays(decode(p)); };
  auto encode = std::move(d.encode);
  d.encode = [encode](const Document& doc, harness::FuzzInputWriter& w) {
    encode(sb::Unpack(doc), w);
  };
  auto parse = std::move(d.parse);
  d.parse = [parse](std::string_view text) -> absl::StatusOr<Document> {
    absl::StatusOr<Document> doc = parse(text);
    if (!doc.ok()) return doc.status();
    return PackArrays(*doc);  // an array written unpacked is read as the domain holds it
  };
  return d;
}

rc::Gen<std::string> GenDecoderInput() {
  return rc::gen::exec([] {
    const int kind = *harness::UniformIn(0, 12);
    if (kind == 0) {
      std::string raw = *rc::gen::container<std::string>(rc::gen::arbitrary<char>());
      return raw;
    }
    Document doc = *GenDocument();
    absl::StatusOr<std::string> enc = sb::Encode(doc);
    std::string bytes = enc.ok() ? *enc : std::string("\x05\0\0\0\0", 5);
    if (kind <= 3 || bytes.empty()) return bytes;  // well-formed
    const size_t at = *harness::UniformIn<size_t>(0, bytes.size());
    switch (kind) {
      case 4:  // a length: add a small delta to the int32 at `at`
        if (at + 4 <= bytes.size()) {
          // Wrapping (two's complement) addition: a length near INT32_MAX plus a delta must not
          // overflow a signed int.
          uint32_t len;
          std::memcpy(&len, bytes.data() + at, 4);
          len += static_cast<uint32_t>(*rc::gen::element(-5, -1, 1, 4, 0x7FFFFFFF));
          std::memcpy(bytes.data() + at, &len, 4);
        }
        break;
      case 5:
        bytes[bytes.size() - 1] = *rc::gen::element('\x01', '\xFF');
        break;  // terminator
      case 6:
        bytes[at] = *rc::gen::element('\0', '\x08', '\x14', '\x7E', '\x80');
        break;
      case 7:
        bytes.resize(at);
        break;  // cut
      case 8:
        bytes.insert(at, 1, '\0');
        break;  // one byte more
      case 9:
        bytes[at] = static_cast<char>(*rc::gen::arbitrary<uint8_t>());
        break;
      case 10:
        bytes[at] = *rc::gen::element('\xC3', '\xE9', '\xED', '\xF5');
        break;    // UTF-8
      default: {  // top-level length 2^31-1
        const int32_t len = 0x7FFFFFFF;
        if (bytes.size() >= 4) std::memcpy(bytes.data(), &len, 4);
      }
    }
    return bytes;
  });
}

}  // namespace serdiff::targets::bson
