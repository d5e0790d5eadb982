#include "hpcdb/apps/hpcdb/generate/generate_command.hpp"

#include <fmt/format.h>

#include "hpcdb/api/generate.hpp"
#include "hpcdb/apps/hpcdb/generate/ssb_generate_command.hpp"
#include "hpcdb/core/units.hpp"
#include "hpcdb/net/agreement.hpp"

namespace hpcdb {

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
  GenerateRequest request;
  run_collectively(cluster.world(), [&] {
    request.workload = {parse_count(o.inner, "--inner"), parse_count(o.outer, "--outer"), o.zipf, o.selectivity, o.seed,
                        o.gaussian, o.key_spacing};
  });
  request.threads = o.threads;
  request.output_r = o.output_r;
  request.output_s = o.output_s;
  const GenerateResult result = generate_relations_to_files(cluster, request);
  if (cluster.rank() == 0) {
    fmt::print("hpcdb generate: wrote R ({} tuples) to {} and S ({} tuples, {} matching) to {} in {:.2f} s\n",
               request.workload.inner_tuples, o.output_r, request.workload.outer_tuples, result.expected_matches,
               o.output_s, result.seconds);
  }
  return 0;
}

}  // namespace hpcdb
