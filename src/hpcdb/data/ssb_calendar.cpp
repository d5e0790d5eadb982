#include "hpcdb/data/ssb_calendar.hpp"

#include <array>

#include "hpcdb/core/error.hpp"

namespace hpcdb::ssb {
namespace {

constexpr std::array<const char*, 12> kMonthNames = {"January", "February", "March",     "April",   "May",      "June",
                                                      "July",    "August",   "September", "October", "November", "December"};
constexpr std::array<const char*, 7> kDayNames = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};
constexpr std::array<const char*, kSellingSeasons> kSeasons = {"Christmas", "Summer", "Winter", "Spring", "Fall"};

bool leap(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

int days_in_month(int year, int month) {
  constexpr std::array<int, 12> days = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && leap(year) ? 29 : days[static_cast<std::size_t>(month - 1)];
}

int season_of(int month, int day) {
  if (month == 12 || (month == 11 && day >= 15)) return 0;  // Christmas
  if (month >= 6 && month <= 8) return 1;                     // Summer
  if (month <= 2) return 2;                                   // Winter
  if (month <= 5) return 3;                                   // Spring
  return 4;                                                   // Fall
}

bool holiday_on(int month, int day) {
  return (month == 1 && day == 1) || (month == 7 && day == 4) || (month == 12 && (day == 24 || day == 25 || day == 31)) ||
         (month == 11 && day == 11) || (month == 5 && day == 1);
}

}  // namespace

CalendarDay calendar_day(int day) {
  if (day < 0 || day >= kDays) throw Error("SSB calendar day " + std::to_string(day) + " is outside 1992-1998");
  CalendarDay d;
  int year = kFirstYear;
  int rest = day;
  while (rest >= (leap(year) ? 366 : 365)) rest -= leap(year) ? 366 : 365, ++year;
  d.year = static_cast<std::int16_t>(year);
  d.day_of_year = static_cast<std::uint16_t>(rest + 1);
  int month = 1;
  while (rest >= days_in_month(year, month)) rest -= days_in_month(year, month), ++month;
  d.month = static_cast<std::uint8_t>(month);
  d.day_of_month = static_cast<std::uint8_t>(rest + 1);
  d.datekey = year * 10000 + month * 100 + d.day_of_month;
  // 1992-01-01 was a Wednesday (4 with Sunday = 1).
  d.day_of_week = static_cast<std::uint8_t>((day + 3) % 7 + 1);
  d.week_of_year = static_cast<std::uint8_t>((d.day_of_year - 1) / 7 + 1);
  d.selling_season = static_cast<std::uint8_t>(season_of(month, d.day_of_month));
  d.last_day_in_week = d.day_of_week == 7;
  d.last_day_in_month = d.day_of_month == days_in_month(year, month);
  d.holiday = holiday_on(month, d.day_of_month);
  d.weekday = d.day_of_week >= 2 && d.day_of_week <= 6;
  return d;
}

std::int32_t datekey_of_day(int day) {
  static const std::array<std::int32_t, kDays> keys = [] {
    std::array<std::int32_t, kDays> k{};
    for (int d = 0; d < kDays; ++d) k[static_cast<std::size_t>(d)] = calendar_day(d).datekey;
    return k;
  }();
  if (day < 0 || day >= kDays) throw Error("SSB calendar day " + std::to_string(day) + " is outside 1992-1998");
  return keys[static_cast<std::size_t>(day)];
}

int day_of_datekey(std::int32_t datekey) {
  const int year = datekey / 10000;
  const int month = datekey / 100 % 100;
  const int day = datekey % 100;
  if (year < kFirstYear || year >= kFirstYear + kYears || month < 1 || month > 12 || day < 1 ||
      day > days_in_month(year, month)) {
    return -1;
  }
  int index = 0;
  for (int y = kFirstYear; y < year; ++y) index += leap(y) ? 366 : 365;
  for (int m = 1; m < month; ++m) index += days_in_month(year, m);
  return index + day - 1;
}

std::string date_text(const CalendarDay& d) {
  return std::string(kMonthNames[d.month - 1u]) + " " + std::to_string(d.day_of_month) + ", " + std::to_string(d.year);
}

std::string day_name(int day_of_week) {
  if (day_of_week < 1 || day_of_week > 7) throw Error("invalid day of week " + std::to_string(day_of_week));
  return kDayNames[static_cast<std::size_t>(day_of_week - 1)];
}

std::string month_name(int month) {
  if (month < 1 || month > 12) throw Error("invalid month " + std::to_string(month));
  return kMonthNames[static_cast<std::size_t>(month - 1)];
}

std::string year_month_name(int month_code) {
  if (month_code < 0 || month_code >= kMonths) throw Error("invalid SSB month code " + std::to_string(month_code));
  return month_name(month_code % 12 + 1).substr(0, 3) + std::to_string(kFirstYear + month_code / 12);
}

const char* selling_season_name(int season) {
  if (season < 0 || season >= kSellingSeasons) throw Error("invalid selling season " + std::to_string(season));
  return kSeasons[static_cast<std::size_t>(season)];
}

}  // namespace hpcdb::ssb
