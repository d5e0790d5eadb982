#include "hpcdb/table/progress_line.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "hpcdb/core/units.hpp"

namespace hpcdb {
namespace {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

ProgressLine::ProgressLine(bool enabled, double delay_seconds) : delay_(delay_seconds), phase_start_(now_seconds()) {
  if (enabled && isatty(STDERR_FILENO) == 1) thread_ = std::thread([this] { loop(); });
}

ProgressLine::~ProgressLine() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void ProgressLine::phase(const std::string& name) {
  std::lock_guard lock(mutex_);
  phase_ = name;
  phase_start_ = now_seconds();
  rows_.store(0, std::memory_order_relaxed);
  bytes_.store(0, std::memory_order_relaxed);
}

std::string ProgressLine::text(double seconds) const {
  const auto rows = rows_.load(std::memory_order_relaxed);
  const auto bytes = bytes_.load(std::memory_order_relaxed);
  const double rate = seconds > 0 ? static_cast<double>(bytes) / seconds : 0;
  return fmt::format("hpcdb: {} {:.0f} s: rank 0 {} rows, {} ({}/s)", phase_, seconds, format_grouped(rows),
                     format_bytes(static_cast<double>(bytes)), format_bytes(rate));
}

void ProgressLine::loop() {
  const double started = now_seconds();
  std::unique_lock lock(mutex_);
  while (!stop_) {
    wake_.wait_for(lock, std::chrono::milliseconds(500));
    if (stop_) break;
    const double now = now_seconds();
    if (now - started < delay_) continue;
    std::fprintf(stderr, "\r\033[K%s", text(now - phase_start_).c_str());
    std::fflush(stderr);
    printed_ = true;
  }
  if (printed_) {
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
  }
}

}  // namespace hpcdb
