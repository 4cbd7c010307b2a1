// SPDX-License-Identifier: Apache-2.0
// RFC 3339 instants, accepted exactly as Go's time.Parse(time.RFC3339, ...) accepts them.

#include "kpreempt/model/time.h"

#include <fmt/format.h>

namespace kpreempt::model {
namespace {

constexpr std::int64_t k_seconds_per_day = 86400;

bool is_leap(std::int64_t y) {
  return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

int days_in_month(int month, std::int64_t year) {
  static constexpr int k_days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month == 2 && is_leap(year)) {
    return 29;
  }
  return k_days[month - 1];
}

// Days since 1970-01-01 in the proleptic Gregorian calendar, valid for any year (Go's zero
// time is in year 1, far outside what timegm promises).
std::int64_t days_from_civil(std::int64_t y, int m, int d) {
  y -= m <= 2 ? 1 : 0;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const std::int64_t yoe = y - era * 400;
  const std::int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

struct Civil {
  std::int64_t year;
  int month, day;
};

Civil civil_from_days(std::int64_t z) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const std::int64_t doe = z - era * 146097;
  const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const std::int64_t mp = (5 * doy + 2) / 153;
  const int d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  const int m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  return Civil{yoe + era * 400 + (m <= 2 ? 1 : 0), m, d};
}

// Fixed-width unsigned field within [lo, hi]; -1 when not all digits or out of range.
int field(std::string_view s, std::size_t pos, std::size_t width, int lo, int hi) {
  int v = 0;
  for (std::size_t i = pos; i < pos + width; ++i) {
    if (s[i] < '0' || s[i] > '9') {
      return -1;
    }
    v = v * 10 + (s[i] - '0');
  }
  return v < lo || v > hi ? -1 : v;
}

bool fail(std::string* error, std::string message) {
  if (error != nullptr) {
    *error = std::move(message);
  }
  return false;
}

// Fraction of a second after '.' (or ',', which Go's general parser also takes): every digit
// is read but only the first nine are kept.
std::int32_t parse_fraction(std::string_view& rest) {
  std::int32_t nanos = 0;
  if (rest.size() < 2 || (rest[0] != '.' && rest[0] != ',') || rest[1] < '0' || rest[1] > '9') {
    return 0;
  }
  std::size_t n = 1;
  int kept = 0;
  for (; n < rest.size() && rest[n] >= '0' && rest[n] <= '9'; ++n) {
    if (kept < 9) {
      nanos = nanos * 10 + (rest[n] - '0');
      ++kept;
    }
  }
  for (; kept < 9; ++kept) {
    nanos *= 10;
  }
  rest.remove_prefix(n);
  return nanos;
}

// "Z" gives 0; "+hh:mm" / "-hh:mm" give the offset east of UTC in seconds. Go's general parser
// (the fallback after its strict fast path) allows hours up to 24 and minutes up to 60.
bool parse_zone(std::string_view rest, std::int64_t& offset, std::string* error) {
  if (rest == "Z") {
    offset = 0;
    return true;
  }
  if (rest.size() != 6 || (rest[0] != '+' && rest[0] != '-') || rest[3] != ':') {
    return fail(error, "expected \"Z\" or a \"+hh:mm\" offset after the seconds");
  }
  const int hh = field(rest, 1, 2, 0, 24);
  const int mm = field(rest, 4, 2, 0, 60);
  if (hh < 0 || mm < 0) {
    return fail(error, "time zone offset out of range");
  }
  offset = (hh * 60 + mm) * 60 * (rest[0] == '-' ? -1 : 1);
  return true;
}

// The date and clock fields; -1 in a field means it was missing or out of range.
struct Fields {
  int year = -1, month = -1, day = -1, hour = -1, minute = -1, second = -1;
};

// "2006-01-02T15:04:05", except that the hour may have one digit, as Go's layout "15" allows
// once its strict fast path has given up. Returns the length consumed, 0 on a shape error.
std::size_t scan_fields(std::string_view s, Fields& f) {
  if (s.size() < 11 || s[4] != '-' || s[7] != '-' || s[10] != 'T') {
    return 0;
  }
  const std::size_t hour_width = s.size() > 13 && s[13] == ':' ? 2 : 1;
  const std::size_t clock = 11 + hour_width;  // where ":04:05" starts
  if (s.size() < clock + 6 || s[clock] != ':' || s[clock + 3] != ':') {
    return 0;
  }
  f.year = field(s, 0, 4, 0, 9999);
  f.month = field(s, 5, 2, 1, 12);
  f.day = f.year < 0 || f.month < 0 ? -1 : field(s, 8, 2, 1, days_in_month(f.month, f.year));
  f.hour = field(s, 11, hour_width, 0, 23);
  f.minute = field(s, clock + 1, 2, 0, 59);
  f.second = field(s, clock + 4, 2, 0, 59);
  return clock + 6;
}

std::string_view range_error(const Fields& f) {
  if (f.year < 0) {
    return "bad year";
  }
  if (f.month < 0) {
    return "month out of range";
  }
  if (f.day < 0) {
    return "day out of range";
  }
  if (f.hour < 0) {
    return "hour out of range";
  }
  return f.minute < 0 ? "minute out of range" : f.second < 0 ? "second out of range" : "";
}

}  // namespace

std::optional<Instant> parse_time(std::string_view text, std::string* error) {
  Fields f;
  const std::size_t used = scan_fields(text, f);
  if (used == 0) {
    fail(error, "expected an RFC 3339 time like \"2006-01-02T15:04:05Z\"");
    return std::nullopt;
  }
  if (const std::string_view why = range_error(f); !why.empty()) {
    fail(error, std::string(why));
    return std::nullopt;
  }
  std::string_view rest = text.substr(used);
  const std::int32_t nanos = parse_fraction(rest);
  std::int64_t offset = 0;
  if (!parse_zone(rest, offset, error)) {
    return std::nullopt;
  }
  const std::int64_t seconds = days_from_civil(f.year, f.month, f.day) * k_seconds_per_day +
                               f.hour * 3600 + f.minute * 60 + f.second - offset;
  return Instant{seconds, nanos};
}

std::string to_string(const Instant& t) {
  std::int64_t days = t.seconds / k_seconds_per_day;
  std::int64_t secs = t.seconds % k_seconds_per_day;
  if (secs < 0) {
    secs += k_seconds_per_day;
    --days;
  }
  const Civil c = civil_from_days(days);
  std::string out = fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}", c.year, c.month, c.day,
                                secs / 3600, secs / 60 % 60, secs % 60);
  if (t.nanos != 0) {
    std::string frac = fmt::format("{:09}", t.nanos);
    frac.erase(frac.find_last_not_of('0') + 1);
    out += '.' + frac;
  }
  out += 'Z';
  return out;
}

}  // namespace kpreempt::model
