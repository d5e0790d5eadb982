#pragma once
// What `hpcdb model` prints: the modelled join and cluster, the predicted
// time per phase, and the regime.
#include "hpcdb/api/model.hpp"

namespace hpcdb {

void print_model_report(const ModelRequest& request, const ModelResult& result);

}  // namespace hpcdb
