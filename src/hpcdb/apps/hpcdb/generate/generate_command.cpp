#include "hpcdb/apps/hpcdb/generate/generate_command.hpp"

#include "hpcdb/apps/hpcdb/generate/ssb_generate_command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/memory.hpp"
#include "hpcdb/core/output_path.hpp"
#include "hpcdb/core/stopwatch.hpp"
#include "hpcdb/core/units.hpp"
#include "hpcdb/data/relation_file.hpp"
#include "hpcdb/data/relation_source.hpp"
#include "hpcdb/data/workload_generator.hpp"
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

}  // namespace

void add_generate_options(CLI::App& generate, GenerateOptions& o) {
  generate.add_option("--inner", o.inner, "Tuples of R (K/M/G powers of ten, Ki/Mi/Gi powers of two)")->capture_default_str();
  generate.add_option("--outer", o.outer, "Tuples of S")->capture_default_str();
  generate.add_option("--zipf", o.zipf, "Zipf skew of the outer foreign keys (0 = uniform)")->capture_default_str();
  generate.add_option("--selectivity", o.selectivity, "Fraction of outer tuples that find a match")->capture_default_str();
  generate.add_option("--gaussian", o.gaussian, "Gaussian foreign keys, deviation as a fraction of |R| (0 = off)")
      ->capture_default_str();
  generate.add_option("--key-spacing", o.key_spacing, "Multiply every key by 2^BITS (8: all keys congruent modulo 2^8)")
      ->capture_default_str();
  generate.add_option("--seed", o.seed, "Seed (same data as 'hpcdb join' with the same options)")->capture_default_str();
  generate.add_option("--threads", o.threads, "Generator threads per rank")->capture_default_str();
  generate.add_option("--output-r", o.output_r, "File for R (CSV if it ends in .csv, else binary); required unless --ssb");
  generate.add_option("--output-s", o.output_s, "File for S; required unless --ssb");
  add_ssb_generate_options(generate, o);
}

int run_generate_command(const Cluster& cluster, const GenerateOptions& o) {
  if (o.ssb) return run_ssb_generate(cluster, o);
  run_collectively(cluster.world(), [&] {
    if (o.output_r.empty() || o.output_s.empty()) {
      throw UsageError("hpcdb generate needs --output-r and --output-s (or --ssb for the Star Schema Benchmark's tables)");
    }
  });
  WorkloadSpec spec;
  run_collectively(cluster.world(), [&] {
    spec = {parse_count(o.inner, "--inner"), parse_count(o.outer, "--outer"), o.zipf, o.selectivity, o.seed,
            o.gaussian, o.key_spacing};
    validate(spec);
    if (o.threads < 1 || o.threads > 1024) throw UsageError("--threads must be between 1 and 1024");
    // The fragments are generated in node-shared memory before they are written.
    const std::uint64_t per_node = (spec.inner_tuples + spec.outer_tuples) / static_cast<std::uint64_t>(cluster.size()) *
                                   sizeof(Tuple) * static_cast<std::uint64_t>(cluster.node_size());
    if (const std::optional<std::string> shortfall = memory_shortfall(per_node)) {
      throw UsageError("generating these relations " + *shortfall + "; use smaller --inner/--outer or more nodes");
    }
    if (const std::optional<std::string> shortfall = shared_memory_shortfall(per_node)) {
      throw UsageError("generating these relations " + *shortfall + ", or use smaller --inner/--outer");
    }
    if (cluster.rank() == 0) {
      check_output_path(o.output_r, "file", StandardOutput::refused);
      check_output_path(o.output_s, "file", StandardOutput::refused);
      refuse_same_files({{"--output-r", o.output_r}, {"--output-s", o.output_s}}, {});
      check_output_space({{o.output_r, file_bytes_at_least(o.output_r, spec.inner_tuples)},
                          {o.output_s, file_bytes_at_least(o.output_s, spec.outer_tuples)}},
                         "file");
    }
  });
  Stopwatch watch;
  // Both files appear together, or neither does.
  SharedFileWriter file_r(cluster, o.output_r, "file");
  SharedFileWriter file_s(cluster, o.output_s, "file");
  const InputRelations inputs = generate_relations(cluster, spec, o.threads);
  write_relation_file(file_r, inputs.inner);
  write_relation_file(file_s, inputs.outer);
  file_r.commit();
  file_s.commit();
  if (cluster.rank() == 0) {
    fmt::print("hpcdb generate: wrote R ({} tuples) to {} and S ({} tuples, {} matching) to {} in {:.2f} s\n",
               spec.inner_tuples, o.output_r, spec.outer_tuples, expected_matches(spec), o.output_s, watch.seconds());
  }
  return 0;
}

}  // namespace hpcdb
