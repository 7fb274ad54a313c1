// A stand-in for Apple's <os/lock.h>, with only what Sources/CForge uses, so that the Apple branch of CForge.c can be
// compiled on Linux (Tests/CForgeApple/check.sh). The declarations follow Apple's SDK.
#ifndef FORGE_STAND_IN_OS_LOCK_H
#define FORGE_STAND_IN_OS_LOCK_H

#include <stdbool.h>
#include <stdint.h>

typedef struct os_unfair_lock_s {
    uint32_t _os_unfair_lock_opaque;
} os_unfair_lock, *os_unfair_lock_t;

#define OS_UNFAIR_LOCK_INIT ((os_unfair_lock){0})

void os_unfair_lock_lock(os_unfair_lock_t lock);
bool os_unfair_lock_trylock(os_unfair_lock_t lock);
void os_unfair_lock_unlock(os_unfair_lock_t lock);

#endif
