// The encoders that return a std::string write its bytes once, without a zero fill first
// (serdiff/common/fill_string.h; docs/benchmarks.md counts on it). A claim about the shipped
// build, checked in the shipped build's objects: this binary replaces operator new with one that
// fills every block with 0xA5, and FillString's test seam looks at the output's bytes between
// the allocation and the write. A zero fill (resize() instead of resize_and_overwrite, or the
// encoders' files no longer compiled as C++2b) shows as zeros there.
//
// Its own executable: serdiff_unit_tests links the allocation tracker, which replaces operator
// new itself.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "serdiff/bson/codec.h"
#include "serdiff/bson/document.h"
#include "serdiff/common/fill_string.h"
#include "serdiff/cql/codec.h"
#include "serdiff/cql/typed.h"
#include "serdiff/cql/value.h"
#include "serdiff/varint/varint.h"

namespace {

constexpr uint8_t kPoison = 0xA5;

void* PoisonedAlloc(size_t n) {
  void* p = std::malloc(n == 0 ? 1 : n);
  if (p == nullptr) throw std::bad_alloc();
  std::memset(p, kPoison, n);
  return p;
}

}  // namespace

void* operator new(size_t n) { return PoisonedAlloc(n); }
void* operator new[](size_t n) { return PoisonedAlloc(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }

namespace {

// What the seam saw: calls, and how many of the output's bytes were not the poison byte.
struct Seen {
  int calls = 0;
  size_t size = 0;
  size_t written_before = 0;
};
Seen seen;

void Observe(const uint8_t* data, size_t size) {
  ++seen.calls;
  seen.size = size;
  seen.written_before = 0;
  for (size_t i = 0; i < size; ++i) seen.written_before += data[i] != kPoison;
}

class OutputWrittenOnce : public ::testing::Test {
 protected:
  void SetUp() override {
    seen = Seen{};
    serdiff::internal::fill_observer = &Observe;
  }
  void TearDown() override { serdiff::internal::fill_observer = nullptr; }

  // One output of `size` bytes, none of them written before the encoder's own write.
  static void ExpectWrittenOnce(size_t size) {
    EXPECT_EQ(seen.calls, 1);
    EXPECT_EQ(seen.size, size);
    EXPECT_EQ(seen.written_before, 0u) << "bytes written before the encoder's write (a zero fill)";
  }
};

// The poisoning allocator is what makes the check able to fail: a std::string resized here holds
// zeros, not poison (the fallback path of FillString).
TEST_F(OutputWrittenOnce, AResizedStringIsZeroFilledHere) {
  std::string s;
  s.resize(4096);
  size_t zeros = 0;
  for (char c : s) zeros += c == 0;
  EXPECT_EQ(zeros, 4096u);
  std::string t;
  t.reserve(4096);
  EXPECT_EQ(static_cast<uint8_t>(t.data()[100]), kPoison);
}

TEST_F(OutputWrittenOnce, CqlTypedList) {  // typed.cc
  std::vector<int32_t> values(1000, 7);
  serdiff::cql::ColumnView<int32_t> col{values, {}};
  absl::StatusOr<std::string> out =
      serdiff::cql::SerializeFixedList(serdiff::cql::Kind::kInt, col, 4);
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->size(), 4u + 1000u * 8u);
  EXPECT_EQ(out->substr(0, 12),
            std::string("\x00\x00\x03\xe8\x00\x00\x00\x04\x00\x00\x00\x07", 12));
  ExpectWrittenOnce(out->size());
}

TEST_F(OutputWrittenOnce, CqlValueTree) {  // codec_write.cc
  serdiff::cql::Type t;
  ASSERT_TRUE(serdiff::cql::ParseType("list<int>", &t).ok());
  std::vector<serdiff::cql::Value> elems;
  for (int i = 0; i < 1000; ++i) elems.push_back(serdiff::cql::Value::Int(i));
  absl::StatusOr<std::string> out =
      serdiff::cql::Serialize(t, serdiff::cql::Value::List(std::move(elems)), 4);
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->size(), 4u + 1000u * 8u);
  EXPECT_EQ(out->substr(out->size() - 8), std::string("\x00\x00\x00\x04\x00\x00\x03\xe7", 8));
  ExpectWrittenOnce(out->size());
}

// Past the one-pass route (32 KiB: 4,095 ints) the size pass and the write pass run; the
// list<text> takes them at any length.
TEST_F(OutputWrittenOnce, CqlValueTreeTwoPasses) {  // codec_write.cc
  for (const char* type : {"list<int>", "list<text>"}) {
    serdiff::cql::Type t;
    ASSERT_TRUE(serdiff::cql::ParseType(type, &t).ok());
    const bool text = type[5] == 't';
    std::vector<serdiff::cql::Value> elems;
    for (int i = 0; i < 5000; ++i) {
      elems.push_back(text ? serdiff::cql::Value::Text("abcd") : serdiff::cql::Value::Int(i));
    }
    seen = Seen{};
    absl::StatusOr<std::string> out =
        serdiff::cql::Serialize(t, serdiff::cql::Value::List(std::move(elems)), 4);
    ASSERT_TRUE(out.ok()) << out.status();
    ASSERT_EQ(out->size(), 4u + 5000u * 8u) << type;
    EXPECT_EQ(out->substr(out->size() - 8),
              text ? std::string("\x00\x00\x00\x04"
                                 "abcd",
                                 8)
                   : std::string("\x00\x00\x00\x04\x00\x00\x13\x87", 8))
        << type;
    ExpectWrittenOnce(out->size());
  }
}

// SerializeValue ([int] length, then the payload) by both routes: a list<int> of 1,000 (one
// pass) and of 5,000 (two passes).
TEST_F(OutputWrittenOnce, CqlValueTreeFramed) {  // codec_write.cc
  serdiff::cql::Type t;
  ASSERT_TRUE(serdiff::cql::ParseType("list<int>", &t).ok());
  for (const int n : {1000, 5000}) {
    std::vector<serdiff::cql::Value> elems;
    for (int i = 0; i < n; ++i) elems.push_back(serdiff::cql::Value::Int(i));
    seen = Seen{};
    absl::StatusOr<std::string> out =
        serdiff::cql::SerializeValue(t, serdiff::cql::Value::List(std::move(elems)), 4);
    ASSERT_TRUE(out.ok()) << out.status();
    const size_t payload = 4u + 8u * static_cast<size_t>(n);
    ASSERT_EQ(out->size(), 4u + payload) << n;
    const std::string head = {0, static_cast<char>(payload >> 16), static_cast<char>(payload >> 8),
                              static_cast<char>(payload)};
    EXPECT_EQ(out->substr(0, 4), head) << n;
    ExpectWrittenOnce(out->size());
  }
}

TEST_F(OutputWrittenOnce, VarintBatch) {  // varint/varint.cc
  // 1,000 values of 10 LEB128 bytes each (2^63 and up), then 300 (ac 02).
  std::vector<uint64_t> values(1000, ~uint64_t{0});
  values.push_back(300);
  const std::string out = serdiff::varint::EncodeBatch(serdiff::varint::Format::kLeb128, values);
  ASSERT_EQ(out.size(), 1000u * 10u + 2u);
  EXPECT_EQ(out.substr(0, 10), std::string(9, '\xff') + "\x01");
  EXPECT_EQ(out.substr(out.size() - 2), "\xac\x02");
  ExpectWrittenOnce(out.size());
}

TEST_F(OutputWrittenOnce, VarintZigZagBatch) {  // varint/varint.cc
  std::vector<int64_t> values(2000, -1);        // zigzag 1: one byte each
  const std::string out =
      serdiff::varint::EncodeZigZagBatch(serdiff::varint::Format::kVInt, values);
  EXPECT_EQ(out, std::string(2000, '\x01'));
  ExpectWrittenOnce(out.size());
}

TEST_F(OutputWrittenOnce, BsonEncode) {  // bson/codec.cc
  serdiff::bson::Document doc;
  doc.elements.push_back(
      serdiff::bson::Element{"s", serdiff::bson::String(std::string(3000, 'x'))});
  absl::StatusOr<std::string> out = serdiff::bson::Encode(doc);
  ASSERT_TRUE(out.ok()) << out.status();
  // int32 total, 0x02 "s\0", int32 3001, 3000 x 'x', 0x00, 0x00.
  ASSERT_EQ(out->size(), 4u + 3u + 4u + 3001u + 1u);
  EXPECT_EQ(out->substr(0, 11), std::string("\xc5\x0b\x00\x00\x02s\x00\xb9\x0b\x00\x00", 11));
  ExpectWrittenOnce(out->size());
}

}  // namespace
