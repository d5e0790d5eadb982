#pragma once
// The results of `hpcdb txn`, for people (text) and programs (JSON), with
// the lock-manager model's prediction next to the measurement.
#include <nlohmann/json.hpp>

#include <string>

#include "hpcdb/apps/hpcdb/txn/txn_command.hpp"
#include "hpcdb/txn/lock_model.hpp"
#include "hpcdb/txn/txn_engine.hpp"

namespace hpcdb {

// The model's setting from the run's own calibration: a one-way message time
// is half the measured ping round trip plus half the lock agent's mean
// processing time (the thesis's t_comm covers sending, polling and
// processing), queueing the measured mean, the vote its measured median (or
// one round trip), clean-up one one-way message.
LockModelSetting model_setting_of(const TxnEngineConfig& config, const TxnRunResult& result);

std::string txn_report_text(const TxnOptions& options, const TxnEngineConfig& config, const TxnRunResult& result);
nlohmann::ordered_json txn_report_json(const TxnOptions& options, const TxnEngineConfig& config,
                                       const TxnRunResult& result);

}  // namespace hpcdb
