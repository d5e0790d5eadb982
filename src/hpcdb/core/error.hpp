#pragma once
// Every error inside the engine is an exception whose message tells a user
// what to change. The program's entry point prints it once and exits non-zero.
#include <stdexcept>
#include <string>

namespace hpcdb {

// Something about the input or the options is wrong (exit code 2).
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The engine could not do what was asked (exit code 1).
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An error every rank of the job has agreed on (each rank throws the same
// one), so the entry point can print it once and exit without aborting.
class AgreedFailure : public std::runtime_error {
 public:
  AgreedFailure(const std::string& message, int exit_code) : std::runtime_error(message), exit_code_(exit_code) {}
  int exit_code() const { return exit_code_; }

 private:
  int exit_code_;
};

}  // namespace hpcdb
