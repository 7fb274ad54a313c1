// Forge: hazard pointers, thread-local resolution context and a mutex with a condition.
#include "CForgeAtomics.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#if defined(__linux__)
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

forge_atomic_word forge_resolution_flags = { 1 };
forge_atomic_word forge_cycle_detection = { 0 };

// MARK: Hazard pointers

/// One record a thread; records of exited threads are reused. Padded to two cache lines so that readers on
/// different threads never write to the same line, nor to a neighbour that the adjacent-line prefetcher of
/// x86 cores fetches together with it.
typedef struct forge_hazard_record {
    _Atomic(void *) hazard;
    _Atomic(int) inUse;
    struct forge_hazard_record *next;
} __attribute__((aligned(128))) forge_hazard_record;

static _Atomic(forge_hazard_record *) hazardHead = NULL;
static _Thread_local forge_hazard_record *threadRecord = NULL;
static pthread_key_t hazardKey;
static pthread_once_t hazardKeyOnce = PTHREAD_ONCE_INIT;

static void forge_hazard_release_record(void *record) {
    forge_hazard_record *r = (forge_hazard_record *)record;
    __c11_atomic_store(&r->hazard, NULL, __ATOMIC_RELEASE);
    __c11_atomic_store(&r->inUse, 0, __ATOMIC_RELEASE);
}

static void forge_hazard_make_key(void) { pthread_key_create(&hazardKey, forge_hazard_release_record); }

// MARK: Asymmetric fences
//
// A reader must make its hazard visible before it checks the cell again, which takes a full fence: on x86 a
// locked instruction on every cached hit. Where the kernel offers `membarrier`, the rare writer pays for that
// instead: it makes every thread of the process run a full fence before it scans the hazards, and readers only
// keep the compiler from reordering. Elsewhere both sides use full fences.

static bool asymmetricFences = false;  // written once, under `fenceModeOnce`, before any reader or writer uses it
static pthread_once_t fenceModeOnce = PTHREAD_ONCE_INIT;

static void forge_choose_fence_mode(void) {
#if defined(__linux__) && defined(__NR_membarrier)
    long supported = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    if (supported > 0 && (supported & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
        syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0) {
        asymmetricFences = true;
    }
#endif
}

/// The reader's side: orders its hazard store before its next load of the cell.
static inline void forge_light_fence(void) {
    if (asymmetricFences) {
        __c11_atomic_signal_fence(__ATOMIC_SEQ_CST);
    } else {
        __c11_atomic_thread_fence(__ATOMIC_SEQ_CST);
    }
}

/// The writer's side: after it, every hazard stored before a reader's next load of the cell is visible.
static void forge_heavy_fence(void) {
#if defined(__linux__) && defined(__NR_membarrier)
    if (asymmetricFences) {
        // Readers rely on it from now on, so there is no falling back to a plain fence. A child forked without
        // exec may have lost the registration: register again once before giving up.
        if (syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0) return;
        if (syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0 &&
            syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0) {
            return;
        }
        fputs("Forge: membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) failed after it was registered, so a reset "
              "cannot know that no thread still reads what it frees. Please report this with your kernel version.\n",
              stderr);
        abort();
    }
#endif
    __c11_atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static forge_hazard_record *forge_hazard_claim_record(void) {
    pthread_once(&fenceModeOnce, forge_choose_fence_mode);
    pthread_once(&hazardKeyOnce, forge_hazard_make_key);
    forge_hazard_record *record = NULL;
    for (forge_hazard_record *r = __c11_atomic_load(&hazardHead, __ATOMIC_ACQUIRE); r != NULL; r = r->next) {
        int expected = 0;
        if (__c11_atomic_compare_exchange_strong(&r->inUse, &expected, 1, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
            record = r;
            break;
        }
    }
    if (record == NULL) {
        record = (forge_hazard_record *)aligned_alloc(128, sizeof(forge_hazard_record));
        record->next = NULL;
        __c11_atomic_init(&record->hazard, NULL);
        __c11_atomic_init(&record->inUse, 1);
        forge_hazard_record *head = __c11_atomic_load(&hazardHead, __ATOMIC_RELAXED);
        do {
            record->next = head;
        } while (!__c11_atomic_compare_exchange_weak(&hazardHead, &head, record, __ATOMIC_RELEASE, __ATOMIC_RELAXED));
    }
    pthread_setspecific(hazardKey, record);
    threadRecord = record;
    return record;
}

void *forge_hazard_protect(forge_atomic_word *_Nonnull cell) {
    forge_hazard_record *record = threadRecord;
    if (__builtin_expect(record == NULL, 0)) record = forge_hazard_claim_record();
    void *pointer = (void *)__c11_atomic_load(&cell->value, __ATOMIC_ACQUIRE);
    while (pointer != NULL) {
        __c11_atomic_store(&record->hazard, pointer, __ATOMIC_RELAXED);
        forge_light_fence();
        void *again = (void *)__c11_atomic_load(&cell->value, __ATOMIC_ACQUIRE);
        if (again == pointer) return pointer;
        pointer = again;
    }
    // The cell was emptied while we looked: a hazard left behind would make a writer wait forever.
    __c11_atomic_store(&record->hazard, NULL, __ATOMIC_RELEASE);
    return NULL;
}

void forge_hazard_clear(void) {
    forge_hazard_record *record = threadRecord;
    if (record != NULL) __c11_atomic_store(&record->hazard, NULL, __ATOMIC_RELEASE);
}

void forge_hazard_wait_unused(void *_Nonnull pointer) {
    pthread_once(&fenceModeOnce, forge_choose_fence_mode);
    forge_heavy_fence();
    for (forge_hazard_record *r = __c11_atomic_load(&hazardHead, __ATOMIC_ACQUIRE); r != NULL; r = r->next) {
        while (__c11_atomic_load(&r->hazard, __ATOMIC_ACQUIRE) == pointer) sched_yield();
    }
}

// MARK: Thread state

_Thread_local forge_thread_state forge_thread = { 0, 0, 0, 0, NULL };
static pthread_key_t chainKey;
static pthread_once_t chainKeyOnce = PTHREAD_ONCE_INIT;

static void forge_chain_make_key(void) { pthread_key_create(&chainKey, free); }

bool forge_chain_push(const void *factory) {
    for (intptr_t i = 0; i < forge_thread.chainCount; i++) {
        if (forge_thread.chain[i] == factory) return false;
    }
    if (forge_thread.chainCount == forge_thread.chainCapacity) {
        intptr_t capacity = forge_thread.chainCapacity == 0 ? 16 : forge_thread.chainCapacity * 2;
        forge_thread.chain = (const void **)realloc((void *)forge_thread.chain, sizeof(void *) * (size_t)capacity);
        forge_thread.chainCapacity = capacity;
        pthread_once(&chainKeyOnce, forge_chain_make_key);
        pthread_setspecific(chainKey, (void *)forge_thread.chain);  // freed when the thread exits
    }
    forge_thread.chain[forge_thread.chainCount++] = factory;
    return true;
}

// MARK: Thread context

static _Thread_local void *threadContext = NULL;
static _Thread_local _Alignas(8) char threadIdentity;
static pthread_key_t contextKey;
static pthread_once_t contextKeyOnce = PTHREAD_ONCE_INIT;
static void (*contextDestructor)(void *) = NULL;

static void forge_context_exit(void *context) {
    threadContext = NULL;
    if (contextDestructor != NULL) contextDestructor(context);
}

static void forge_context_make_key(void) { pthread_key_create(&contextKey, forge_context_exit); }

void *forge_thread_context(void) { return threadContext; }

void forge_set_thread_context(void *context, void (*destructor)(void *)) {
    pthread_once(&contextKeyOnce, forge_context_make_key);
    contextDestructor = destructor;
    threadContext = context;
    pthread_setspecific(contextKey, context);
}

uintptr_t forge_thread_id(void) { return (uintptr_t)&threadIdentity; }

// MARK: Mutex

struct forge_mutex {
    pthread_mutex_t mutex;
    pthread_cond_t condition;
};

forge_mutex *forge_mutex_create(void) {
    forge_mutex *m = (forge_mutex *)malloc(sizeof(forge_mutex));
    pthread_mutex_init(&m->mutex, NULL);
    pthread_cond_init(&m->condition, NULL);
    return m;
}

void forge_mutex_destroy(forge_mutex *m) {
    pthread_cond_destroy(&m->condition);
    pthread_mutex_destroy(&m->mutex);
    free(m);
}

void forge_mutex_lock(forge_mutex *m) { pthread_mutex_lock(&m->mutex); }
void forge_mutex_unlock(forge_mutex *m) { pthread_mutex_unlock(&m->mutex); }
void forge_mutex_wait(forge_mutex *m) { pthread_cond_wait(&m->condition, &m->mutex); }
void forge_mutex_broadcast(forge_mutex *m) { pthread_cond_broadcast(&m->condition); }
