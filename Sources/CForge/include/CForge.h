// Forge: the C primitives behind Sources/Forge (locks, atomics, parking, thread state, the process's environment
// and clock). Nothing else talks to C.
#ifndef CFORGE_H
#define CFORGE_H

#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef __cplusplus
extern "C" {
#endif

// MARK: Atomic words

/// An atomic word-sized cell. Opaque to Swift; use the functions below.
typedef struct { _Atomic(intptr_t) value; } forge_atomic_word;

static inline intptr_t forge_atomic_load(forge_atomic_word *_Nonnull cell) {
    return __c11_atomic_load(&cell->value, __ATOMIC_ACQUIRE);
}
static inline void forge_atomic_store(forge_atomic_word *_Nonnull cell, intptr_t value) {
    __c11_atomic_store(&cell->value, value, __ATOMIC_RELEASE);
}
/// Adds `delta` and returns the new value.
static inline intptr_t forge_atomic_add(forge_atomic_word *_Nonnull cell, intptr_t delta) {
    return __c11_atomic_fetch_add(&cell->value, delta, __ATOMIC_SEQ_CST) + delta;
}

/// Process-wide flags that tell a resolution whether it may take the fast path (all zero) or must look further:
/// bit 0, `AutoRegistering` has not run yet (set initially); bit 1, a decorator is set; bit 2, resolutions are
/// traced; bit 3, captive dependencies are looked for; bit 4, the process is a child of `fork()` whose parent had
/// more than one thread (`forge_forked_child`); bits 5 to 15, how many creations of kept instances record what they
/// resolve now; bits 16 and up, how many isolated worlds exist (`FastPathWord`). A plain C global: reading it needs
/// no lazy initialization.
extern forge_atomic_word forge_resolution_flags;

static inline intptr_t forge_resolution_flags_load(void) { return forge_atomic_load(&forge_resolution_flags); }
static inline void forge_resolution_flags_add(intptr_t delta) { forge_atomic_add(&forge_resolution_flags, delta); }

// MARK: The rule for a child of fork()

/// The flag a `pthread_atfork` child handler sets in a child of `fork()` whose parent had more than one thread.
enum { forge_forked_child = 16 };

/// Stops the process with a message that says why: it is a child of `fork()` whose parent had more than one thread,
/// and it called Forge. POSIX allows such a child only async-signal-safe calls until it calls `exec`, and Forge,
/// like Dispatch and the Swift concurrency runtime, supports no more. Async-signal-safe itself: a write to standard
/// error, then `abort()`.
_Noreturn void forge_stop_in_forked_child(void);

/// Stops the process (`forge_stop_in_forked_child`) if it is a child of `fork()` whose parent had more than one
/// thread; otherwise returns at once, after one load.
static inline void forge_stop_if_forked_child(void) {
    if (__builtin_expect((forge_resolution_flags_load() & forge_forked_child) != 0, 0)) forge_stop_in_forked_child();
}

/// Cycle detection: 0 until set, then 1 for off and 2 for on. A plain C global, read on every resolution.
extern forge_atomic_word forge_cycle_detection;

static inline intptr_t forge_cycle_detection_load(void) {
    return __c11_atomic_load(&forge_cycle_detection.value, __ATOMIC_RELAXED);
}
static inline void forge_cycle_detection_store(intptr_t value) {
    __c11_atomic_store(&forge_cycle_detection.value, value, __ATOMIC_RELAXED);
}

// MARK: Locks

/// Initializes a lock word to unlocked: an atomic store, so that a thread sanitizer sees a word that a dead object
/// gave back (`LockWordPool`) handed to a new one without a race. A lock is a 32-bit word at a stable address that
/// nothing else touches.
void forge_lock_init(uint32_t *_Nonnull word);

// A thread that finds a lock held waits for the holder, except in a child of `fork()` whose parent had more than one
// thread: there the holder may be a thread the child does not have, and the child stops
// (`forge_stop_in_forked_child`) instead of waiting for it forever. A thread about to park does the same (Parking).

#if defined(__linux__)
/// The values of a lock word: 0 free, 1 held, 2 held with a thread that may be waiting (a futex lock, as in Ulrich
/// Drepper's "Futexes Are Tricky").
enum { forge_lock_held = 1u, forge_lock_contended = 2u };

/// The lock's slow path: waits while another thread holds it.
void forge_lock_wait(_Atomic(uint32_t) *_Nonnull word);
/// The lock's slow path: wakes a waiter.
void forge_lock_wake(_Atomic(uint32_t) *_Nonnull word);

/// Takes the lock, waiting while another thread holds it. The uncontended path is inline: one compare-and-swap.
static inline void forge_lock_lock(uint32_t *_Nonnull word) {
    _Atomic(uint32_t) *atomic = (_Atomic(uint32_t) *)word;
    uint32_t free = 0;
    if (__builtin_expect(!__c11_atomic_compare_exchange_strong(atomic, &free, forge_lock_held, __ATOMIC_ACQUIRE,
                                                               __ATOMIC_RELAXED), 0)) {
        forge_lock_wait(atomic);
    }
}

/// Releases the lock, which the calling thread holds. Without waiters: one exchange.
static inline void forge_lock_unlock(uint32_t *_Nonnull word) {
    _Atomic(uint32_t) *atomic = (_Atomic(uint32_t) *)word;
    if (__builtin_expect(__c11_atomic_exchange(atomic, 0, __ATOMIC_RELEASE) == forge_lock_contended, 0)) {
        forge_lock_wake(atomic);
    }
}
#else
/// Takes the lock, waiting while another thread holds it.
void forge_lock_lock(uint32_t *_Nonnull word);
/// Releases the lock, which the calling thread holds.
void forge_lock_unlock(uint32_t *_Nonnull word);
#endif

/// Reads a 32-bit word that its owner writes under a lock, without the lock.
static inline uint32_t forge_word_load(uint32_t *_Nonnull word) {
    return __c11_atomic_load((_Atomic(uint32_t) *)word, __ATOMIC_ACQUIRE);
}
/// Writes a 32-bit word that others read without a lock.
static inline void forge_word_store(uint32_t *_Nonnull word, uint32_t value) {
    __c11_atomic_store((_Atomic(uint32_t) *)word, value, __ATOMIC_RELEASE);
}

// MARK: Threads

/// Starts `body(context)` on a new detached thread with an 8 MiB stack. Returns 0, or `pthread_create`'s error.
int forge_thread_start(void (*_Nonnull body)(void *_Nullable), void *_Nullable context);
/// Blocks the calling thread for the rest of the process's life: what a thread that cannot return does.
_Noreturn void forge_block_forever(void);

// MARK: Parking

/// Threads that wait for a change made under some lock park here; one word serves the whole process.
/// The waiter reads a ticket while it still holds the lock under which it saw that it must wait, releases the
/// lock, and parks with the ticket. A waker changes the state under that lock, releases it, and wakes everyone.

/// Nobody misses a wake-up: a wake after the ticket was read makes `forge_park_wait` return at once. In a child of
/// `fork()` whose parent had more than one thread, stops the process instead: the thread to wait for may be one the
/// child does not have (`forge_stop_in_forked_child`).
uint32_t forge_park_ticket(void);
/// Parks until `forge_park_wake_all` is called after `ticket` was read. May return early; callers check again.
void forge_park_wait(uint32_t ticket);
/// Wakes every parked thread. Stops a child of `fork()` whose parent had more than one thread, as
/// `forge_park_ticket` does.
void forge_park_wake_all(void);

// MARK: Threads

/// How many factory closures are running on this thread, whether the graph scope holds instances for its current
/// top-level resolution, and how many resolutions began on it where live closures are reported (a count compared,
/// never read as a total). Plain values: nothing to free when the thread exits.
typedef struct {
    intptr_t depth;
    intptr_t hasGraph;
    intptr_t resolutions;
} forge_thread_state;

extern _Thread_local forge_thread_state forge_thread;

/// An address unique to the calling thread while it lives: its `forge_thread`'s. Inline: a creation's claim runs
/// fewer instructions (Benchmarks/README.md, "Design choices").
static inline uintptr_t forge_thread_id(void) { return (uintptr_t)&forge_thread; }

/// One more factory closure runs on this thread; returns the new depth.
static inline intptr_t forge_depth_enter(void) { return ++forge_thread.depth; }
/// A factory closure returned; returns the new depth, 0 at the end of a top-level resolution.
static inline intptr_t forge_depth_leave(void) { return --forge_thread.depth; }
static inline intptr_t forge_depth(void) { return forge_thread.depth; }
static inline bool forge_has_graph(void) { return forge_thread.hasGraph != 0; }
static inline void forge_set_has_graph(bool value) { forge_thread.hasGraph = value; }
/// One more resolution began on this thread where live closures are reported.
static inline void forge_note_resolution(void) { ++forge_thread.resolutions; }
static inline intptr_t forge_resolutions(void) { return forge_thread.resolutions; }

/// This thread's object (Forge keeps its per-thread tables in it), or NULL before one is set.
void *_Nullable forge_thread_object(void);
/// Sets this thread's object. When the thread exits, `release` is called with it, after the object is unset: a
/// thread-exit destructor that runs later and needs an object gets a new one, released in turn.
void forge_set_thread_object(void *_Nonnull object, void (*_Nonnull release)(void *_Nonnull));

// MARK: The process

/// The value of the environment variable `name`, or NULL.
static inline const char *_Nullable forge_environment_variable(const char *_Nonnull name) { return getenv(name); }

/// Writes `text` to standard error, unbuffered.
static inline void forge_write_standard_error(const char *_Nonnull text) {
    size_t length = strlen(text);
    while (length > 0) {
        ssize_t written = write(2, text, length);
        if (written <= 0) return;
        text += written;
        length -= (size_t)written;
    }
}

/// Seconds on a monotonic clock, for time-to-live.
static inline double forge_monotonic_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

#ifdef __cplusplus
}
#endif
#endif
