#!/usr/bin/env bash
# Compiles the Apple branch of Sources/CForge on Linux, with warnings as errors: clang with `__APPLE__` defined and
# `__linux__` not, and stand-ins for what it uses of Apple's headers (os/lock.h, and pthread.h's
# `pthread_is_threaded_np`, in this folder). A typo, a wrong type or a missing function in that branch fails here,
# although no Apple platform builds in CI.
#
#   Tests/CForgeApple/check.sh
#
# Works from any directory. Needs clang (the Swift toolchain's). It checks the C only: nothing is linked or run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
clang -fsyntax-only -std=gnu11 -Wall -Wextra -Werror -U__linux__ -D__APPLE__ \
    -I Tests/CForgeApple -I Sources/CForge/include Sources/CForge/CForge.c
echo "the Apple branch of Sources/CForge/CForge.c compiles"
