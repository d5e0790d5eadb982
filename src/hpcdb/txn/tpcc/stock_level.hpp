#pragma once
// TPC-C Stock-Level (clause 2.8.2), read-only: the number of distinct items
// among the lines of the district's last 20 orders whose stock at the home
// warehouse is below the threshold. The lines are a range scan of the
// district's order-line index (lines are appended in order id order); under
// serializable each line found is locked in S together with the key after the
// range (the district's supremum), so no order line can join the range until
// the end.
#include <vector>

#include "hpcdb/txn/tpcc/tpcc_inputs.hpp"
#include "hpcdb/txn/tpcc/tpcc_layout.hpp"
#include "hpcdb/txn/txn_program.hpp"

namespace hpcdb::tpcc {

class TpccRows;

struct StockLevelOutput {
  int low_stock = 0;
  int lines = 0;
};

class StockLevelProgram final : public TransactionProgram {
 public:
  explicit StockLevelProgram(const TpccLayout& layout) : layout_(layout) {}
  StockLevelInput input;
  StockLevelOutput output;
  ProgramEnd run(Transaction& txn) override;

 private:
  void scan_line(TpccRows& db, const StockLevelInput& in, std::uint64_t slot, std::uint64_t lowest, std::uint64_t next);

  const TpccLayout& layout_;
  std::vector<int> items_;
};

}  // namespace hpcdb::tpcc
