#include "hpcdb/apps/hpcdb/generate/ssb_generate_command.hpp"

#include <fmt/format.h>

#include "hpcdb/api/generate.hpp"
#include "hpcdb/core/units.hpp"

namespace hpcdb {

void add_ssb_generate_options(CLI::App& generate, GenerateOptions& o) {
  generate.add_flag("--ssb", o.ssb,
                    "Write the Star Schema Benchmark's tables (lineorder, customer, supplier, part, date) as CSV files "
                    "into --output-dir instead of the join workload");
  generate.add_option("--scale", o.scale, "SSB scale factor (1-100 in the benchmark; 0.01 to 1000 accepted)")
      ->capture_default_str();
  generate.add_option("--output-dir", o.output_dir, "Directory for the SSB CSV files (it must exist)")->capture_default_str();
}

int run_ssb_generate(const Cluster& cluster, const GenerateOptions& o) {
  const SsbGenerateResult result = generate_ssb_tables(cluster, {o.scale, o.seed, o.output_dir});
  if (cluster.rank() == 0) {
    fmt::print("hpcdb generate: SSB scale factor {} (seed {}) in {:.2f} s:\n", o.scale, o.seed, result.seconds);
    const ssb::CsvExportResult& written = result.written;
    for (std::size_t i = 0; i < written.rows.size(); ++i) {
      fmt::print("  {:<40} {:>14} rows {:>12}\n", ssb::csv_path(o.output_dir, written.rows[i].first),
                 format_grouped(written.rows[i].second), format_bytes(static_cast<double>(written.bytes[i].second)));
    }
  }
  return 0;
}

}  // namespace hpcdb
