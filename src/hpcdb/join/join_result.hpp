#pragma once
// What one run of a distributed join reports (identical on every rank,
// except `pairs`, which holds this rank's share when materialized).
#include <cstdint>
#include <string>
#include <vector>

#include "hpcdb/core/phase_time.hpp"
#include "hpcdb/kernels/tuple.hpp"

namespace hpcdb {

struct EffectiveRadixSettings {
  unsigned network_bits = 0;
  unsigned local_bits = 0;
  std::vector<unsigned> local_passes;  // bits per local pass
  unsigned precounted_local_bits = 0;  // first local pass's bits counted in the histogram phase
  bool compressed = false;
  unsigned tuple_bytes = 16;  // bytes per tuple in windows
  unsigned key_bits = 0;      // bits the keys use
  unsigned rid_bits = 0;      // bits the rids use
  std::uint64_t build_splits = 0;     // oversized build partitions split
  std::uint64_t probe_splits = 0;     // oversized partitions shared by threads, or cut into slices for the node's ranks
  unsigned exchange_rounds = 0;       // scheduled network phase: synchronized rounds
  double exchange_waiting = 0;        // seconds in the barriers between rounds (slowest rank)
};

// How the ranks of each node shared their passes over the input.
struct NodeSharing {
  unsigned input_chunks = 0;      // chunks per rank fragment and relation
  bool node_wide = false;         // chunks handed out over the node (fragments node-shared)
  std::uint64_t peer_chunks = 0;  // chunks of co-located ranks' fragments partitioned by others
  bool partitions_shared = false;      // radix: partitions are joined over the node too
  std::uint64_t peer_partitions = 0;  // radix: partitions of co-located ranks joined by others
};

struct EffectiveSortMergeSettings {
  bool compressed = false;
  unsigned tuple_bytes = 16;
  unsigned key_bits = 0;  // bits of (max key - min key)
  unsigned rid_bits = 0;
  std::uint64_t runs_sent = 0;
  std::uint64_t narrow_key_runs = 0;  // of which sorted through 32-bit sort keys
  unsigned merge_levels = 0;  // deepest over ranks
  unsigned subranges = 1;     // key sub-ranges per rank
  std::uint64_t run_length = 0;  // longest run: the configured length, or less for small inputs
  bool simd = false;          // AVX2 sorting and merging
};

struct EffectiveRingSettings {
  bool presort = true;
  bool compressed = false;
  unsigned tuple_bytes = 16;
  unsigned key_bits = 0;  // bits of (max key - min key)
  unsigned rid_bits = 0;
  std::uint64_t chunk_bytes = 0;
};

struct EffectiveStreamSettings {
  bool compressed = false;
  unsigned tuple_bytes = 16;
  unsigned key_bits = 0;
  unsigned rid_bits = 0;
  std::uint64_t chunk_bytes = 0;
  std::uint64_t chunks = 0;  // broadcast, over all ranks' fragments (mpi)
  bool udp = false;          // UDP broadcast: datagrams sent first, resent, dropped on purpose, duplicates ignored
  std::uint64_t datagrams = 0;
  std::uint64_t resent = 0;
  std::uint64_t dropped_on_purpose = 0;
  std::uint64_t duplicates_seen = 0;
  std::uint64_t phases = 0;  // synchronization steps
};

struct JoinResult {
  std::uint64_t inner_tuples = 0;
  std::uint64_t outer_tuples = 0;
  std::uint64_t matches = 0;
  std::uint64_t checksum = 0;
  double seconds = 0;        // collective start to last rank done
  double imbalance = 0;      // max total - sum of mean phase times
  std::uint64_t bytes_sent = 0;       // to other ranks, all ranks together
  std::uint64_t bytes_put = 0;        // of which through MPI one-sided puts
  std::uint64_t puts = 0;
  std::vector<PhaseTime> phases;
  NodeSharing sharing;
  EffectiveRadixSettings radix;        // radix join only
  EffectiveSortMergeSettings sort_merge;  // sort-merge join only
  EffectiveRingSettings ring;             // cyclo join only
  EffectiveStreamSettings stream;         // broadcast join only
  std::vector<MatchPair> pairs;
};

}  // namespace hpcdb
