#include "hpcdb/api/generate.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/memory.hpp"
#include "hpcdb/core/output_path.hpp"
#include "hpcdb/core/stopwatch.hpp"
#include "hpcdb/data/relation_file.hpp"
#include "hpcdb/data/relation_source.hpp"
#include "hpcdb/data/shared_file_writer.hpp"
#include "hpcdb/net/agreement.hpp"

namespace hpcdb {
namespace {

// Decimal digits of all of 0, 1, ..., n - 1 (numbers in [low, high) have
// `width` digits).
std::uint64_t digits_below(std::uint64_t n) {
  std::uint64_t digits = 0;
  std::uint64_t low = 0;
  std::uint64_t high = 10;
  for (std::uint64_t width = 1; low < n; ++width) {
    digits += width * (std::min(n, high) - low);
    low = high;
    if (high > std::numeric_limits<std::uint64_t>::max() / 10) break;
    high *= 10;
  }
  return digits;
}

// The size of a relation file of `tuples` generated tuples: exact for
// binary files; for CSV, with every key one digit long (rids are 0..n-1).
std::uint64_t file_bytes_at_least(const std::string& path, std::uint64_t tuples) {
  if (format_for_path(path) == FileFormat::binary) return tuples * sizeof(Tuple);
  return std::string_view("key,rid\n").size() + digits_below(tuples) + 3 * tuples;
}

void check(const Cluster& cluster, const GenerateRequest& r) {
  if (r.output_r.empty() || r.output_s.empty()) {
    throw UsageError("hpcdb generate needs --output-r and --output-s (or --ssb for the Star Schema Benchmark's tables)");
  }
  validate(r.workload);
  if (r.threads < 1 || r.threads > 1024) throw UsageError("--threads must be between 1 and 1024");
  // The fragments are generated in node-shared memory before they are written.
  const WorkloadSpec& w = r.workload;
  const std::uint64_t per_node = (w.inner_tuples + w.outer_tuples) / static_cast<std::uint64_t>(cluster.size()) *
                                 sizeof(Tuple) * static_cast<std::uint64_t>(cluster.node_size());
  if (const std::optional<std::string> shortfall = memory_shortfall(per_node)) {
    throw UsageError("generating these relations " + *shortfall + "; use smaller --inner/--outer or more nodes");
  }
  if (const std::optional<std::string> shortfall = shared_memory_shortfall(per_node)) {
    throw UsageError("generating these relations " + *shortfall + ", or use smaller --inner/--outer");
  }
  if (cluster.rank() != 0) return;
  check_output_path(r.output_r, "file", StandardOutput::refused);
  check_output_path(r.output_s, "file", StandardOutput::refused);
  refuse_same_files({{"--output-r", r.output_r}, {"--output-s", r.output_s}}, {});
  check_output_space({{r.output_r, file_bytes_at_least(r.output_r, w.inner_tuples)},
                      {r.output_s, file_bytes_at_least(r.output_s, w.outer_tuples)}},
                     "file");
}

}  // namespace

GenerateResult generate_relations_to_files(const Cluster& cluster, const GenerateRequest& request) {
  run_collectively(cluster.world(), [&] { check(cluster, request); });
  Stopwatch watch;
  // Both files appear together, or neither does.
  SharedFileWriter file_r(cluster, request.output_r, "file");
  SharedFileWriter file_s(cluster, request.output_s, "file");
  const InputRelations inputs = generate_relations(cluster, request.workload, request.threads);
  write_relation_file(file_r, inputs.inner);
  write_relation_file(file_s, inputs.outer);
  file_r.commit();
  file_s.commit();
  return {watch.seconds(), expected_matches(request.workload)};
}

SsbGenerateResult generate_ssb_tables(const Cluster& cluster, const SsbGenerateRequest& request) {
  ssb::Scale scale;
  run_collectively(cluster.world(), [&] {
    scale = ssb::scale_of(request.scale);
    struct stat info {};
    if (stat(request.output_dir.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
      throw UsageError("--output-dir '" + request.output_dir + "' is not an existing directory");
    }
  });
  Stopwatch watch;
  const ssb::Generator generator(scale, request.seed);
  SsbGenerateResult result;
  result.written = ssb::write_csv_tables(cluster, generator, request.output_dir);
  result.seconds = watch.seconds();
  return result;
}

}  // namespace hpcdb
