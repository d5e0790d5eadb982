#include "hpcdb/table/parquet_source.hpp"

#include <arrow/io/file.h>
#include <arrow/record_batch.h>
#include <parquet/arrow/reader.h>
#include <parquet/arrow/schema.h>
#include <parquet/file_reader.h>
#include <parquet/metadata.h>
#include <parquet/size_statistics.h>
#include <parquet/statistics.h>

#include <algorithm>

#include "hpcdb/core/error.hpp"
#include "hpcdb/table/arrow_status.hpp"
#include "hpcdb/table/column_types.hpp"
#include "hpcdb/table/row_gather.hpp"
#include "hpcdb/table/unit_file_source.hpp"
#include "hpcdb/table/memory_pool.hpp"

namespace hpcdb {
namespace {

std::string cannot_read_parquet(const std::string& path) { return "cannot read Parquet file '" + path + "'"; }

std::unique_ptr<parquet::arrow::FileReader> open_parquet_reader(const std::string& path) {
  // Mapped, so that the column chunks read ahead (pre-buffered) are the page
  // cache's pages, not copies in fresh memory (SF10: about 0.7 s of a rank's
  // CPU time went to zeroing and copying the read-ahead buffers); read where
  // the file system cannot map it.
  std::shared_ptr<arrow::io::RandomAccessFile> file;
  if (auto mapped = arrow::io::MemoryMappedFile::Open(path, arrow::io::FileMode::READ); mapped.ok()) {
    file = *std::move(mapped);
  } else {
    file = value_of(arrow::io::ReadableFile::Open(path), cannot_read_parquet(path));
  }
  parquet::ArrowReaderProperties properties(false);
  properties.set_pre_buffer(true);
  properties.set_batch_size(std::int64_t{1} << 16);
  // Decimals of up to 18 digits as Arrow's 64-bit decimals (9 digits:
  // 32-bit), the widths Parquet stores them in: half the bytes of
  // decimal128 to read, hold, move and write.
  properties.set_smallest_decimal_enabled(true);
  parquet::arrow::FileReaderBuilder builder;
  try {
    check_arrow(builder.Open(file, parquet::ReaderProperties(table_memory_pool())), cannot_read_parquet(path));
    builder.memory_pool(table_memory_pool());
    builder.properties(properties);
    return value_of(builder.Build(), cannot_read_parquet(path));
  } catch (const parquet::ParquetException& e) {
    throw UsageError(cannot_read_parquet(path) + ": " + e.what());
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
}

// A decimal of up to 9 or 18 digits as decimal32 or decimal64 (what the
// reader makes of it, unless the file's stored Arrow schema says decimal128:
// such columns are cast as they are read, as_engine_batch).
std::shared_ptr<arrow::DataType> narrowest_decimal(const std::shared_ptr<arrow::DataType>& type) {
  if (type->id() != arrow::Type::DECIMAL128) return type;
  const auto& decimal = static_cast<const arrow::DecimalType&>(*type);
  if (decimal.precision() <= 9) return arrow::decimal32(decimal.precision(), decimal.scale());
  if (decimal.precision() <= 18) return arrow::decimal64(decimal.precision(), decimal.scale());
  return type;
}

std::shared_ptr<arrow::Schema> schema_of(parquet::arrow::FileReader& reader, const std::string& path) {
  std::shared_ptr<arrow::Schema> schema;
  check_arrow(reader.GetSchema(&schema), "cannot read the schema of Parquet file '" + path + "'");
  arrow::FieldVector fields;
  for (const auto& field : schema->fields()) fields.push_back(field->WithType(narrowest_decimal(field->type())));
  return arrow::schema(fields, schema->metadata());
}

// The characters of a string column chunk: exact where the writer recorded
// them (Parquet's size statistics, which Arrow writes); else the larger of
// the chunk's size and the rows times the longer of its smallest and
// largest value (its statistics), as a dictionary-encoded chunk of a few
// distinct values stores far fewer bytes than its rows hold.
std::uint64_t string_characters(const parquet::ColumnChunkMetaData& chunk, std::uint64_t rows) {
  if (const std::shared_ptr<parquet::SizeStatistics> sizes = chunk.size_statistics();
      sizes && sizes->unencoded_byte_array_data_bytes) {
    return static_cast<std::uint64_t>(*sizes->unencoded_byte_array_data_bytes);
  }
  std::uint64_t characters = static_cast<std::uint64_t>(chunk.total_uncompressed_size());
  if (!chunk.is_stats_set()) return characters;
  const std::shared_ptr<parquet::Statistics> statistics = chunk.statistics();
  if (statistics && statistics->HasMinMax()) {
    const std::uint64_t longer = std::max(statistics->EncodeMin().size(), statistics->EncodeMax().size());
    characters = std::max(characters, longer * rows);
  }
  return characters;
}

// Bytes a column chunk of `rows` rows takes in memory as the engine holds
// it. Parquet's uncompressed size counts its encodings, far smaller for
// repetitive columns (a dictionary-encoded date of 2,526 distinct values
// takes under 2 bytes a row there, 4 here): fixed-width values are counted
// exactly, strings as their offsets and characters.
std::uint64_t in_memory_bytes(const arrow::DataType& type, const parquet::ColumnChunkMetaData& chunk,
                              std::uint64_t rows) {
  const std::uint64_t bitmap = (rows + 7) / 8;
  if (type.id() == arrow::Type::BOOL) return 2 * bitmap;
  if (is_string_type(type)) {
    return bitmap + (rows + 1) * static_cast<std::uint64_t>(string_offset_bytes(type)) + string_characters(chunk, rows);
  }
  if (!is_supported_column_type(type)) return static_cast<std::uint64_t>(chunk.total_uncompressed_size());
  return bitmap + rows * static_cast<std::uint64_t>(fixed_value_bytes(type));
}

// Units are row groups.
class ParquetSource : public UnitFileSource {
 public:
  ParquetSource(const Cluster& cluster, std::vector<std::string> files, const TableInput& input, std::string label)
      : UnitFileSource(cluster, std::move(files), std::move(label)) {
    open(input);
  }

  TableFormat format() const override { return TableFormat::parquet; }

 private:
  std::shared_ptr<arrow::Schema> read_schema(const std::string& path) override {
    return schema_of(*open_parquet_reader(path), path);
  }

  FileUnits describe_file(const std::string& path) override {
    auto reader = open_parquet_reader(path);
    require_first_schema(path, *schema_of(*reader, path));
    const std::vector<int> leaves = leaf_columns(*reader, path);
    const std::shared_ptr<parquet::FileMetaData> meta = reader->parquet_reader()->metadata();
    FileUnits units;
    for (int g = 0; g < meta->num_row_groups(); ++g) {
      const std::unique_ptr<parquet::RowGroupMetaData> group = meta->RowGroup(g);
      const auto rows = static_cast<std::uint64_t>(group->num_rows());
      units.unit_rows.push_back(rows);
      for (std::size_t c = 0; c < leaves.size(); ++c) {
        const auto type = engine_type(projected()->field(static_cast<int>(c))->type());
        units.projected_bytes += in_memory_bytes(*type, *group->ColumnChunk(leaves[c]), rows);
      }
    }
    return units;
  }

  void read_units(const std::string& path, const std::vector<int>& units, BatchAppender& append) override {
    auto reader = open_parquet_reader(path);
    const std::vector<int> leaves = leaf_columns(*reader, path);
    try {
      std::unique_ptr<arrow::RecordBatchReader> batches =
          value_of(reader->GetRecordBatchReader(units, leaves), cannot_read_parquet(path));
      for (;;) {
        std::shared_ptr<arrow::RecordBatch> batch;
        check_arrow(batches->ReadNext(&batch), cannot_read_parquet(path));
        if (!batch) break;
        append(batch, cannot_read_parquet(path));
      }
    } catch (const parquet::ParquetException& e) {
      throw UsageError(cannot_read_parquet(path) + ": " + e.what());
    }
  }

  // Leaf column indices of the projected fields (flat schemas: one leaf each).
  std::vector<int> leaf_columns(parquet::arrow::FileReader& reader, const std::string& path) const {
    const parquet::arrow::SchemaManifest& manifest = reader.manifest();
    std::vector<int> leaves;
    for (int index : projected_indices()) {
      const parquet::arrow::SchemaField& schema_field = manifest.schema_fields.at(static_cast<std::size_t>(index));
      if (!schema_field.is_leaf()) {
        throw UsageError("column '" + schema_field.field->name() + "' of '" + path + "' is nested");
      }
      leaves.push_back(schema_field.column_index);
    }
    return leaves;
  }
};

}  // namespace

std::unique_ptr<TableSource> open_parquet_source(const Cluster& cluster, const std::vector<std::string>& files,
                                                 const TableInput& input, const std::string& label) {
  return std::make_unique<ParquetSource>(cluster, files, input, label);
}

}  // namespace hpcdb
