#pragma once
// Whether a sanitizer watches this build's allocations. It sees the C
// library's malloc, not an allocator linked in from elsewhere (libarrow's
// jemalloc): memory it should check must come from malloc.
namespace hpcdb {

constexpr bool kAllocationsInstrumented =
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
    true;
#else
    false;
#endif
#else
    false;
#endif

}  // namespace hpcdb
