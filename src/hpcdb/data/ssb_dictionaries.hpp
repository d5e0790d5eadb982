#pragma once
// The Star Schema Benchmark's fixed vocabularies (O'Neil, O'Neil and Chen,
// "Star Schema Benchmark", revision 3): the 25 nations of TPC-H with their
// 5 regions, cities (10 per nation), market segments, order priorities, ship
// modes, part colours, types and containers, and the names of
// manufacturers, categories and brands. Every string column is stored as a
// small integer code into one of these lists; the text is what the benchmark
// specifies and what the CSV files and query results show.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace hpcdb::ssb {

constexpr int kNations = 25;
constexpr int kRegions = 5;
constexpr int kCitiesPerNation = 10;
constexpr int kCities = kNations * kCitiesPerNation;
constexpr int kManufacturers = 5;
constexpr int kCategoriesPerManufacturer = 5;
constexpr int kCategories = kManufacturers * kCategoriesPerManufacturer;
constexpr int kBrandsPerCategory = 40;
constexpr int kBrands = kCategories * kBrandsPerCategory;

std::span<const std::string_view> nation_names();
std::span<const std::string_view> region_names();
int region_of_nation(int nation);
std::span<const std::string_view> market_segments();
std::span<const std::string_view> order_priorities();
std::span<const std::string_view> ship_modes();
std::span<const std::string_view> part_colors();
std::span<const std::string_view> part_containers();
int part_types();                          // 150 = 6 x 5 x 5 syllables
std::string part_type_name(int type);      // "STANDARD ANODIZED TIN"

// City code = nation * 10 + digit: the nation's name cut or padded to 9
// characters, then the digit ("UNITED KI1", "ALGERIA  0").
std::string city_name(int city);
// Manufacturer 0..4 is "MFGR#1".."MFGR#5"; category code = manufacturer * 5
// + (1..5) - 1 is "MFGR#11".."MFGR#55"; brand code = category * 40 +
// (1..40) - 1 is the category's name followed by 1..40 ("MFGR#121",
// "MFGR#1240").
std::string manufacturer_name(int manufacturer);
std::string category_name(int category);
std::string brand_name(int brand);
int category_of_brand(int brand);
int manufacturer_of_category(int category);

// The code of a name in a list, if it is there.
std::optional<int> code_of(std::span<const std::string_view> names, std::string_view name);
std::optional<int> nation_code(std::string_view name);
std::optional<int> region_code(std::string_view name);

}  // namespace hpcdb::ssb
