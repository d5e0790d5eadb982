#pragma once
// The summary `hpcdb calibrate` prints: every rate measured, the network
// figures and the message layer's threshold sweep.
#include <cstdio>

#include "hpcdb/api/calibrate.hpp"

namespace hpcdb {

void print_calibrate_summary(std::FILE* text, const CalibrateRequest& request, const CalibrateResult& result);

}  // namespace hpcdb
