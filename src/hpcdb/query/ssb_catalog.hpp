#pragma once
// The SSB tables for the storage engine (schemas, primary keys, loading a
// key range from the generator) and the rendering of their stored values
// (vocabulary codes back to the benchmark's strings).
#include "hpcdb/data/ssb_generator.hpp"
#include "hpcdb/query/star_plan.hpp"
#include "hpcdb/storage/catalog.hpp"

namespace hpcdb::ssb {

// Table ids are TableId values (lineorder 0, customer 1, supplier 2, part 3,
// date 4). `generator` must outlive the catalog's loaders.
Catalog catalog(const Generator& generator);
ResultValue render_value(std::uint32_t table, std::uint16_t column, std::int64_t value);

}  // namespace hpcdb::ssb
