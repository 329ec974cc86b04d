#ifndef CCAIRN_SHIMS_H
#define CCAIRN_SHIMS_H

/// Asks the processor to start loading the cache line at `address` (a hint: it changes no result).
static inline void cairn_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

/// Tells the processor this thread is spinning (lets a sibling hardware thread run; saves power).
static inline void cairn_spin_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}

#endif
