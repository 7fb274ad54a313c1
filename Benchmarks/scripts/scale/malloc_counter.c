// The counting pass of Benchmarks/scale.sh preloads this library (LD_PRELOAD): it counts every allocation and
// free, and the usable bytes held, then calls glibc's own allocator. The timing pass runs without it, because
// counting slows every malloc and would flatter ratios to an allocating floor.
#define _GNU_SOURCE
#include <errno.h>
#include <malloc.h>
#include <stddef.h>
#include <stdint.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static _Atomic uint64_t allocations;
static _Atomic uint64_t frees;
static _Atomic int64_t bytes;

static void *counted(void *pointer) {
    if (pointer) {
        allocations += 1;
        bytes += (int64_t)malloc_usable_size(pointer);
    }
    return pointer;
}

void *malloc(size_t size) { return counted(__libc_malloc(size)); }
void *calloc(size_t count, size_t size) { return counted(__libc_calloc(count, size)); }
void *memalign(size_t alignment, size_t size) { return counted(__libc_memalign(alignment, size)); }
void *aligned_alloc(size_t alignment, size_t size) { return counted(__libc_memalign(alignment, size)); }

int posix_memalign(void **out, size_t alignment, size_t size) {
    void *pointer = counted(__libc_memalign(alignment, size));
    if (!pointer) return ENOMEM;
    *out = pointer;
    return 0;
}

void free(void *pointer) {
    if (pointer) {
        frees += 1;
        bytes -= (int64_t)malloc_usable_size(pointer);
    }
    __libc_free(pointer);
}

void *realloc(void *pointer, size_t size) {
    if (!pointer) return malloc(size);
    int64_t before = (int64_t)malloc_usable_size(pointer);
    void *moved = __libc_realloc(pointer, size);
    if (moved) bytes += (int64_t)malloc_usable_size(moved) - before;
    return moved;
}

uint64_t scale_malloc_allocations(void) { return allocations; }
uint64_t scale_malloc_frees(void) { return frees; }
int64_t scale_malloc_bytes(void) { return bytes; }
