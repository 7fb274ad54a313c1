// A stand-in for Apple's <pthread.h>: the system's, and the one Apple extension Sources/CForge uses, so that the
// Apple branch of CForge.c can be compiled on Linux (Tests/CForgeApple/check.sh). The declaration follows Apple's SDK.
#ifndef FORGE_STAND_IN_PTHREAD_H
#define FORGE_STAND_IN_PTHREAD_H

#include_next <pthread.h>

int pthread_is_threaded_np(void);

#endif
