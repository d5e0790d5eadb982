#include "hpcdb/data/ssb_dictionaries.hpp"

#include <array>

#include "hpcdb/core/error.hpp"

namespace hpcdb::ssb {
namespace {

constexpr std::array<std::string_view, kNations> kNationNames = {
    "ALGERIA", "ARGENTINA", "BRAZIL",  "CANADA",  "EGYPT",   "ETHIOPIA", "FRANCE",       "GERMANY", "INDIA",
    "INDONESIA", "IRAN",    "IRAQ",    "JAPAN",   "JORDAN",  "KENYA",    "MOROCCO",      "MOZAMBIQUE", "PERU",
    "CHINA",   "ROMANIA",   "SAUDI ARABIA", "VIETNAM", "RUSSIA", "UNITED KINGDOM", "UNITED STATES"};
// Region of each nation, as in TPC-H's NATION table.
constexpr std::array<int, kNations> kNationRegion = {0, 1, 1, 1, 4, 0, 3, 3, 2, 2, 4, 4, 2,
                                                     4, 0, 0, 0, 1, 2, 3, 4, 2, 3, 3, 1};
constexpr std::array<std::string_view, kRegions> kRegionNames = {"AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST"};
constexpr std::array<std::string_view, 5> kSegments = {"AUTOMOBILE", "BUILDING", "FURNITURE", "MACHINERY", "HOUSEHOLD"};
constexpr std::array<std::string_view, 5> kPriorities = {"1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECI", "5-LOW"};
constexpr std::array<std::string_view, 7> kShipModes = {"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"};
constexpr std::array<std::string_view, 92> kColors = {
    "almond",    "antique",   "aquamarine", "azure",     "beige",     "bisque",    "black",     "blanched", "blue",
    "blush",     "brown",     "burlywood",  "burnished", "chartreuse", "chiffon",  "chocolate", "coral",    "cornflower",
    "cornsilk",  "cream",     "cyan",       "dark",      "deep",      "dim",       "dodger",    "drab",     "firebrick",
    "floral",    "forest",    "frosted",    "gainsboro", "ghost",     "goldenrod", "green",     "grey",     "honeydew",
    "hot",       "indian",    "ivory",      "khaki",     "lace",      "lavender",  "lawn",      "lemon",    "light",
    "lime",      "linen",     "magenta",    "maroon",    "medium",    "metallic",  "midnight",  "mint",     "misty",
    "moccasin",  "navajo",    "navy",       "olive",     "orange",    "orchid",    "pale",      "papaya",   "peach",
    "peru",      "pink",      "plum",       "powder",    "puff",      "purple",    "red",       "rose",     "rosy",
    "royal",     "saddle",    "salmon",     "sandy",     "seashell",  "sienna",    "sky",       "slate",    "smoke",
    "snow",      "spring",    "steel",      "tan",       "thistle",   "tomato",    "turquoise", "violet",   "wheat",
    "white",     "yellow"};
constexpr std::array<std::string_view, 6> kTypeSize = {"STANDARD", "SMALL", "MEDIUM", "LARGE", "ECONOMY", "PROMO"};
constexpr std::array<std::string_view, 5> kTypeFinish = {"ANODIZED", "BURNISHED", "PLATED", "POLISHED", "BRUSHED"};
constexpr std::array<std::string_view, 5> kTypeMetal = {"TIN", "NICKEL", "BRASS", "STEEL", "COPPER"};
constexpr std::array<std::string_view, 40> kContainers = {
    "SM CASE",   "SM BOX",   "SM BAG",   "SM JAR",   "SM PKG",   "SM PACK",   "SM CAN",   "SM DRUM",
    "LG CASE",   "LG BOX",   "LG BAG",   "LG JAR",   "LG PKG",   "LG PACK",   "LG CAN",   "LG DRUM",
    "MED CASE",  "MED BOX",  "MED BAG",  "MED JAR",  "MED PKG",  "MED PACK",  "MED CAN",  "MED DRUM",
    "JUMBO CASE", "JUMBO BOX", "JUMBO BAG", "JUMBO JAR", "JUMBO PKG", "JUMBO PACK", "JUMBO CAN", "JUMBO DRUM",
    "WRAP CASE", "WRAP BOX", "WRAP BAG", "WRAP JAR", "WRAP PKG", "WRAP PACK", "WRAP CAN", "WRAP DRUM"};

void check_code(int code, int count, const char* what) {
  if (code < 0 || code >= count) throw Error(std::string("invalid SSB ") + what + " code " + std::to_string(code));
}

}  // namespace

std::span<const std::string_view> nation_names() { return kNationNames; }
std::span<const std::string_view> region_names() { return kRegionNames; }
int region_of_nation(int nation) {
  check_code(nation, kNations, "nation");
  return kNationRegion[static_cast<std::size_t>(nation)];
}
std::span<const std::string_view> market_segments() { return kSegments; }
std::span<const std::string_view> order_priorities() { return kPriorities; }
std::span<const std::string_view> ship_modes() { return kShipModes; }
std::span<const std::string_view> part_colors() { return kColors; }
std::span<const std::string_view> part_containers() { return kContainers; }
int part_types() { return static_cast<int>(kTypeSize.size() * kTypeFinish.size() * kTypeMetal.size()); }

std::string part_type_name(int type) {
  check_code(type, part_types(), "part type");
  const auto t = static_cast<std::size_t>(type);
  std::string name(kTypeSize[t / 25]);
  name += ' ';
  name += kTypeFinish[t / 5 % 5];
  name += ' ';
  name += kTypeMetal[t % 5];
  return name;
}

std::string city_name(int city) {
  check_code(city, kCities, "city");
  std::string name(kNationNames[static_cast<std::size_t>(city / kCitiesPerNation)].substr(0, 9));
  name.resize(9, ' ');
  name += static_cast<char>('0' + city % kCitiesPerNation);
  return name;
}

std::string manufacturer_name(int manufacturer) {
  check_code(manufacturer, kManufacturers, "manufacturer");
  return "MFGR#" + std::to_string(manufacturer + 1);
}

std::string category_name(int category) {
  check_code(category, kCategories, "category");
  return manufacturer_name(category / kCategoriesPerManufacturer) + std::to_string(category % kCategoriesPerManufacturer + 1);
}

std::string brand_name(int brand) {
  check_code(brand, kBrands, "brand");
  return category_name(brand / kBrandsPerCategory) + std::to_string(brand % kBrandsPerCategory + 1);
}

int category_of_brand(int brand) {
  check_code(brand, kBrands, "brand");
  return brand / kBrandsPerCategory;
}

int manufacturer_of_category(int category) {
  check_code(category, kCategories, "category");
  return category / kCategoriesPerManufacturer;
}

std::optional<int> code_of(std::span<const std::string_view> names, std::string_view name) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<int>(i);
  }
  return std::nullopt;
}

std::optional<int> nation_code(std::string_view name) { return code_of(kNationNames, name); }
std::optional<int> region_code(std::string_view name) { return code_of(kRegionNames, name); }

}  // namespace hpcdb::ssb
