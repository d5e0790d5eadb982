#include "hpcdb/core/interruption.hpp"

#include <unistd.h>

#include <array>
#include <atomic>
#include <csignal>
#include <cstring>

namespace hpcdb {
namespace {

constexpr int kSlots = 32;
constexpr std::size_t kPathBytes = 4096;

struct Slot {
  std::atomic<bool> used{false};  // claimed by a guard
  std::atomic<bool> ready{false};  // its path is complete
  char path[kPathBytes];
};

std::array<Slot, kSlots> temporary_files;
std::atomic<bool> announce_interruption{false};

void remove_temporary_files() {
  for (Slot& slot : temporary_files) {
    if (slot.ready.load(std::memory_order_acquire)) ::unlink(slot.path);
  }
}

void write_line(const char* text) {
  const std::size_t length = std::strlen(text);
  std::size_t done = 0;
  while (done < length) {
    const ssize_t n = ::write(STDERR_FILENO, text + done, length - done);
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

// Only async-signal-safe calls: unlink, write, _exit.
extern "C" void on_signal(int signal) {
  remove_temporary_files();
  if (signal == SIGINT && announce_interruption.load()) {
    write_line("hpcdb: interrupted (Ctrl-C): stopped; no output was completed after this point\n");
  }
  ::_exit(128 + signal);
}

}  // namespace

void remove_temporary_files_now() { remove_temporary_files(); }

void end_on_interruption(bool announce) {
  announce_interruption.store(announce);
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

TemporaryFileGuard::TemporaryFileGuard(const std::string& path) {
  if (path.size() >= kPathBytes) return;
  for (int i = 0; i < kSlots; ++i) {
    Slot& slot = temporary_files[static_cast<std::size_t>(i)];
    bool expected = false;
    if (!slot.used.compare_exchange_strong(expected, true)) continue;
    std::memcpy(slot.path, path.c_str(), path.size() + 1);
    slot.ready.store(true, std::memory_order_release);
    slot_ = i;
    return;
  }
}

TemporaryFileGuard& TemporaryFileGuard::operator=(TemporaryFileGuard&& other) noexcept {
  if (this != &other) {
    release();
    slot_ = other.slot_;
    other.slot_ = -1;
  }
  return *this;
}

void TemporaryFileGuard::release() {
  if (slot_ < 0) return;
  Slot& slot = temporary_files[static_cast<std::size_t>(slot_)];
  slot.ready.store(false, std::memory_order_release);
  slot.used.store(false, std::memory_order_release);
  slot_ = -1;
}

}  // namespace hpcdb
