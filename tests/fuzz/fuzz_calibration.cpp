// The calibration file reader on any bytes: a calibration or a UsageError
// naming the file, never a crash or another exception.
#include <cstdint>

#include "fuzz/fuzz_input_file.hpp"
#include "hpcdb/model/calibration.hpp"
#include "hpcdb/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static hpcdb::fuzz::InputFile file("calibration.json");
  const std::string& path = file.write(data, size);
  try {
    (void)hpcdb::read_calibration(path);
  } catch (const hpcdb::UsageError&) {
  }
  return 0;
}
