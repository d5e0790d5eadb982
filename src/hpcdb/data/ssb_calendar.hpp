#pragma once
// The SSB DATE dimension: one row per day of the seven years 1992-01-01 to
// 1998-12-31 (2,557 days; the benchmark's own generator stops a day short,
// at 2,556), keyed by yyyymmdd. Orders are dated up to 151 days before the
// end (1998-08-02), as in TPC-H.
#include <cstdint>
#include <string>

namespace hpcdb::ssb {

constexpr int kFirstYear = 1992;
constexpr int kYears = 7;
constexpr int kDays = 2557;
constexpr int kMonths = kYears * 12;
// Orders take dates in [day 0, day kOrderDays); commit dates follow by 30-90 days.
constexpr int kOrderDays = kDays - 151;

struct CalendarDay {
  std::int32_t datekey = 0;         // yyyymmdd
  std::int16_t year = 0;
  std::uint8_t month = 0;           // 1..12
  std::uint8_t day_of_month = 0;    // 1..31
  std::uint8_t day_of_week = 0;     // 1 = Sunday .. 7 = Saturday
  std::uint16_t day_of_year = 0;    // 1..366
  std::uint8_t week_of_year = 0;    // 1..53: days 1-7 are week 1, and so on
  std::uint8_t selling_season = 0;  // code into selling_seasons()
  bool last_day_in_week = false;    // Saturday
  bool last_day_in_month = false;
  bool holiday = false;             // New Year, Independence Day, Christmas and a few more
  bool weekday = false;             // Monday to Friday
  std::int32_t year_month_num() const { return year * 100 + month; }
  int month_code() const { return (year - kFirstYear) * 12 + (month - 1); }  // 0..83, d_yearmonth
};

// Day 0 is 1992-01-01.
CalendarDay calendar_day(int day);
// calendar_day(day).datekey, from a table.
std::int32_t datekey_of_day(int day);
// The day index of a yyyymmdd key in the calendar, or -1.
int day_of_datekey(std::int32_t datekey);

std::string date_text(const CalendarDay& d);      // "January 1, 1992"
std::string day_name(int day_of_week);            // "Sunday"
std::string month_name(int month);                // "January"
std::string year_month_name(int month_code);      // "Jan1992"
const char* selling_season_name(int season);      // "Christmas", "Summer", "Winter", "Spring", "Fall"
constexpr int kSellingSeasons = 5;

}  // namespace hpcdb::ssb
