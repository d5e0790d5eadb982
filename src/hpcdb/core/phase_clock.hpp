#pragma once
// Per-phase wall-clock times of one operator run on one rank.
#include <string>
#include <utility>
#include <vector>

#include "hpcdb/core/progress_observer.hpp"
#include "hpcdb/core/stopwatch.hpp"

namespace hpcdb {

class PhaseClock {
 public:
  // Ends the running phase (if any) and starts `name`.
  void start(const std::string& name) {
    report_phase_start(name);
    stop();
    add(name, 0.0);  // phases are listed in the order they start
    current_ = name;
    watch_.restart();
  }
  // Ends the running phase, adding its time to its total.
  void stop() {
    if (current_.empty()) return;
    add(current_, watch_.seconds());
    current_.clear();
  }
  void add(const std::string& name, double seconds) {
    for (auto& [n, s] : phases_) {
      if (n == name) {
        s += seconds;
        return;
      }
    }
    phases_.emplace_back(name, seconds);
  }
  const std::vector<std::pair<std::string, double>>& phases() const { return phases_; }

 private:
  std::vector<std::pair<std::string, double>> phases_;
  std::string current_;
  Stopwatch watch_;
};

}  // namespace hpcdb
