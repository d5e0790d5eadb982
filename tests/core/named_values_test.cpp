#include "hpcdb/core/named_values.hpp"

#include <gtest/gtest.h>

namespace hpcdb {
namespace {

enum class Colour { red, green, blue };
constexpr NamedValues<Colour, 3> kColours{{{Colour::red, "red"}, {Colour::green, "green"}, {Colour::blue, "blue"}}};

TEST(NamedValues, BothDirections) {
  for (const auto& [value, name] : kColours) {
    EXPECT_EQ(name_of(value, kColours), name);
    EXPECT_EQ(value_named(std::string(name), kColours, "colour"), value);
  }
}

TEST(NamedValues, UnknownNameListsTheChoices) {
  try {
    value_named("Red", kColours, "colour");
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "unknown colour 'Red' (use red, green or blue)");
  }
}

}  // namespace
}  // namespace hpcdb
