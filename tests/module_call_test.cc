// harness/module_call.cc: what a module's operation answers, as serdiff collects it. The ops
// here are plain functions in this binary behind the module ABI (harness/serdiff_module.h), so
// no shared library is needed: outputs appended in pieces that cross the string's inline
// capacity and its growth, an empty output, each return code with its message and offset, and
// the peak heap the verdict charges to the call.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "harness/external.h"
#include "harness/result.h"
#include "serdiff/common/error_offset.h"

namespace serdiff::harness {
namespace {

// Appends `text` through the module ABI, `piece` bytes per append (the last piece shorter).
bool AppendInPieces(serdiff_out* out, const std::string& text, size_t piece) {
  for (size_t at = 0; at < text.size(); at += piece) {
    const size_t n = std::min(piece, text.size() - at);
    unsigned char* p = out->append(out->ctx, n);
    if (p == nullptr) return false;
    std::memcpy(p, text.data() + at, n);
  }
  return true;
}

// The expected output of an op called with `value`: 0..value-1 as letters, so every byte says
// where it belongs.
std::string Letters(int64_t count) {
  std::string s;
  for (int64_t i = 0; i < count; ++i) s.push_back(static_cast<char>('a' + i % 26));
  return s;
}

int PiecesOfThree(int64_t count, serdiff_out* out) {
  return AppendInPieces(out, Letters(count), 3) ? SERDIFF_OK : SERDIFF_REJECTED;
}
int OnePiece(int64_t count, serdiff_out* out) {
  return AppendInPieces(out, Letters(count), count > 0 ? static_cast<size_t>(count) : 1)
             ? SERDIFF_OK
             : SERDIFF_REJECTED;
}
int RejectAt(int64_t offset, serdiff_out* out) {
  AppendInPieces(out, "partial", 7);  // appended bytes of a rejection are not an output
  out->error(out->ctx, offset, "no such value");
  return SERDIFF_REJECTED;
}
int DeclineIt(int64_t, serdiff_out* out) {
  out->error(out->ctx, -1, "a type it lacks");
  return SERDIFF_DECLINED;
}
int ReturnsSeven(int64_t, serdiff_out*) { return 7; }

// Asks for 3 bytes, then for `count` more: reports whether the second append gave NULL (the
// ABI's "out of memory"), as its output's one byte.
int AskTooMuch(int64_t count, serdiff_out* out) {
  unsigned char* first = out->append(out->ctx, 3);
  if (first == nullptr) return SERDIFF_REJECTED;
  std::memcpy(first, "abc", 3);
  const bool refused = out->append(out->ctx, static_cast<size_t>(count)) == nullptr;
  out->error(out->ctx, -1, refused ? "refused" : "granted");
  return SERDIFF_DECLINED;
}

serdiff_op Int64Op(serdiff_int64_fn fn) {
  return serdiff_op{"int64.to_decimal", SERDIFF_FORM_INT64, nullptr, nullptr, fn, nullptr, nullptr};
}

TEST(ModuleCall, OutputsAppendedInPiecesArriveWholeAndInOrder) {
  // 15 fits a string's inline buffer; 16 is the first byte past it; the others cross several
  // growths of the heap buffer.
  for (int64_t n : {0, 1, 2, 3, 4, 14, 15, 16, 17, 31, 32, 33, 100, 1000, 100000}) {
    for (serdiff_int64_fn fn : {PiecesOfThree, OnePiece}) {
      const absl::StatusOr<std::string> out = CallModuleOp(Int64Op(fn), n, {}, nullptr);
      ASSERT_TRUE(out.ok()) << n << ": " << out.status();
      EXPECT_EQ(*out, Letters(n)) << n;
    }
  }
}

TEST(ModuleCall, ReturnCodesKeepTheirMessageAndOffset) {
  const absl::StatusOr<std::string> rejected = CallModuleOp(Int64Op(RejectAt), 12, {}, nullptr);
  ASSERT_FALSE(rejected.ok());
  EXPECT_FALSE(IsDeclined(rejected.status()));
  EXPECT_EQ(rejected.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ErrorOffset(rejected.status()), 12);
  EXPECT_NE(rejected.status().message().find("no such value"), std::string::npos)
      << rejected.status();

  const absl::StatusOr<std::string> no_offset = CallModuleOp(Int64Op(RejectAt), -1, {}, nullptr);
  ASSERT_FALSE(no_offset.ok());
  EXPECT_EQ(ErrorOffset(no_offset.status()), std::nullopt);

  const absl::StatusOr<std::string> declined = CallModuleOp(Int64Op(DeclineIt), 0, {}, nullptr);
  ASSERT_FALSE(declined.ok());
  EXPECT_TRUE(IsDeclined(declined.status())) << declined.status();
  EXPECT_NE(declined.status().message().find("a type it lacks"), std::string::npos);

  // Any other return value is a rejection.
  const absl::StatusOr<std::string> other = CallModuleOp(Int64Op(ReturnsSeven), 0, {}, nullptr);
  ASSERT_FALSE(other.ok());
  EXPECT_FALSE(IsDeclined(other.status()));
}

// A request that would wrap the output's length (3 + SIZE_MAX) or pass what a string can hold
// gets NULL, never room smaller than asked for.
TEST(ModuleCall, AnAppendPastWhatAStringHoldsGetsNull) {
  // Every request here is refused by the length check itself, before any allocation is tried
  // (AddressSanitizer aborts on an allocation it cannot make instead of throwing bad_alloc).
  const int64_t past_max = static_cast<int64_t>(std::string().max_size() - 2);  // 3 + it > max
  for (int64_t n : {int64_t{-1}, int64_t{-3}, int64_t{-4}, INT64_MAX, past_max}) {
    const absl::StatusOr<std::string> out = CallModuleOp(Int64Op(AskTooMuch), n, {}, nullptr);
    ASSERT_FALSE(out.ok());
    EXPECT_NE(out.status().message().find("refused"), std::string::npos)
        << static_cast<uint64_t>(n) << ": " << out.status();
  }
  const absl::StatusOr<std::string> small = CallModuleOp(Int64Op(AskTooMuch), 5, {}, nullptr);
  ASSERT_FALSE(small.ok());
  EXPECT_NE(small.status().message().find("granted"), std::string::npos) << small.status();
}

TEST(ModuleCall, MeasuredCallChargesTheOutputToThePeak) {
  // 100,000 bytes appended 3 at a time: the op's own copy of its text (100,001 bytes, see
  // PiecesOfThree) and the output string's growth are both the module call's heap.
  const MeasuredOutput big = MeasuredModuleCall(Int64Op(PiecesOfThree), 100000, {}, nullptr);
  ASSERT_TRUE(big.output.ok()) << big.output.status();
  EXPECT_EQ(big.output->size(), 100000u);
  EXPECT_GE(big.peak_bytes, 2 * 100000);
  // A growth policy that doubles holds the old and the new buffer at once: with the op's own
  // text, never more than 4 x the output.
  EXPECT_LE(big.peak_bytes, 4 * 100000);
  // Fifteen bytes live in the string itself: no heap at all.
  const MeasuredOutput small = MeasuredModuleCall(Int64Op(OnePiece), 15, {}, nullptr);
  ASSERT_TRUE(small.output.ok());
  EXPECT_EQ(*small.output, Letters(15));
  EXPECT_EQ(small.peak_bytes, 0);
}

}  // namespace
}  // namespace serdiff::harness
