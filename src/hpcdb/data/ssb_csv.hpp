#pragma once
// SSB rows as CSV lines, for other systems to load the data the engine runs
// on: comma-separated, a header line with the benchmark's column names,
// numbers as integers (money in cents, dates as yyyymmdd), every string in
// double quotes (cities keep their padding: "ALGERIA  0"; d_date holds a
// comma: "January 1, 1992"). No generated string contains a quote.
#include <string>
#include <string_view>

#include "hpcdb/data/ssb_rows.hpp"

namespace hpcdb::ssb {

enum class TableId : int { lineorder = 0, customer = 1, supplier = 2, part = 3, date = 4 };
constexpr int kTables = 5;
std::string_view table_name(TableId table);  // "lineorder", ..., "date"

// The header line (with its newline) of a table's CSV file.
std::string csv_header(TableId table);

void append_csv(std::string& out, const CustomerRow& r);
void append_csv(std::string& out, const SupplierRow& r);
void append_csv(std::string& out, const PartRow& r);
void append_csv(std::string& out, const LineorderRow& r);
// The DATE row of calendar day `day` (0 = 1992-01-01).
void append_date_csv(std::string& out, int day);

}  // namespace hpcdb::ssb
