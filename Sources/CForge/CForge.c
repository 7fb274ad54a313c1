// Forge: locks, parking and per-thread state.
#include "CForge.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#elif defined(__APPLE__)
#include <os/lock.h>
#endif

forge_atomic_word forge_resolution_flags = { 1 };
forge_atomic_word forge_cycle_detection = { 0 };

/// Stops the process when a call that cannot fail in a correct program fails.
static void forge_check(int error, const char *what) {
    if (error == 0) return;
    fprintf(stderr, "Forge: %s failed with error %d (%s). Please report this.\n", what, error, strerror(error));
    abort();
}

// MARK: Locks

/// 0 is an unlocked word on every platform (`OS_UNFAIR_LOCK_INIT` on Apple's).
void forge_lock_init(uint32_t *word) { __c11_atomic_store((_Atomic(uint32_t) *)word, 0, __ATOMIC_RELEASE); }

// MARK: Fork generation, and the locks held across a fork

_Atomic(uint32_t) forge_fork_generation_value = 1;

/// Runs in the child of every `fork()`, on its only thread.
static void forge_forked_child(void);

enum { forkLockCapacity = 8 };
static _Atomic(uintptr_t) forkLocks[forkLockCapacity];
static _Atomic(int) forkLockRanks[forkLockCapacity];
static _Atomic(int) forkLockCount = 0;

void forge_hold_across_fork(uint32_t *word, int rank) {
    int index = __c11_atomic_fetch_add(&forkLockCount, 1, __ATOMIC_RELAXED);
    if (index >= forkLockCapacity) {
        fprintf(stderr, "Forge: more than %d locks to hold across fork(). Please report this.\n", forkLockCapacity);
        abort();
    }
    __c11_atomic_store(&forkLockRanks[index], rank, __ATOMIC_RELAXED);
    __c11_atomic_store(&forkLocks[index], (uintptr_t)word, __ATOMIC_RELEASE);  // a lock registered mid-fork is skipped
}

/// The held locks, by rank then registration, as `forge_fork_prepare` takes them. Returns how many.
static int forge_fork_locks(uint32_t *locks[forkLockCapacity]) {
    int count = 0;
    int registered = __c11_atomic_load(&forkLockCount, __ATOMIC_RELAXED);
    if (registered > forkLockCapacity) registered = forkLockCapacity;
    for (int rank = 0; rank <= 1; rank++) {
        for (int index = 0; index < registered; index++) {
            uint32_t *word = (uint32_t *)__c11_atomic_load(&forkLocks[index], __ATOMIC_ACQUIRE);
            if (word != NULL && __c11_atomic_load(&forkLockRanks[index], __ATOMIC_RELAXED) == rank) {
                locks[count++] = word;
            }
        }
    }
    return count;
}

/// The locks `forge_fork_prepare` took, which the parent and child handlers release: exactly those, not the ones
/// registered since (a lazily made table whose first use came while prepare waited). A process runs one fork's
/// handlers at a time, so one list serves.
static uint32_t *forkTakenLocks[forkLockCapacity];
static int forkTakenCount = 0;

/// Forge never waits for anything while it holds a lock, so each of these is released soon.
static void forge_fork_prepare(void) {
    forkTakenCount = forge_fork_locks(forkTakenLocks);
    for (int index = 0; index < forkTakenCount; index++) forge_lock_lock(forkTakenLocks[index]);
}

static void forge_fork_parent(void) {
    for (int index = forkTakenCount - 1; index >= 0; index--) forge_lock_unlock(forkTakenLocks[index]);
}

/// In the child: the locks the prepare handler took are free again. Set rather than unlocked: an `os_unfair_lock`
/// belongs to a thread the child does not have.
static void forge_fork_child_release(void) {
    for (int index = 0; index < forkTakenCount; index++) forge_lock_init(forkTakenLocks[index]);
}

// MARK: Threads

_Thread_local forge_thread_state forge_thread = { 0, 0 };
static _Thread_local void *threadObject = NULL;
static _Thread_local void (*threadObjectRelease)(void *) = NULL;
static pthread_key_t threadObjectKey;

void *forge_thread_object(void) { return threadObject; }

/// The key's destructor. The object is unset before it is released: its release runs deinits, which may resolve
/// and so set a new object, which the system's next round of destructors releases.
static void forge_thread_object_exit(void *object) {
    void (*release)(void *) = threadObjectRelease;
    threadObject = NULL;
    threadObjectRelease = NULL;
    if (release != NULL) release(object);
}

void forge_set_thread_object(void *object, void (*release)(void *)) {
    threadObject = object;
    threadObjectRelease = release;
    forge_check(pthread_setspecific(threadObjectKey, object), "pthread_setspecific");
}

__attribute__((constructor)) static void forge_load(void) {
    forge_check(pthread_key_create(&threadObjectKey, forge_thread_object_exit), "pthread_key_create");
    forge_check(pthread_atfork(forge_fork_prepare, forge_fork_parent, forge_forked_child), "pthread_atfork");
}

/// What `forge_thread_start` hands the new thread.
typedef struct {
    void (*body)(void *);
    void *context;
} forge_thread_start_arguments;

static void *forge_thread_main(void *raw) {
    forge_thread_start_arguments arguments = *(forge_thread_start_arguments *)raw;
    free(raw);
    arguments.body(arguments.context);
    return NULL;
}

int forge_thread_start(void (*body)(void *), void *context) {
    forge_thread_start_arguments *arguments = malloc(sizeof *arguments);
    if (arguments == NULL) return ENOMEM;
    arguments->body = body;
    arguments->context = context;
    pthread_attr_t attributes;
    forge_check(pthread_attr_init(&attributes), "pthread_attr_init");
    forge_check(pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED), "pthread_attr_setdetachstate");
    // The same stack a process's main thread gets by default, so that a graph that resolves on the main thread
    // resolves here too.
    forge_check(pthread_attr_setstacksize(&attributes, 8 * 1024 * 1024), "pthread_attr_setstacksize");
    int error = pthread_create(&(pthread_t){0}, &attributes, forge_thread_main, arguments);
    forge_check(pthread_attr_destroy(&attributes), "pthread_attr_destroy");
    if (error != 0) free(arguments);
    return error;
}

void forge_block_forever(void) {
    pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t condition = PTHREAD_COND_INITIALIZER;
    forge_check(pthread_mutex_lock(&mutex), "pthread_mutex_lock");
    for (;;) forge_check(pthread_cond_wait(&condition, &mutex), "pthread_cond_wait");
}

#if defined(__linux__)

// MARK: Locks (Linux: a futex word that knows which process generation took it, and whether to change the state)
//
// The word is 0 when the lock is free. Otherwise its low two bits are 1 (held) or 2 (held, and a thread may be
// waiting), the third bit says whether the holder may change the state the lock guards, and the bits above hold
// the fork generation of the holder (CForge.h). A child of `fork()` has only the thread that forked, which holds no
// Forge lock (Forge never calls out while it holds one), so a word from an older generation belongs to a thread
// the child does not have. If that thread only read, the child takes the lock over instead of waiting forever; if
// it may have been writing, what the lock guards may be half-written (a dictionary caught mid-insert), and the
// child stops with a message rather than crash on it, or loop forever in it.

enum {
    held = forge_lock_held,
    contended = forge_lock_contended,
    stateBits = 3u,
    ownerBits = stateBits | forge_lock_writing,
};

static void forge_stop_on_half_written_state(void) {
    forge_write_standard_error(
        "Forge: this process is a child of fork(), and when its parent forked, another thread of the parent was "
        "changing Forge's state that this child now needs (registrations, a scope's instances or a creation under "
        "way). That thread does not exist here, and the state may be half-written, so Forge stops rather than use "
        "it. Fork before other threads use Forge, or call exec in the child: after fork() in a multithreaded "
        "process, POSIX allows only async-signal-safe calls until exec.\n");
    abort();
}

static long forge_futex(_Atomic(uint32_t) *word, int operation, uint32_t value) {
    return syscall(SYS_futex, (uint32_t *)word, operation, value, NULL, NULL, 0);
}

static inline void forge_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}

void forge_lock_wait(_Atomic(uint32_t) *word, uint32_t mine) {
    uint32_t generation = mine & ~ownerBits;
    // Spin a little first: Forge holds its locks for a few instructions.
    for (int spin = 0; spin < 100; spin++) {
        uint32_t free = 0;
        if (__c11_atomic_load(word, __ATOMIC_RELAXED) == 0 &&
            __c11_atomic_compare_exchange_weak(word, &free, mine | held, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
            return;
        }
        forge_pause();
    }
    while (true) {
        uint32_t seen = __c11_atomic_load(word, __ATOMIC_RELAXED);
        if (seen != 0 && (seen & ~ownerBits) != generation) {
            // Held by a thread that did not survive a fork.
            if ((seen & forge_lock_writing) != 0) forge_stop_on_half_written_state();
            // It only read: what the lock guards is whole. Take it over.
            if (__c11_atomic_compare_exchange_strong(word, &seen, mine | contended, __ATOMIC_ACQUIRE,
                                                     __ATOMIC_RELAXED)) {
                return;
            }
            continue;
        }
        if (seen == 0) {
            // Free. Mark it contended: others may wait.
            if (__c11_atomic_compare_exchange_strong(word, &seen, mine | contended, __ATOMIC_ACQUIRE,
                                                     __ATOMIC_RELAXED)) {
                return;
            }
            continue;
        }
        if ((seen & stateBits) == held &&
            !__c11_atomic_compare_exchange_strong(word, &seen, (seen & ~stateBits) | contended, __ATOMIC_RELAXED,
                                                  __ATOMIC_RELAXED)) {
            continue;
        }
        // Returns at once if the word changed.
        forge_futex(word, FUTEX_WAIT_PRIVATE, (seen & ~stateBits) | contended);
    }
}

void forge_lock_wake(_Atomic(uint32_t) *word) { forge_futex(word, FUTEX_WAKE_PRIVATE, 1); }

// MARK: Parking (Linux: a futex on one sequence number)

static _Atomic(uint32_t) parkSequence = 0;

uint32_t forge_park_ticket(void) { return __c11_atomic_load(&parkSequence, __ATOMIC_SEQ_CST); }

void forge_park_wait(uint32_t ticket) { forge_futex(&parkSequence, FUTEX_WAIT_PRIVATE, ticket); }

void forge_park_wake_all(void) {
    __c11_atomic_fetch_add(&parkSequence, 1, __ATOMIC_SEQ_CST);
    forge_futex(&parkSequence, FUTEX_WAKE_PRIVATE, INT_MAX);
}

static void forge_forked_child(void) {
    forge_fork_child_release();
    __c11_atomic_fetch_add(&forge_fork_generation_value, 1, __ATOMIC_RELAXED);
}

#elif defined(__APPLE__)

// MARK: Locks (Apple platforms: os_unfair_lock, which has the same 32-bit layout)
//
// Compile-checked on Linux (Tests/CForgeApple/check.sh, with a stand-in os/lock.h); never built or run on an Apple
// platform. A child of `fork()` that needs a lock another thread held at the fork waits for it forever here; on
// Linux it takes over one held to read, and stops with a message on one held to change the state.

void forge_lock_lock(uint32_t *word) { os_unfair_lock_lock((os_unfair_lock *)word); }
void forge_lock_lock_reading(uint32_t *word) { os_unfair_lock_lock((os_unfair_lock *)word); }
void forge_lock_unlock(uint32_t *word) { os_unfair_lock_unlock((os_unfair_lock *)word); }

// MARK: Parking (Apple platforms: a mutex and a condition around one sequence number)

static pthread_mutex_t parkMutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t parkCondition = PTHREAD_COND_INITIALIZER;
static uint32_t parkSequence = 0;

uint32_t forge_park_ticket(void) {
    forge_check(pthread_mutex_lock(&parkMutex), "pthread_mutex_lock");
    uint32_t ticket = parkSequence;
    forge_check(pthread_mutex_unlock(&parkMutex), "pthread_mutex_unlock");
    return ticket;
}

void forge_park_wait(uint32_t ticket) {
    forge_check(pthread_mutex_lock(&parkMutex), "pthread_mutex_lock");
    while (parkSequence == ticket) forge_check(pthread_cond_wait(&parkCondition, &parkMutex), "pthread_cond_wait");
    forge_check(pthread_mutex_unlock(&parkMutex), "pthread_mutex_unlock");
}

void forge_park_wake_all(void) {
    forge_check(pthread_mutex_lock(&parkMutex), "pthread_mutex_lock");
    parkSequence += 1;
    forge_check(pthread_cond_broadcast(&parkCondition), "pthread_cond_broadcast");
    forge_check(pthread_mutex_unlock(&parkMutex), "pthread_mutex_unlock");
}

static void forge_forked_child(void) {
    forge_fork_child_release();
    __c11_atomic_fetch_add(&forge_fork_generation_value, 1, __ATOMIC_RELAXED);
    // Other threads' waits did not survive the fork; start the mutex and condition afresh.
    pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t condition = PTHREAD_COND_INITIALIZER;
    parkMutex = mutex;
    parkCondition = condition;
}

#else
#error "Forge supports Linux and Apple platforms."
#endif
