/* Freestanding stubs (no libc on wasm32): only what vendor/xxhash.h includes. */
#pragma once
#define assert(x) ((void)0)
#define static_assert _Static_assert
