// One-off corpus conversion for the bson_encode and bson_array_keys corpus byte forms.
//
// The two domains now let an input's length bound its work (targets/bson_domain.h): a
// document's element counts are cut to the bytes left, and the array-key count to 16 per byte
// left, with padding written after it. A file written by the old writer still decodes to the
// same document (every element took a byte already), but an input found by the fuzzer may
// announce more elements than it has bytes, and every old bson_array_keys file (3 bytes)
// would now decode to n = 0. This program reads every file of corpus/<target>/ (regressions
// included) with a copy of the OLD decoder, writes the value with the NEW domain encoder, and
// when the bytes differ stores the new file under the SHA-1 of its bytes and removes the old
// one. CorpusPrintedValuesUnchanged then shows that each file still means the same value.
//
// Built by hand against a dev build (it is not part of the CMake build), from the root:
//   g++ -std=c++20 -O1 -I. -Isrc -I/usr/lib/llvm-14/lib/clang/14.0.6/include/fuzzer
//     tools/bson_corpus_convert.cc targets/bson_domain.cc
//     build/dev/harness/libserdiff_harness.a build/dev/src/serdiff/bson/libserdiff_bson.a
//     build/dev/src/serdiff/bson/libserdiff_bson_model.a
//     build/dev/src/serdiff/timestamp/libserdiff_timestamp.a -lrapidcheck -lcrypto
//     $(ls /usr/lib/x86_64-linux-gnu/libabsl_*.so | sed 's|.*/lib\(.*\)\.so|-l\1|')
//     -o /tmp/bson_corpus_convert
//   /tmp/bson_corpus_convert corpus
#include <FuzzedDataProvider.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "harness/corpus.h"
#include "harness/fuzz_input.h"
#include "serdiff/bson/document.h"
#include "targets/bson_domain.h"

namespace {

namespace sb = serdiff::bson;
using sb::Document;
using sb::Element;
using sb::Type;
using sb::Value;
using serdiff::targets::bson::kMaxDomainDepth;
using serdiff::targets::bson::kMaxElements;
using serdiff::targets::bson::kMaxTotalElements;

// ---- the OLD decoders (targets/bson_domain.cc and targets/bson.cc before the change) ----

constexpr size_t kMaxKey = 24;
constexpr size_t kMaxString = 48;

struct Reader {
  FuzzedDataProvider& p;
  uint32_t budget = kMaxTotalElements;

  void Elements(std::vector<Element>* out, bool is_array, int depth) {
    const uint32_t cap = depth > kMaxDomainDepth ? 0 : std::min(kMaxElements, budget);
    const uint32_t n = p.ConsumeIntegralInRange<uint32_t>(0, cap);
    budget -= n;
    out->reserve(std::min<size_t>(n, p.remaining_bytes() + 1));
    for (uint32_t i = 0; i < n; ++i) {
      Element e;
      const uint8_t t = p.ConsumeIntegralInRange<uint8_t>(0, 20);
      if (!is_array) e.key = p.ConsumeRandomLengthString(kMaxKey);
      e.value = Payload(sb::kAllTypes[t], depth);
      out->push_back(std::move(e));
    }
  }

  Value Payload(Type t, int depth) {
    Value v = sb::OfType(t);
    switch (t) {
      case Type::kDouble: {
        const uint64_t bits = p.ConsumeIntegral<uint64_t>();
        std::memcpy(&v.d, &bits, 8);
        break;
      }
      case Type::kString:
      case Type::kCode:
      case Type::kSymbol:
        v.s = p.ConsumeRandomLengthString(kMaxString);
        break;
      case Type::kDocument:
      case Type::kArray:
        Elements(&v.children, t == Type::kArray, depth + 1);
        break;
      case Type::kBinary:
        v.subtype = p.ConsumeIntegral<uint8_t>();
        v.s = p.ConsumeRandomLengthString(kMaxString);
        break;
      case Type::kObjectId:
        v.s = p.ConsumeBytesAsString(12);
        break;
      case Type::kDecimal128:
        v.s = p.ConsumeBytesAsString(16);
        break;
      case Type::kBool:
        v.i = p.ConsumeIntegralInRange<uint8_t>(0, 2);
        break;
      case Type::kDateTime:
        if (p.ConsumeBool()) {
          serdiff::timestamp::CivilDateTime c;
          c.year = p.ConsumeIntegralInRange<int32_t>(0, 10000);
          c.month = p.ConsumeIntegralInRange<int32_t>(0, 13);
          c.day = p.ConsumeIntegralInRange<int32_t>(0, 32);
          c.hour = p.ConsumeIntegralInRange<int32_t>(0, 24);
          c.minute = p.ConsumeIntegralInRange<int32_t>(0, 60);
          c.second = p.ConsumeIntegralInRange<int32_t>(0, 60);
          c.microsecond = p.ConsumeIntegralInRange<int32_t>(0, 1000000);
          v.civil = c;
        } else {
          v.i = p.ConsumeIntegral<int64_t>();
        }
        break;
      case Type::kRegex:
        v.s = p.ConsumeRandomLengthString(kMaxKey);
        v.s2 = p.ConsumeRandomLengthString(kMaxKey);
        break;
      case Type::kDbPointer:
        v.s = p.ConsumeRandomLengthString(kMaxKey);
        v.s2 = p.ConsumeBytesAsString(12);
        break;
      case Type::kCodeWithScope:
        v.s = p.ConsumeRandomLengthString(kMaxString);
        Elements(&v.children, false, depth + 1);
        break;
      case Type::kInt32:
        v.i = p.ConsumeIntegral<int32_t>();
        break;
      case Type::kTimestamp:
      case Type::kInt64:
        v.i = p.ConsumeIntegral<int64_t>();
        break;
      default:
        break;
    }
    return v;
  }
};

Document OldDecodeDocument(FuzzedDataProvider& p) {
  Reader r{p};
  Document doc;
  r.Elements(&doc.elements, false, 1);
  return doc;
}

uint32_t OldDecodeKeyCount(FuzzedDataProvider& p) {
  return p.ConsumeIntegralInRange<uint32_t>(0, 200000);
}

// ---- conversion ----

template <typename T, typename OldDecode>
int Convert(const std::string& dir, const serdiff::harness::Domain<T>& domain,
            OldDecode old_decode) {
  int changed = 0;
  for (const std::string& path : serdiff::harness::ListCorpusFiles(dir)) {
    auto bytes = serdiff::harness::ReadFileBytes(path);
    if (!bytes.ok()) {
      std::cerr << path << ": " << bytes.status() << "\n";
      return -1;
    }
    FuzzedDataProvider p(reinterpret_cast<const uint8_t*>(bytes->data()), bytes->size());
    const T value = old_decode(p);
    serdiff::harness::FuzzInputWriter w;
    domain.encode(value, w);
    const std::string fresh = w.Finish();
    if (fresh == *bytes) continue;
    const std::string parent = std::filesystem::path(path).parent_path().string();
    auto written = serdiff::harness::WriteCorpusFile(parent, fresh);
    if (!written.ok()) {
      std::cerr << path << ": " << written.status() << "\n";
      return -1;
    }
    std::filesystem::remove(path);
    std::cout << path << " -> " << *written << " (" << bytes->size() << " -> " << fresh.size()
              << " bytes)\n";
    ++changed;
  }
  return changed;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: bson_corpus_convert <corpus dir>\n";
    return 2;
  }
  const std::string root = argv[1];
  namespace tb = serdiff::targets::bson;
  const int docs = Convert(root + "/bson_encode", tb::DocumentDomain(), OldDecodeDocument);
  const int keys = Convert(root + "/bson_array_keys", tb::ArrayKeyCountDomain(), OldDecodeKeyCount);
  if (docs < 0 || keys < 0) return 1;
  std::cout << "bson_encode: " << docs << " files rewritten; bson_array_keys: " << keys << "\n";
  return 0;
}
