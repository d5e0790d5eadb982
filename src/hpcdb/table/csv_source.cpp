#include "hpcdb/table/csv_source.hpp"

#include <arrow/csv/api.h>
#include <arrow/io/file.h>
#include <arrow/table.h>

#include <algorithm>
#include <fstream>

#include "hpcdb/core/error.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/net/collectives.hpp"
#include "hpcdb/table/arrow_status.hpp"
#include "hpcdb/table/column_types.hpp"
#include "hpcdb/table/rank_exchange.hpp"
#include "hpcdb/table/memory_pool.hpp"

namespace hpcdb {
namespace {

// A piece of one file: bytes [begin, end), whole lines.
struct CsvPiece {
  std::size_t file = 0;
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
};

struct CsvFile {
  std::string path;
  std::uint64_t data_begin = 0;  // after the header line
  std::uint64_t size = 0;
  std::vector<std::string> names;
};

std::vector<std::string> split_header(const std::string& line, char delimiter) {
  std::vector<std::string> names;
  std::string name;
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    else if (c == delimiter && !quoted) names.push_back(std::exchange(name, {}));
    else if (c != '\r') name += c;
  }
  names.push_back(name);
  return names;
}

CsvFile describe(const std::string& path, char delimiter) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read CSV file '" + path + "'");
  std::string header;
  if (!std::getline(in, header) || header.empty()) throw UsageError("CSV file '" + path + "' has no header line");
  if (!header.empty() && static_cast<unsigned char>(header[0]) == 0xEF && header.rfind("\xEF\xBB\xBF", 0) == 0) {
    header.erase(0, 3);
  }
  CsvFile file{path, 0, 0, split_header(header, delimiter)};
  file.data_begin = static_cast<std::uint64_t>(in.tellg() < 0 ? 0 : static_cast<std::uint64_t>(in.tellg()));
  in.seekg(0, std::ios::end);
  file.size = static_cast<std::uint64_t>(in.tellg());
  if (file.data_begin > file.size) file.data_begin = file.size;
  return file;
}

// The first line start at or after `at` (the byte after a '\n' at or after at - 1).
std::uint64_t line_start(const CsvFile& file, std::uint64_t at) {
  if (at <= file.data_begin) return file.data_begin;
  if (at >= file.size) return file.size;
  std::ifstream in(file.path, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(at - 1));
  char c = 0;
  std::uint64_t position = at - 1;
  while (in.get(c)) {
    ++position;
    if (c == '\n') return position;
  }
  return file.size;
}

// This rank's pieces: an equal share of all files' data bytes, cut at line starts.
std::vector<CsvPiece> pieces_of(const std::vector<CsvFile>& files, int rank, int ranks) {
  std::uint64_t total = 0;
  for (const CsvFile& f : files) total += f.size - f.data_begin;
  __extension__ typedef unsigned __int128 Wide;
  const auto share = [&](int r) { return static_cast<std::uint64_t>(static_cast<Wide>(total) * static_cast<unsigned>(r) / static_cast<unsigned>(ranks)); };
  const std::uint64_t from = share(rank), to = share(rank + 1);
  std::vector<CsvPiece> pieces;
  std::uint64_t base = 0;
  for (std::size_t f = 0; f < files.size(); ++f) {
    const std::uint64_t bytes = files[f].size - files[f].data_begin;
    const std::uint64_t lo = std::max(from, base), hi = std::min(to, base + bytes);
    if (lo < hi) {
      CsvPiece piece{f, line_start(files[f], files[f].data_begin + lo - base), 0};
      piece.end = hi == base + bytes ? files[f].size : line_start(files[f], files[f].data_begin + hi - base);
      if (piece.begin < piece.end) pieces.push_back(piece);
    }
    base += bytes;
  }
  return pieces;
}

// Type codes the ranks agree on: 0 no value seen, 1 int64, 2 double, else
// 4 + the type's id (bool, date32, timestamp; all else is read as string).
std::uint64_t type_code(const arrow::DataType& type) {
  if (type.id() == arrow::Type::NA) return 0;
  if (type.id() == arrow::Type::INT64) return 1;
  if (type.id() == arrow::Type::DOUBLE) return 2;
  if (type.id() == arrow::Type::BOOL || type.id() == arrow::Type::DATE32 || type.id() == arrow::Type::TIMESTAMP) {
    return 4 + static_cast<std::uint64_t>(type.id());
  }
  return 4 + static_cast<std::uint64_t>(arrow::Type::STRING);
}

class CsvSource : public TableSource {
 public:
  CsvSource(const Cluster& cluster, const std::vector<std::string>& paths, const TableInput& input, std::string label)
      : cluster_(cluster), input_(input), label_(std::move(label)) {
    run_collectively(cluster_.world(), [&] { open(paths); });
  }

  const std::shared_ptr<arrow::Schema>& schema() const override { return projected_; }
  std::uint64_t total_rows() const override { return 0; }
  std::uint64_t estimated_bytes() const override { return data_bytes_; }
  TableFormat format() const override { return TableFormat::csv; }
  std::size_t files() const override { return files_.size(); }

  DistributedTable read(ProgressLine* progress) override {
    std::vector<std::shared_ptr<arrow::Table>> parts;
    run_collectively(cluster_.world(), [&] { parts = parse_all(given_types(), progress); });
    agree_types(parts);
    run_collectively(cluster_.world(), [&] {
      if (needs_second_pass(parts)) parts = parse_all(agreed_, nullptr);
    });
    DistributedTable table;
    table.schema = projected_;
    run_collectively(cluster_.world(), [&] {
      for (const auto& part : parts) {
        const auto cast = value_of(part->SelectColumns(column_indices(*part)), "CSV");
        DistributedTable share = from_arrow_table(value_of(cast->CombineChunks(table_memory_pool()), "CSV"));
        for (auto& batch : share.batches) {
          table.batches.push_back(value_of(batch->ReplaceSchema(projected_), "CSV columns of the " + label_ + " table"));
        }
      }
    });
    return table;
  }

 private:
  void open(const std::vector<std::string>& paths) {
    for (const std::string& path : paths) {
      files_.push_back(describe(path, input_.csv_delimiter));
      if (files_.back().names != files_.front().names) {
        throw UsageError("CSV files of the " + label_ + " table differ in their header ('" + files_.front().path + "', '" + path + "')");
      }
      data_bytes_ += files_.back().size - files_.back().data_begin;
    }
    for (const auto& [name, type] : input_.csv_types) {
      if (std::find(files_.front().names.begin(), files_.front().names.end(), name) == files_.front().names.end()) {
        throw UsageError("the " + label_ + " table has no column '" + name + "' to give a type");
      }
      given_[name] = parse_type_name(type, "the type of column '" + name + "'");
    }
    // The projection's names, checked against the header (types are known after reading).
    arrow::FieldVector fields;
    for (const std::string& name : files_.front().names) fields.push_back(arrow::field(name, arrow::utf8()));
    names_ = input_.columns.empty() ? files_.front().names : input_.columns;
    projected_ = project_schema(arrow::Schema(fields), names_, label_);
    pieces_ = pieces_of(files_, cluster_.rank(), cluster_.size());
  }

  std::unordered_map<std::string, std::shared_ptr<arrow::DataType>> given_types() const {
    return {given_.begin(), given_.end()};
  }

  std::vector<std::shared_ptr<arrow::Table>> parse_all(
      const std::unordered_map<std::string, std::shared_ptr<arrow::DataType>>& types, ProgressLine* progress) const {
    std::vector<std::shared_ptr<arrow::Table>> parts;
    for (const CsvPiece& piece : pieces_) {
      parts.push_back(parse(piece, types));
      if (progress) progress->add(static_cast<std::uint64_t>(parts.back()->num_rows()), piece.end - piece.begin);
    }
    return parts;
  }

  std::shared_ptr<arrow::Table> parse(const CsvPiece& piece,
                                      const std::unordered_map<std::string, std::shared_ptr<arrow::DataType>>& types) const {
    const CsvFile& file = files_[piece.file];
    const std::string what = "CSV file '" + file.path + "' (its lines from byte " + std::to_string(piece.begin) + ")";
    auto source = value_of(arrow::io::ReadableFile::Open(file.path), what);
    auto stream = value_of(arrow::io::RandomAccessFile::GetStream(source, static_cast<std::int64_t>(piece.begin),
                                                                  static_cast<std::int64_t>(piece.end - piece.begin)),
                           what);
    auto read = arrow::csv::ReadOptions::Defaults();
    read.use_threads = false;
    read.column_names = file.names;
    auto parse = arrow::csv::ParseOptions::Defaults();
    parse.delimiter = input_.csv_delimiter;
    auto convert = arrow::csv::ConvertOptions::Defaults();
    convert.column_types = types;
    convert.strings_can_be_null = true;
    convert.include_columns = names_;
    auto reader = arrow::csv::TableReader::Make(arrow::io::IOContext(table_memory_pool()), stream, read, parse, convert);
    if (!reader.ok()) throw UsageError(what + ": " + arrow_message(reader.status()));
    auto table = (*reader)->Read();
    if (!table.ok()) throw UsageError(what + ": " + arrow_message(table.status()));
    return *table;
  }

  // Every rank's inferred type per column; the agreed one for each.
  void agree_types(const std::vector<std::shared_ptr<arrow::Table>>& parts) {
    std::vector<std::uint64_t> mine(names_.size(), 0);
    for (const auto& part : parts) {
      for (std::size_t c = 0; c < names_.size(); ++c) mine[c] = widen(mine[c], type_code(*part->schema()->field(static_cast<int>(c))->type()));
    }
    const GatheredValues all = allgather_values(cluster_, mine);
    arrow::FieldVector fields;
    for (std::size_t c = 0; c < names_.size(); ++c) {
      std::uint64_t code = 0;
      for (int r = 0; r < cluster_.size(); ++r) code = widen(code, all.values[all.offsets[static_cast<std::size_t>(r)] + c]);
      std::shared_ptr<arrow::DataType> type = type_of_code(code);
      if (auto it = given_.find(names_[c]); it != given_.end()) type = it->second;
      agreed_[names_[c]] = type;
      fields.push_back(arrow::field(names_[c], type));
    }
    projected_ = arrow::schema(fields);
  }

  // The type that holds values of both codes.
  static std::uint64_t widen(std::uint64_t a, std::uint64_t b) {
    if (a == 0 || a == b) return b;
    if (b == 0) return a;
    if ((a == 1 && b == 2) || (a == 2 && b == 1)) return 2;
    return 4 + static_cast<std::uint64_t>(arrow::Type::STRING);
  }

  static std::shared_ptr<arrow::DataType> type_of_code(std::uint64_t code) {
    if (code == 1) return arrow::int64();
    if (code == 2) return arrow::float64();
    if (code < 4) return arrow::utf8();
    switch (static_cast<arrow::Type::type>(code - 4)) {
      case arrow::Type::BOOL: return arrow::boolean();
      case arrow::Type::DATE32: return arrow::date32();
      case arrow::Type::TIMESTAMP: return arrow::timestamp(arrow::TimeUnit::MICRO);
      default: return arrow::utf8();
    }
  }

  bool needs_second_pass(const std::vector<std::shared_ptr<arrow::Table>>& parts) const {
    for (const auto& part : parts) {
      for (std::size_t c = 0; c < names_.size(); ++c) {
        if (!part->schema()->field(static_cast<int>(c))->type()->Equals(*projected_->field(static_cast<int>(c))->type())) {
          return true;
        }
      }
    }
    return false;
  }

  std::vector<int> column_indices(const arrow::Table& part) const {
    std::vector<int> indices;
    for (const std::string& name : names_) indices.push_back(part.schema()->GetFieldIndex(name));
    return indices;
  }

  const Cluster& cluster_;
  TableInput input_;
  std::string label_;
  std::vector<CsvFile> files_;
  std::vector<std::string> names_;
  std::map<std::string, std::shared_ptr<arrow::DataType>> given_;
  std::unordered_map<std::string, std::shared_ptr<arrow::DataType>> agreed_;
  std::vector<CsvPiece> pieces_;
  std::shared_ptr<arrow::Schema> projected_;
  std::uint64_t data_bytes_ = 0;
};

}  // namespace

std::unique_ptr<TableSource> open_csv_source(const Cluster& cluster, const std::vector<std::string>& files,
                                             const TableInput& input, const std::string& label) {
  return std::make_unique<CsvSource>(cluster, files, input, label);
}

}  // namespace hpcdb
