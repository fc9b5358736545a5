// harness/module_call.cc: what a module's operation answers, as serdiff collects it. The ops
// here are plain functions in this binary behind the module ABI (harness/serdiff_module.h), so
// no shared library is needed: outputs appended in pieces that cross the string's inline
// capacity and its growth, an empty output, each return code with its message and offset, and
// the peak heap the verdict charges to the call; ABI 2's room given up front (alone, followed by
// appended bytes, overclaimed); and the loader's ABI versions (four small .so files).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "harness/alloc_tracker.h"
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

// ABI 2's room: the op writes Letters(count) into the room when it fits and appends the rest in
// pieces of 5. It first checks what serdiff promised before the call (a room of at least
// SERDIFF_OUT_ROOM_MIN bytes, room_used 0) and rejects with the broken promise otherwise.
int RoomThenAppend(int64_t count, serdiff_out* out) {
  if (out->room == nullptr || out->room_size < SERDIFF_OUT_ROOM_MIN || out->room_used != 0) {
    out->error(out->ctx, -1, "the room was not as promised");
    return SERDIFF_REJECTED;
  }
  const std::string text = Letters(count);
  const size_t in_room = std::min(text.size(), out->room_size);
  std::memcpy(out->room, text.data(), in_room);
  out->room_used = in_room;
  return AppendInPieces(out, text.substr(in_room), 5) ? SERDIFF_OK : SERDIFF_REJECTED;
}
// Writes `count` bytes of the room's worth (at most room_size), and appends "XYZ" after them.
int SomeRoomThenXyz(int64_t count, serdiff_out* out) {
  const size_t n = std::min(static_cast<size_t>(count), out->room_size);
  std::memcpy(out->room, Letters(static_cast<int64_t>(n)).data(), n);
  out->room_used = n;
  return AppendInPieces(out, "XYZ", 3) ? SERDIFF_OK : SERDIFF_REJECTED;
}
// Letters(count) written straight into the room (count <= room_size): no allocation of its own.
int RoomLetters(int64_t count, serdiff_out* out) {
  if (count < 0 || static_cast<size_t>(count) > out->room_size) return SERDIFF_DECLINED;
  for (int64_t i = 0; i < count; ++i) out->room[i] = static_cast<unsigned char>('a' + i % 26);
  out->room_used = static_cast<size_t>(count);
  return SERDIFF_OK;
}
// Claims room_size + `past` bytes of the room, then returns `rc`.
template <int rc>
int ClaimsPastTheRoom(int64_t past, serdiff_out* out) {
  std::memset(out->room, 'r', out->room_size);
  out->room_used = out->room_size + static_cast<size_t>(past);
  return rc;
}
// Claims one byte past the room, then appends: the append is refused (the room's claim is
// already broken) and the op returns what the ABI says after a NULL, a rejection.
int ClaimsPastTheRoomThenAppends(int64_t, serdiff_out* out) {
  out->room_used = out->room_size + 1;
  return out->append(out->ctx, 3) == nullptr ? SERDIFF_REJECTED : SERDIFF_OK;
}
// Claims one byte past the room, appends (refused), then lowers its claim to 3 bytes and returns
// `rc` anyway: the breach at the append must still be reported, whatever follows it.
template <int rc>
int ClaimsPastTheRoomAppendsThenLowers(int64_t, serdiff_out* out) {
  out->room_used = out->room_size + 1;
  const bool refused = out->append(out->ctx, 3) == nullptr;
  std::memcpy(out->room, "abc", 3);
  out->room_used = 3;
  return refused ? rc : SERDIFF_DECLINED;
}
// Writes 4 bytes into the room, appends 3, then claims `count` bytes of the room.
int ClaimsAfterAppending(int64_t count, serdiff_out* out) {
  std::memcpy(out->room, "abcd", 4);
  out->room_used = 4;
  if (!AppendInPieces(out, "XYZ", 3)) return SERDIFF_REJECTED;
  out->room_used = static_cast<size_t>(count);
  return SERDIFF_OK;
}
// 100 letters in the room, then `count` bytes appended in one piece.
int HundredInRoomThenOneAppend(int64_t count, serdiff_out* out) {
  for (int i = 0; i < 100; ++i) out->room[i] = static_cast<unsigned char>('a' + i % 26);
  out->room_used = 100;
  unsigned char* p = out->append(out->ctx, static_cast<size_t>(count));
  if (p == nullptr) return SERDIFF_REJECTED;
  std::memset(p, 'z', static_cast<size_t>(count));
  return SERDIFF_OK;
}
// Writes into the room, then rejects or declines: the room's bytes are not an output.
int RoomThenReject(int64_t, serdiff_out* out) {
  std::memcpy(out->room, "partial", 7);
  out->room_used = 7;
  out->error(out->ctx, 3, "bad digit");
  return SERDIFF_REJECTED;
}
int RoomThenDecline(int64_t, serdiff_out* out) {
  std::memcpy(out->room, "partial", 7);
  out->room_used = 7;
  out->error(out->ctx, -1, "not this one");
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

  // Offset 0 (the first byte) is an offset like any other.
  const absl::StatusOr<std::string> at_zero = CallModuleOp(Int64Op(RejectAt), 0, {}, nullptr);
  ASSERT_FALSE(at_zero.ok());
  EXPECT_EQ(ErrorOffset(at_zero.status()), 0);

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

TEST(ModuleCall, OutputsInTheRoomArriveWholeAndAppendedBytesFollowThem) {
  // The room's size (256) and SERDIFF_OUT_ROOM_MIN (64) are crossed on both sides; 15/16 cross
  // the string's inline buffer.
  for (int64_t n : {0, 1, 15, 16, 20, 63, 64, 65, 255, 256, 257, 261, 1000, 100000}) {
    const absl::StatusOr<std::string> out = CallModuleOp(Int64Op(RoomThenAppend), n, {}, nullptr);
    ASSERT_TRUE(out.ok()) << n << ": " << out.status();
    EXPECT_EQ(*out, Letters(n)) << n;
  }
  // Room bytes first, then the appended ones, whatever the room holds (none of it included).
  for (int64_t n : {0, 1, 16, 64, 256, 300}) {
    const absl::StatusOr<std::string> out = CallModuleOp(Int64Op(SomeRoomThenXyz), n, {}, nullptr);
    ASSERT_TRUE(out.ok()) << n << ": " << out.status();
    EXPECT_EQ(*out, Letters(std::min<int64_t>(n, 256)) + "XYZ") << n;
  }
}

// A module that breaks the room's rules is a module-protocol failure (a verdict of its own,
// reported before every other rule), whatever it returned: as a rejection it could agree with
// serdiff's own and go unseen.
TEST(ModuleCall, ARoomUsedPastTheRoomIsAModuleProtocolFailure) {
  for (int64_t past : {int64_t{1}, int64_t{2}, int64_t{1} << 20, INT64_MAX}) {
    for (serdiff_int64_fn fn : {ClaimsPastTheRoom<SERDIFF_OK>, ClaimsPastTheRoom<SERDIFF_REJECTED>,
                                ClaimsPastTheRoom<SERDIFF_DECLINED>}) {
      const absl::StatusOr<std::string> out = CallModuleOp(Int64Op(fn), past, {}, nullptr);
      ASSERT_FALSE(out.ok()) << past;
      EXPECT_EQ(WorkerFailureClass(out.status()), "module-protocol")
          << past << ": " << out.status();
      EXPECT_NE(out.status().message().find("room_used"), std::string::npos) << out.status();
    }
  }
  const absl::StatusOr<std::string> appended =
      CallModuleOp(Int64Op(ClaimsPastTheRoomThenAppends), 0, {}, nullptr);
  ASSERT_FALSE(appended.ok());
  EXPECT_EQ(WorkerFailureClass(appended.status()), "module-protocol") << appended.status();
  // The claim lowered after the refused append: still the breach at the first append.
  for (serdiff_int64_fn fn : {ClaimsPastTheRoomAppendsThenLowers<SERDIFF_OK>,
                              ClaimsPastTheRoomAppendsThenLowers<SERDIFF_REJECTED>}) {
    const absl::StatusOr<std::string> lowered = CallModuleOp(Int64Op(fn), 0, {}, nullptr);
    ASSERT_FALSE(lowered.ok());
    EXPECT_EQ(WorkerFailureClass(lowered.status()), "module-protocol") << lowered.status();
    EXPECT_NE(lowered.status().message().find("at the first append"), std::string::npos)
        << lowered.status();
  }
  // Exactly the room: accepted, every byte of it.
  const absl::StatusOr<std::string> full =
      CallModuleOp(Int64Op(ClaimsPastTheRoom<SERDIFF_OK>), 0, {}, nullptr);
  ASSERT_TRUE(full.ok()) << full.status();
  EXPECT_EQ(*full, std::string(256, 'r'));
}

// The first append commits room_used: a claim that changes after it is a module-protocol
// failure; the same claim is the output, room bytes first.
TEST(ModuleCall, ARoomUsedChangedAfterTheFirstAppendIsAModuleProtocolFailure) {
  const absl::StatusOr<std::string> same =
      CallModuleOp(Int64Op(ClaimsAfterAppending), 4, {}, nullptr);
  ASSERT_TRUE(same.ok()) << same.status();
  EXPECT_EQ(*same, "abcdXYZ");
  for (int64_t count : {0, 3, 5, 256}) {
    const absl::StatusOr<std::string> out =
        CallModuleOp(Int64Op(ClaimsAfterAppending), count, {}, nullptr);
    ASSERT_FALSE(out.ok()) << count;
    EXPECT_EQ(WorkerFailureClass(out.status()), "module-protocol") << count << ": " << out.status();
  }
}

TEST(ModuleCall, RoomBytesOfARejectionOrADeclineAreNoOutput) {
  const absl::StatusOr<std::string> rejected =
      CallModuleOp(Int64Op(RoomThenReject), 0, {}, nullptr);
  ASSERT_FALSE(rejected.ok());
  EXPECT_FALSE(IsDeclined(rejected.status()));
  EXPECT_EQ(ErrorOffset(rejected.status()), 3);
  EXPECT_NE(rejected.status().message().find("bad digit"), std::string::npos);
  const absl::StatusOr<std::string> declined =
      CallModuleOp(Int64Op(RoomThenDecline), 0, {}, nullptr);
  ASSERT_FALSE(declined.ok());
  EXPECT_TRUE(IsDeclined(declined.status())) << declined.status();
  EXPECT_NE(declined.status().message().find("not this one"), std::string::npos);
}

TEST(ModuleCall, AnOutputInTheRoomCostsWhatTheCompiledInStringCosts) {
  // The room is serdiff's stack: the call's peak is the output string alone, byte for byte what
  // a compiled-in implementation's std::string of the same length allocates.
  for (int64_t n : {0, 15, 16, 20, 64, 256}) {
    int64_t string_peak = 0;
    {
      PeakHeapScope scope;
      std::string s(static_cast<size_t>(n), 'a');  // one allocation, as a returned string makes
      string_peak = scope.PeakBytes();
      ASSERT_EQ(s.size(), static_cast<size_t>(n));
    }
    const MeasuredOutput m = MeasuredModuleCall(Int64Op(RoomLetters), n, {}, nullptr);
    ASSERT_TRUE(m.output.ok()) << m.output.status();
    EXPECT_EQ(*m.output, Letters(n));
    EXPECT_EQ(m.peak_bytes, string_peak) << n;
  }
}

// Room and append together: the room's bytes go into the appended output's own buffer, so the
// call's peak is that one buffer, what a compiled-in string of the same length allocates.
TEST(ModuleCall, RoomThenAppendCostsOneBufferOfTheOutput) {
  for (int64_t n : {int64_t{1}, int64_t{1000}, int64_t{100000}}) {
    int64_t string_peak = 0;
    {
      PeakHeapScope scope;
      std::string s(static_cast<size_t>(100 + n), 'a');
      string_peak = scope.PeakBytes();
      ASSERT_EQ(s.size(), static_cast<size_t>(100 + n));
    }
    const MeasuredOutput m =
        MeasuredModuleCall(Int64Op(HundredInRoomThenOneAppend), n, {}, nullptr);
    ASSERT_TRUE(m.output.ok()) << m.output.status();
    EXPECT_EQ(*m.output, Letters(100) + std::string(static_cast<size_t>(n), 'z'));
    EXPECT_EQ(m.peak_bytes, string_peak) << n;
  }
}

// LoadModule takes ABI versions 1 and 2 and refuses the others by name, before any call.
TEST(ModuleLoad, VersionsOneAndTwoLoadAndTheOthersAreRefused) {
  for (const char* path : {SERDIFF_TEST_MODULE_ABI1, SERDIFF_TEST_MODULE_ABI2}) {
    const absl::StatusOr<const serdiff_module*> m = LoadModule(path);
    ASSERT_TRUE(m.ok()) << path << ": " << m.status();
    ASSERT_EQ((*m)->op_count, 1u);
    const absl::StatusOr<std::string> out = CallModuleOp((*m)->ops[0], 0, {}, nullptr);
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ(*out, absl::StrCat("v", (*m)->abi_version)) << path;
  }
  for (const auto& [path, version] :
       {std::pair{SERDIFF_TEST_MODULE_ABI0, "0"}, std::pair{SERDIFF_TEST_MODULE_ABI3, "3"}}) {
    const absl::StatusOr<const serdiff_module*> m = LoadModule(path);
    ASSERT_FALSE(m.ok()) << path;
    EXPECT_EQ(m.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(m.status().message().find(absl::StrCat("module ABI version ", version, ",")),
              std::string::npos)
        << m.status();
    EXPECT_NE(m.status().message().find("serdiff speaks 1 to 2"), std::string::npos) << m.status();
  }
}

}  // namespace
}  // namespace serdiff::harness
