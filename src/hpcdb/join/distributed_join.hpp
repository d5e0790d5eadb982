#pragma once
// What the command line needs of a distributed join operator: set up once
// for two relations, then run (collectively) as often as asked.
#include "hpcdb/data/relation.hpp"
#include "hpcdb/join/join_result.hpp"

namespace hpcdb {

class DistributedJoin {
 public:
  virtual ~DistributedJoin() = default;
  virtual JoinResult run(const Relation& inner, const Relation& outer) = 0;
};

}  // namespace hpcdb
