#pragma once
// Multi-way merge of up to a few dozen sorted runs with a tournament (loser)
// tree: one pass over the data whatever the fan-in, log2(fan-in) compares
// per output value.
#include <cstddef>
#include <vector>

namespace hpcdb {

template <class T>
struct SortedRun {
  const T* data = nullptr;
  std::size_t size = 0;
};

// Merges `runs` into out (which holds their total size). less(a, b) orders T.
template <class T, class Less>
void multiway_merge(const std::vector<SortedRun<T>>& runs, T* out, Less less) {
  const std::size_t k = runs.size();
  if (k == 0) return;
  std::vector<const T*> head(k), end(k);
  for (std::size_t i = 0; i < k; ++i) {
    head[i] = runs[i].data;
    end[i] = runs[i].data + runs[i].size;
  }
  // Leaf i beats leaf j if it still has data and its head is smaller (ties:
  // lower index, which keeps the merge stable).
  auto beats = [&](std::size_t i, std::size_t j) {
    if (head[i] == end[i]) return false;
    if (head[j] == end[j]) return true;
    if (less(*head[i], *head[j])) return true;
    if (less(*head[j], *head[i])) return false;
    return i < j;
  };
  // tree[1..k-1] hold losers; leaves sit at positions k..2k-1.
  std::vector<std::size_t> tree(k, 0);
  std::vector<std::size_t> winner_of(2 * k);
  for (std::size_t i = 0; i < k; ++i) winner_of[k + i] = i;
  for (std::size_t node = k - 1; node >= 1; --node) {
    const std::size_t a = winner_of[2 * node], b = winner_of[2 * node + 1];
    if (beats(a, b)) {
      winner_of[node] = a;
      tree[node] = b;
    } else {
      winner_of[node] = b;
      tree[node] = a;
    }
  }
  std::size_t winner = k == 1 ? 0 : winner_of[1];
  while (head[winner] != end[winner]) {
    *out++ = *head[winner]++;
    for (std::size_t node = (winner + k) / 2; node >= 1; node /= 2) {
      if (beats(tree[node], winner)) std::swap(tree[node], winner);
    }
  }
}

}  // namespace hpcdb
