#include "hpcdb/apps/hpcdb/command_line.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace hpcdb {
namespace {

const std::vector<std::string> kCommands{"join", "generate", "calibrate", "model", "txn", "netbench", "shuffle"};

TEST(UnknownCommand, NamesTheClosestAndTheChoices) {
  EXPECT_EQ(unknown_command_message({"jion", "--inner", "5"}, kCommands),
            "unknown command 'jion' (did you mean 'join'?); the commands are join, generate, calibrate, model, txn, "
            "netbench, shuffle");
  EXPECT_NE(unknown_command_message({"shufle"}, kCommands)->find("did you mean 'shuffle'?"), std::string::npos);
  EXPECT_EQ(unknown_command_message({"frobnicate"}, kCommands)->find("did you mean"), std::string::npos);
  EXPECT_NE(unknown_command_message({}, kCommands)->find("give a command: join, generate"), std::string::npos);
  EXPECT_FALSE(unknown_command_message({"join", "--inner", "5"}, kCommands));
  EXPECT_FALSE(unknown_command_message({"--version"}, kCommands));
  EXPECT_FALSE(unknown_command_message({"--help"}, kCommands));
}

TEST(RepeatedOption, SaysSoInPlainWords) {
  EXPECT_EQ(repeated_option_message({"join", "--inner", "1000", "--inner", "2000"}),
            "--inner was given twice ('1000' and '2000'); give it once");
  EXPECT_EQ(repeated_option_message({"join", "--inner=1", "--outer", "2", "--inner", "3", "--inner=4"}),
            "--inner was given three times ('1', '3' and '4'); give it once");
  EXPECT_EQ(repeated_option_message({"join", "--verify", "--verify"}), "--verify was given twice; give it once");
  EXPECT_EQ(repeated_option_message({"join", "--json", "-", "--verify"}), std::nullopt);
  EXPECT_EQ(repeated_option_message({"join", "--inner", "1", "--outer", "1"}), std::nullopt);
}

TEST(NumberChecks, RefuseMinusSignsForUnsignedAndNonFiniteNumbers) {
  CLI::App app{"test"};
  std::uint64_t seed = 0;
  unsigned threads = 1;
  int rank = -1;
  double duration = 1;
  CLI::App* sub = app.add_subcommand("run");
  sub->add_option("--seed", seed);
  sub->add_option("--threads", threads);
  sub->add_option("--rank", rank);
  sub->add_option("--duration", duration);
  refuse_wrapped_and_non_finite_numbers(app);
  const auto error_of = [&](std::vector<std::string> args) -> std::string {
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    try {
      app.clear();
      app.parse(reversed);
    } catch (const CLI::Error& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(error_of({"run", "--seed", "-1"}).find("must be a whole number of 0 or more, not '-1'"), std::string::npos);
  EXPECT_NE(error_of({"run", "--threads", " -3"}).find("must be a whole number of 0 or more"), std::string::npos);
  EXPECT_NE(error_of({"run", "--duration", "inf"}).find("must be a finite number, not 'inf'"), std::string::npos);
  EXPECT_NE(error_of({"run", "--duration", "NaN"}).find("must be a finite number"), std::string::npos);
  EXPECT_NE(error_of({"run", "--duration", "-1e400"}).find("must be a finite number"), std::string::npos);
  EXPECT_EQ(error_of({"run", "--seed", "18446744073709551615", "--rank", "-1", "--duration", "1e3"}), "");
  EXPECT_EQ(seed, 18446744073709551615ULL);
  EXPECT_EQ(rank, -1);
  EXPECT_EQ(duration, 1e3);
}

}  // namespace
}  // namespace hpcdb
