// Forge: locks, parking and per-thread state.
#include "CForge.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <fcntl.h>
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

// MARK: The rule for a child of fork()
//
// After `fork()` in a multithreaded process, POSIX allows the child only async-signal-safe calls until it calls
// `exec`: the child has only the thread that forked, and what the other threads held at that instant (a Forge lock,
// a creation under way, the Swift runtime's and Dispatch's own state) stays held, or half-changed, for good. Forge
// follows Dispatch and the Swift concurrency runtime, which support no such child: the prepare handler tells whether
// the parent has other threads, and the child handler then sets `forge_forked_child`, which stops the child's first
// call into Forge (`FastPathWord`). A child of a single-threaded parent goes on as its parent would have.

/// Whether the process had more than one thread when it last prepared to fork: written by the prepare handler, read
/// by the child's. Atomic, so that two threads forking at once stay defined (each then writes `true`).
static _Atomic(bool) forkingWithOtherThreads = false;

/// Whether the process has threads besides the calling one (platform branches below).
static bool forge_has_other_threads(void);

static void forge_fork_prepare(void) {
    __c11_atomic_store(&forkingWithOtherThreads, forge_has_other_threads(), __ATOMIC_RELAXED);
}

/// Runs in the child of every `fork()`, on its only thread.
static void forge_fork_child(void) {
    if (__c11_atomic_load(&forkingWithOtherThreads, __ATOMIC_RELAXED)) {
        __c11_atomic_fetch_or(&forge_resolution_flags.value, forge_forked_child, __ATOMIC_SEQ_CST);
    }
}

void forge_stop_in_forked_child(void) {
    forge_write_standard_error(
        "Forge: this process is a child of fork() whose parent had more than one thread, and it called Forge. After "
        "fork() in a multithreaded process, POSIX allows only async-signal-safe calls until exec: the child has only "
        "the thread that forked, and what the other threads held at that instant (locks, Forge's state, the Swift "
        "runtime's) stays as it was. Forge, like Dispatch and the Swift concurrency runtime, does not support such a "
        "child, and stops it. Call exec in the child (posix_spawn, or Foundation's Process, starts a program that "
        "way), or fork before starting any thread.\n");
    abort();
}

// MARK: Threads

_Thread_local forge_thread_state forge_thread = { 0, 0, 0 };
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
    forge_check(pthread_atfork(forge_fork_prepare, NULL, forge_fork_child), "pthread_atfork");
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

// MARK: Locks (Linux: a futex word)
//
// The word is 0 when the lock is free, 1 when it is held, and 2 when it is held and a thread may be waiting, so
// that the unlock wakes one (CForge.h).

enum { held = forge_lock_held, contended = forge_lock_contended };

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

void forge_lock_wait(_Atomic(uint32_t) *word) {
    // Spin a little first: Forge holds its locks for a few instructions.
    for (int spin = 0; spin < 100; spin++) {
        uint32_t free = 0;
        if (__c11_atomic_load(word, __ATOMIC_RELAXED) == 0 &&
            __c11_atomic_compare_exchange_weak(word, &free, held, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
            return;
        }
        forge_pause();
    }
    forge_stop_if_forked_child();  // the holder may be a thread this child does not have
    // Marked contended, so that the holder's unlock wakes a waiter; taken when the lock was free. The wait returns
    // at once if the word changed.
    while (__c11_atomic_exchange(word, contended, __ATOMIC_ACQUIRE) != 0) {
        forge_futex(word, FUTEX_WAIT_PRIVATE, contended);
    }
}

void forge_lock_wake(_Atomic(uint32_t) *word) { forge_futex(word, FUTEX_WAKE_PRIVATE, 1); }

// MARK: Parking (Linux: a futex on one sequence number)

static _Atomic(uint32_t) parkSequence = 0;

uint32_t forge_park_ticket(void) {
    forge_stop_if_forked_child();
    return __c11_atomic_load(&parkSequence, __ATOMIC_SEQ_CST);
}

void forge_park_wait(uint32_t ticket) { forge_futex(&parkSequence, FUTEX_WAIT_PRIVATE, ticket); }

void forge_park_wake_all(void) {
    forge_stop_if_forked_child();
    __c11_atomic_fetch_add(&parkSequence, 1, __ATOMIC_SEQ_CST);
    forge_futex(&parkSequence, FUTEX_WAKE_PRIVATE, INT_MAX);
}

// MARK: Threads of the process (Linux: the num_threads field of /proc/self/stat)

/// Read with system calls into a buffer on the stack, allocating nothing: `fork()` may be called from a signal
/// handler, where allocating is unsafe. Where /proc cannot be read, Forge cannot tell, and answers `false`: it stops
/// no child it cannot tell is one of a multithreaded parent.
static bool forge_has_other_threads(void) {
    char text[1024];
    int file = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
    if (file < 0) return false;
    size_t length = 0;
    while (length < sizeof text - 1) {
        ssize_t count = read(file, text + length, sizeof text - 1 - length);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) break;
        length += (size_t)count;
    }
    close(file);
    text[length] = 0;
    // "pid (name) state ppid …": the name may hold spaces and parentheses, so fields are counted after its last ')'.
    // num_threads is field 20: the 18th space after that parenthesis starts it.
    const char *field = strrchr(text, ')');
    for (int index = 3; field != NULL && index <= 20; index++) field = strchr(field + 1, ' ');
    if (field == NULL) return false;
    long threads = 0;
    for (const char *digit = field + 1; *digit >= '0' && *digit <= '9'; digit++) {
        threads = threads * 10 + (*digit - '0');
    }
    return threads > 1;
}

#elif defined(__APPLE__)

// MARK: Locks (Apple platforms: os_unfair_lock, which has the same 32-bit layout)
//
// Compile-checked on Linux (Tests/CForgeApple/check.sh, with stand-ins for os/lock.h and pthread.h); never built or
// run on an Apple platform.

void forge_lock_lock(uint32_t *word) {
    if (os_unfair_lock_trylock((os_unfair_lock *)word)) return;
    forge_stop_if_forked_child();  // the holder may be a thread this child does not have
    os_unfair_lock_lock((os_unfair_lock *)word);
}
void forge_lock_unlock(uint32_t *word) { os_unfair_lock_unlock((os_unfair_lock *)word); }

// MARK: Parking (Apple platforms: a mutex and a condition around one sequence number)

static pthread_mutex_t parkMutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t parkCondition = PTHREAD_COND_INITIALIZER;
static uint32_t parkSequence = 0;

uint32_t forge_park_ticket(void) {
    forge_stop_if_forked_child();
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
    forge_stop_if_forked_child();
    forge_check(pthread_mutex_lock(&parkMutex), "pthread_mutex_lock");
    parkSequence += 1;
    forge_check(pthread_cond_broadcast(&parkCondition), "pthread_cond_broadcast");
    forge_check(pthread_mutex_unlock(&parkMutex), "pthread_mutex_unlock");
}

// MARK: Threads of the process (Apple platforms)

/// Whether the process ever started a thread (`pthread_is_threaded_np`): a process that did is one whose child
/// Forge stops, even if that thread has ended since.
static bool forge_has_other_threads(void) { return pthread_is_threaded_np() != 0; }

#else
#error "Forge supports Linux and Apple platforms."
#endif
