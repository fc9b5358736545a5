// Domains of the timestamp family, the output forms (declared in targets/timestamp/domain.h):
// the texts of civil values (DayText, CivilText, TimeText), written digit by digit, and their
// packed bytes (CivilBytes, DayBytes, TimeBytes), the canonical outputs the timestamp targets
// compare, with their inverses. The domains themselves: domain.cc (civil datetime, day, time
// of day) and domain_scalar.cc (integers, raw dates, double seconds).
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "targets/timestamp/domain.h"

namespace serdiff::targets::timestamp {

namespace {

// These texts are the canonical outputs of most timestamp targets: each judged input formats
// six to eight of them (every implementation runs twice), so they are built in a stack buffer
// and copied into the string once. The digits are exactly printf's "%0<width>d" (a minus sign
// counts toward the width; wider values are not cut), so invalid fields print as before.
// TimestampTextTest.* compares them with absl::StrFormat.
char* PutPadded(char* p, int64_t v, int width) {
  const bool negative = v < 0;
  uint64_t mag = negative ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  char digits[20];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + mag % 10);
    mag /= 10;
  } while (mag != 0);
  if (negative) *p++ = '-';
  for (int pad = width - n - (negative ? 1 : 0); pad > 0; --pad) *p++ = '0';
  while (n > 0) *p++ = digits[--n];
  return p;
}

char* PutDay(char* p, const ts::CivilDay& d) {
  // The year's sign is written apart from its digits ("-0044"), unlike the other fields.
  if (d.year < 0) *p++ = '-';
  p = PutPadded(p, d.year < 0 ? -int64_t{d.year} : int64_t{d.year}, 4);
  *p++ = '-';
  p = PutPadded(p, d.month, 2);
  *p++ = '-';
  return PutPadded(p, d.day, 2);
}

// hh:mm:ss.<fraction of `frac_width` digits>
char* PutTime(char* p, int h, int m, int s, int frac, int frac_width) {
  p = PutPadded(p, h, 2);
  *p++ = ':';
  p = PutPadded(p, m, 2);
  *p++ = ':';
  p = PutPadded(p, s, 2);
  *p++ = '.';
  return PutPadded(p, frac, frac_width);
}

}  // namespace

std::string DayText(const ts::CivilDay& d) {
  char buf[64];
  return std::string(buf, PutDay(buf, d));
}

std::string CivilText(const ts::CivilDateTime& c) {
  char buf[128];
  char* p = PutDay(buf, {c.year, c.month, c.day});
  *p++ = 'T';
  return std::string(buf, PutTime(p, c.hour, c.minute, c.second, c.microsecond, 6));
}

std::string TimeText(const ts::TimeOfDay& t) {
  char buf[96];
  return std::string(buf, PutTime(buf, t.hour, t.minute, t.second, t.nanosecond, 9));
}

namespace {

// Packs int32 fields, field i taking compact[i] bytes (big-endian) when every field fits its
// compact width, else four bytes each (see CivilBytes in the header).
template <size_t N>
std::string PackFields(const std::array<int32_t, N>& f, const std::array<int, N>& compact) {
  bool fits = true;
  for (size_t i = 0; i < N; ++i) {
    if (compact[i] < 4 && (f[i] < 0 || f[i] >= (int32_t{1} << (8 * compact[i])))) fits = false;
  }
  char buf[4 * N];
  size_t n = 0;
  for (size_t i = 0; i < N; ++i) {
    const uint32_t u = static_cast<uint32_t>(f[i]);
    for (int b = (fits ? compact[i] : 4) - 1; b >= 0; --b) {
      buf[n++] = static_cast<char>(u >> (8 * b));
    }
  }
  return std::string(buf, n);
}

template <size_t N>
absl::StatusOr<std::array<int32_t, N>> UnpackFields(std::string_view bytes,
                                                    const std::array<int, N>& compact,
                                                    absl::string_view kind) {
  size_t compact_len = 0;
  for (int w : compact) compact_len += static_cast<size_t>(w);
  const bool fits = bytes.size() == compact_len;
  if (!fits && bytes.size() != 4 * N) {
    return absl::InvalidArgumentError(absl::StrCat(kind, " output bytes are ", compact_len, " or ",
                                                   4 * N, " long, not ", bytes.size()));
  }
  std::array<int32_t, N> f{};
  size_t at = 0;
  for (size_t i = 0; i < N; ++i) {
    uint32_t u = 0;
    for (int b = 0; b < (fits ? compact[i] : 4); ++b) {
      u = (u << 8) | static_cast<unsigned char>(bytes[at++]);
    }
    f[i] = static_cast<int32_t>(u);
  }
  return f;
}

constexpr std::array<int, 7> kCivilWidths = {4, 1, 1, 1, 1, 1, 3};
constexpr std::array<int, 3> kDayWidths = {4, 1, 1};
constexpr std::array<int, 4> kTimeWidths = {1, 1, 1, 4};

}  // namespace

std::string CivilBytes(const ts::CivilDateTime& c) {
  return PackFields<7>({c.year, c.month, c.day, c.hour, c.minute, c.second, c.microsecond},
                       kCivilWidths);
}

std::string DayBytes(const ts::CivilDay& d) {
  return PackFields<3>({d.year, d.month, d.day}, kDayWidths);
}

std::string TimeBytes(const ts::TimeOfDay& t) {
  return PackFields<4>({t.hour, t.minute, t.second, t.nanosecond}, kTimeWidths);
}

absl::StatusOr<ts::CivilDateTime> CivilOfBytes(std::string_view bytes) {
  absl::StatusOr<std::array<int32_t, 7>> f = UnpackFields(bytes, kCivilWidths, "datetime");
  if (!f.ok()) return f.status();
  const auto& v = *f;
  return ts::CivilDateTime{v[0], v[1], v[2], v[3], v[4], v[5], v[6]};
}

absl::StatusOr<ts::CivilDay> DayOfBytes(std::string_view bytes) {
  absl::StatusOr<std::array<int32_t, 3>> f = UnpackFields(bytes, kDayWidths, "day");
  if (!f.ok()) return f.status();
  return ts::CivilDay{(*f)[0], (*f)[1], (*f)[2]};
}

absl::StatusOr<ts::TimeOfDay> TimeOfBytes(std::string_view bytes) {
  absl::StatusOr<std::array<int32_t, 4>> f = UnpackFields(bytes, kTimeWidths, "time of day");
  if (!f.ok()) return f.status();
  return ts::TimeOfDay{(*f)[0], (*f)[1], (*f)[2], (*f)[3]};
}

absl::StatusOr<int64_t> MicrosOfCivilBytes(std::string_view bytes) {
  absl::StatusOr<ts::CivilDateTime> c = CivilOfBytes(bytes);
  if (!c.ok()) return c.status();
  return rts::ToUnixMicros(*c);
}

}  // namespace serdiff::targets::timestamp
