// Forge: the C primitives behind Sources/Forge/Locking.swift. Nothing else in Forge uses this module.
#ifndef CFORGE_ATOMICS_H
#define CFORGE_ATOMICS_H

#include <stdint.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/// An atomic word-sized cell. Opaque to Swift; use the functions below.
typedef struct { _Atomic(intptr_t) value; } forge_atomic_word;

static inline intptr_t forge_atomic_load_acquire(forge_atomic_word *_Nonnull cell) {
    return __c11_atomic_load(&cell->value, __ATOMIC_ACQUIRE);
}
static inline void forge_atomic_store_release(forge_atomic_word *_Nonnull cell, intptr_t value) {
    __c11_atomic_store(&cell->value, value, __ATOMIC_RELEASE);
}
static inline intptr_t forge_atomic_exchange(forge_atomic_word *_Nonnull cell, intptr_t value) {
    return __c11_atomic_exchange(&cell->value, value, __ATOMIC_SEQ_CST);
}
/// Stores `desired` if the cell holds `expected`; returns whether it did.
static inline bool forge_atomic_compare_exchange(forge_atomic_word *_Nonnull cell, intptr_t expected,
                                                 intptr_t desired) {
    return __c11_atomic_compare_exchange_strong(&cell->value, &expected, desired, __ATOMIC_SEQ_CST,
                                                __ATOMIC_ACQUIRE);
}

/// Process-wide flags that tell a resolution whether it may take the fast path (all zero) or must look further:
/// bit 0, `AutoRegistering` has not run yet (set initially); bit 1, a decorator is set; bits 2 and up, how many
/// isolated worlds exist. A plain C global: reading it needs no lazy initialization.
extern forge_atomic_word forge_resolution_flags;

static inline intptr_t forge_resolution_flags_load(void) {
    return __c11_atomic_load(&forge_resolution_flags.value, __ATOMIC_ACQUIRE);
}
static inline intptr_t forge_resolution_flags_add(intptr_t delta) {
    return __c11_atomic_fetch_add(&forge_resolution_flags.value, delta, __ATOMIC_SEQ_CST) + delta;
}

/// Cycle detection: 0 until set, then 1 for off and 2 for on. A plain C global, read on every resolution.
extern forge_atomic_word forge_cycle_detection;

static inline intptr_t forge_cycle_detection_load(void) {
    return __c11_atomic_load(&forge_cycle_detection.value, __ATOMIC_RELAXED);
}
static inline void forge_cycle_detection_store(intptr_t value) {
    __c11_atomic_store(&forge_cycle_detection.value, value, __ATOMIC_RELAXED);
}

/// Reads a pointer that another thread may swap out and release at any moment, and marks it with this
/// thread's hazard pointer so that `forge_hazard_wait_unused` keeps the object alive until the caller has
/// retained it and called `forge_hazard_clear`. Returns NULL, with no hazard left set, when the cell holds NULL.
void *_Nullable forge_hazard_protect(forge_atomic_word *_Nonnull cell);
/// Ends the protection that `forge_hazard_protect` began on this thread.
void forge_hazard_clear(void);
/// Waits until no thread's hazard pointer names `pointer`. Call after swapping `pointer` out of its cell and
/// before releasing it.
void forge_hazard_wait_unused(void *_Nonnull pointer);

/// What one thread tracks while it resolves: how many factory closures are running, whether the graph scope
/// holds instances for the current top-level resolution, and the factories being made (for cycle detection).
typedef struct {
    intptr_t depth;
    intptr_t hasGraph;
    intptr_t chainCount;
    intptr_t chainCapacity;
    const void *_Nonnull *_Nullable chain;
} forge_thread_state;

extern _Thread_local forge_thread_state forge_thread;

/// One more factory closure runs on this thread; returns the new depth.
static inline intptr_t forge_depth_enter(void) { return ++forge_thread.depth; }
/// A factory closure returned; returns the new depth, 0 at the end of a top-level resolution.
static inline intptr_t forge_depth_leave(void) { return --forge_thread.depth; }
static inline intptr_t forge_depth(void) { return forge_thread.depth; }
static inline bool forge_has_graph(void) { return forge_thread.hasGraph != 0; }
static inline void forge_set_has_graph(bool value) { forge_thread.hasGraph = value; }

/// Appends `factory` to this thread's chain. Returns false, appending nothing, when it is already there.
bool forge_chain_push(const void *_Nonnull factory);
/// Removes the last entry of this thread's chain.
static inline void forge_chain_pop(void) { forge_thread.chainCount -= 1; }
static inline intptr_t forge_chain_count(void) { return forge_thread.chainCount; }
static inline const void *_Nonnull forge_chain_at(intptr_t index) { return forge_thread.chain[index]; }

/// Per-thread storage for one Swift object (the graph scope's instances). NULL until set.
void *_Nullable forge_thread_context(void);
/// Stores this thread's context. `destructor` is called with it when the thread exits.
void forge_set_thread_context(void *_Nullable context, void (*_Nonnull destructor)(void *_Nonnull));
/// An address unique to the calling thread while it lives, aligned to 8 bytes so its low 3 bits are free.
uintptr_t forge_thread_id(void);

/// A mutex, and a condition for waiting on it. Allocated and never moved.
typedef struct forge_mutex forge_mutex;
forge_mutex *_Nonnull forge_mutex_create(void);
void forge_mutex_destroy(forge_mutex *_Nonnull mutex);
void forge_mutex_lock(forge_mutex *_Nonnull mutex);
void forge_mutex_unlock(forge_mutex *_Nonnull mutex);
void forge_mutex_wait(forge_mutex *_Nonnull mutex);
void forge_mutex_broadcast(forge_mutex *_Nonnull mutex);

#ifdef __cplusplus
}
#endif
#endif
