#pragma once
// Summaries of repeated measurements, and the machine's load while they ran.
#include <vector>

namespace hpcdb {

// The middle value (the mean of the two middle ones for an even count); 0 for none.
double median(std::vector<double> values);

// This machine's 1-minute load average (0 when unknown).
double load_average();

}  // namespace hpcdb
