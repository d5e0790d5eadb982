#pragma once
// Choosing SIMD code for the processor at hand, in one place:
//   HPCDB_TARGET_AVX2      compiles a function for AVX2; call it only where
//                          cpu_has_avx2() (a branch chosen once);
//   HPCDB_CLONES_AVX2,     compile a function twice, for AVX2 (or POPCNT)
//   HPCDB_CLONES_POPCNT    and for the baseline; the loader picks one.
// Under ThreadSanitizer the clones are one baseline function: the loader
// runs their chooser (an ifunc resolver) before the sanitizer's runtime is
// up, and its instrumentation crashes there.

#define HPCDB_TARGET_AVX2 __attribute__((target("avx2")))
#define HPCDB_TARGET_AVX2_POPCNT __attribute__((target("avx2,popcnt")))

#if defined(__SANITIZE_THREAD__)
#define HPCDB_CLONES_AVX2
#define HPCDB_CLONES_POPCNT
#else
#define HPCDB_CLONES_AVX2 __attribute__((target_clones("avx2", "default")))
#define HPCDB_CLONES_POPCNT __attribute__((target_clones("popcnt", "default")))
#endif

namespace hpcdb {

// Whether this processor runs AVX2 (and POPCNT, which every AVX2 processor has).
inline bool cpu_has_avx2() {
  static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
  return avx2;
}

}  // namespace hpcdb
