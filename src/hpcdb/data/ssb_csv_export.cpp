#include "hpcdb/data/ssb_csv_export.hpp"

#include <mpi.h>

#include <algorithm>

#include "hpcdb/data/shared_file_writer.hpp"
#include "hpcdb/data/ssb_calendar.hpp"
#include "hpcdb/net/agreement.hpp"

namespace hpcdb::ssb {
namespace {

std::int64_t keys_of(const Generator& g, TableId table) {
  switch (table) {
    case TableId::lineorder: return g.scale().orders;
    case TableId::customer: return g.scale().customers;
    case TableId::supplier: return g.scale().suppliers;
    case TableId::part: return g.scale().parts;
    case TableId::date: return kDays;
  }
  return 0;
}

// Formats the rows of keys [first, end) of `table`; returns the rows.
std::uint64_t format_chunk(const Generator& g, TableId table, std::int64_t first, std::int64_t end, std::string& out,
                           std::vector<LineorderRow>& lines) {
  std::uint64_t rows = 0;
  for (std::int64_t k = first; k < end; ++k) {
    switch (table) {
      case TableId::lineorder:
        lines.clear();
        g.order_lines(k, lines);
        for (const LineorderRow& r : lines) append_csv(out, r);
        rows += lines.size();
        continue;
      case TableId::customer: append_csv(out, g.customer(k + 1)); break;
      case TableId::supplier: append_csv(out, g.supplier(k + 1)); break;
      case TableId::part: append_csv(out, g.part(k + 1)); break;
      case TableId::date: append_date_csv(out, static_cast<int>(k)); break;
    }
    ++rows;
  }
  return rows;
}

}  // namespace

std::string csv_path(const std::string& directory, TableId table) {
  std::string path = directory.empty() ? "." : directory;
  if (path.back() != '/') path += '/';
  return path + std::string(table_name(table)) + ".csv";
}

CsvExportResult write_csv_tables(const Cluster& cluster, const Generator& generator, const std::string& directory,
                                 std::uint64_t chunk_rows) {
  CsvExportResult result;
  const auto ranks = static_cast<std::int64_t>(cluster.size());
  const auto chunk = static_cast<std::int64_t>(std::max<std::uint64_t>(chunk_rows, 1));
  for (int t = 0; t < kTables; ++t) {
    const auto table = static_cast<TableId>(t);
    const std::string path = csv_path(directory, table);
    SharedFileWriter file(cluster, path, "CSV file");
    const std::int64_t keys = keys_of(generator, table);
    const std::int64_t chunks = (keys + chunk - 1) / chunk;
    std::string text;
    std::vector<LineorderRow> lines;
    std::uint64_t rows = 0;
    std::uint64_t bytes = 0;
    for (std::int64_t round = 0; round * ranks < std::max<std::int64_t>(chunks, 1); ++round) {
      text.clear();
      if (round == 0 && cluster.rank() == 0) text += csv_header(table);
      const std::int64_t c = round * ranks + cluster.rank();
      run_collectively(cluster.world(), [&] {
        if (c < chunks) rows += format_chunk(generator, table, c * chunk, std::min(keys, (c + 1) * chunk), text, lines);
      });
      file.write(text.data(), text.size());
      bytes += text.size();
    }
    file.commit();
    std::uint64_t totals[2] = {rows, bytes};
    MPI_Allreduce(MPI_IN_PLACE, totals, 2, MPI_UINT64_T, MPI_SUM, cluster.world());
    result.rows.emplace_back(table, totals[0]);
    result.bytes.emplace_back(table, totals[1]);
  }
  return result;
}

}  // namespace hpcdb::ssb
