/*
 * fuzz.h - shared by the fuzz targets of tests/fuzz/.  Each target file
 * defines one entry point with SG_FUZZ_TARGET(name): built for libFuzzer
 * (`make fuzz`, tests/fuzz/run.sh) it is LLVMFuzzerTestOneInput; built
 * for the regression replay (tests/fuzz/replay.c, part of `make check`,
 * with -DSG_FUZZ_REPLAY) it is sg_fuzz_NAME, so that one program can feed
 * every saved input to every target with the normal build.
 */
#ifndef SG_FUZZ_H
#define SG_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef SG_FUZZ_REPLAY
#define SG_FUZZ_TARGET(name)                                                   \
    int sg_fuzz_##name(const uint8_t *data, size_t size);                      \
    int sg_fuzz_##name(const uint8_t *data, size_t size)
#else
#define SG_FUZZ_TARGET(name)                                                   \
    int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);              \
    int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
#endif

/* A NUL-terminated copy of the input (NULL when out of memory), so that
 * text parsers see the bytes exactly, embedded NULs cutting the text. */
static inline char *sg_fuzz_text(const uint8_t *data, size_t size)
{
    char *t = malloc(size + 1);

    if (t) {
        memcpy(t, data, size);
        t[size] = '\0';
    }
    return t;
}

/* A failed property: abort, so that libFuzzer (or the replay) reports it
 * with the input that caused it. */
#define SG_FUZZ_CHECK(cond)                                                    \
    do {                                                                       \
        if (!(cond))                                                           \
            abort();                                                           \
    } while (0)

#endif /* SG_FUZZ_H */
