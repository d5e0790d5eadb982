#include "hpcdb/model/calibration.hpp"

#include <filesystem>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/text_input.hpp"

namespace hpcdb {

nlohmann::ordered_json to_json(const Calibration& c) {
  return {{"rates_tuples_per_second_per_thread",
           {{"scan", c.scan},
            {"partition", c.partition},
            {"partition_bits", c.partition_bits},
            {"build", c.build},
            {"probe", c.probe},
            {"sort_run", c.sort_run},
            {"run_length", c.run_length},
            {"merge", c.merge},
            {"match", c.match},
            {"lookup", c.lookup}}},
          {"shuffle_rows_per_second_per_thread",
           {{"count_16", c.shuffle_count.rows_per_second_16},
            {"count_64", c.shuffle_count.rows_per_second_64},
            {"partition_16", c.shuffle_partition.rows_per_second_16},
            {"partition_64", c.shuffle_partition.rows_per_second_64},
            {"consume_16", c.shuffle_consume.rows_per_second_16},
            {"consume_64", c.shuffle_consume.rows_per_second_64}}},
          {"network",
           {{"put_bandwidth_bytes_per_second", c.put_bandwidth},
            {"put_latency_seconds", c.put_latency},
            {"shared_memory_bandwidth_bytes_per_second", c.shared_memory_bandwidth},
            {"window_setup_seconds", c.window_setup},
            {"message_layer_threshold_bytes", c.message_threshold},
            {"shares_cores_with_compute", c.network_shares_cores}}},
          {"concurrent", c.concurrent}};
}

Calibration calibration_from_json(const nlohmann::json& j) {
  Calibration c;
  const auto& r = j.at("rates_tuples_per_second_per_thread");
  c.scan = r.at("scan");
  c.partition = r.at("partition");
  c.partition_bits = r.at("partition_bits");
  c.build = r.at("build");
  c.probe = r.at("probe");
  c.sort_run = r.at("sort_run");
  c.run_length = r.at("run_length");
  c.merge = r.at("merge");
  c.match = r.at("match");
  c.lookup = r.value("lookup", 0.0);  // absent in older files
  if (j.contains("shuffle_rows_per_second_per_thread")) {  // absent in older files
    const auto& sh = j.at("shuffle_rows_per_second_per_thread");
    c.shuffle_count = {sh.at("count_16"), sh.at("count_64")};
    c.shuffle_partition = {sh.at("partition_16"), sh.at("partition_64")};
    c.shuffle_consume = {sh.at("consume_16"), sh.at("consume_64")};
  }
  const auto& n = j.at("network");
  c.put_bandwidth = n.at("put_bandwidth_bytes_per_second");
  c.put_latency = n.at("put_latency_seconds");
  c.concurrent = j.value("concurrent", false);
  c.shared_memory_bandwidth = n.at("shared_memory_bandwidth_bytes_per_second");
  c.window_setup = n.value("window_setup_seconds", 0.0);  // absent in older files
  c.message_threshold = n.value("message_layer_threshold_bytes", 0.0);
  c.network_shares_cores = n.value("shares_cores_with_compute", false);
  return c;
}

Calibration read_calibration(const std::string& path) {
  std::string text;
  try {
    text = read_text_input(path, "calibration file");
  } catch (const UsageError& e) {
    std::error_code ignored;
    if (std::filesystem::exists(path, ignored)) throw;
    throw UsageError(std::string(e.what()) + " (write one with 'hpcdb calibrate')");
  }
  try {
    return calibration_from_json(nlohmann::json::parse(text));
  } catch (const nlohmann::json::exception& e) {
    throw UsageError("calibration file '" + path + "' is not one 'hpcdb calibrate' wrote: " + e.what());
  }
}

}  // namespace hpcdb
