#ifndef CCAIRN_SHIMS_H
#define CCAIRN_SHIMS_H

/// Asks the processor to start loading the cache line at `address` (a hint: it changes no result).
static inline void cairn_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

/// The value at `p`, read with acquire ordering (later reads see what was written before the matching release).
static inline int cairn_atomic_load_acquire(const int *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }

/// Writes `value` at `p` with release ordering (what was written before is seen by a matching acquire).
static inline void cairn_atomic_store_release(int *p, int value) { __atomic_store_n(p, value, __ATOMIC_RELEASE); }

/// Replaces the value at `p` by `desired` if it is `expected`, atomically; returns whether it did.
static inline int cairn_atomic_compare_exchange(int *p, int expected, int desired) {
    return __atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

/// Tells the processor this thread is spinning (lets a sibling hardware thread run; saves power).
static inline void cairn_spin_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}

#endif
