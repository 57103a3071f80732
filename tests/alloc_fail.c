/*
 * alloc_fail.c - an LD_PRELOAD shim that makes the k-th heap allocation of
 * a process fail, for the allocation-failure test (tests/cli/alloc_fail.sh).
 *
 * It replaces malloc, calloc, realloc, posix_memalign and aligned_alloc
 * (strdup, strndup, getline, fopen and SQLite's and GMP's allocations all
 * go through these) and counts every call, from every thread:
 *
 *   SG_ALLOC_FAIL=k      the k-th call (1-based) returns NULL with ENOMEM;
 *                        unset or 0: none fails
 *   SG_ALLOC_FAIL_ALL=1  every call from the k-th on fails, not just one
 *   SG_ALLOC_COUNT=FILE  at exit, write the number of calls to FILE
 *
 * so that a script can count the allocations of a run once and then rerun
 * it failing each one in turn.  The real allocator is glibc's __libc_*
 * entry points, which need no dlsym (dlsym itself allocates).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void *__libc_memalign(size_t align, size_t n);

static unsigned long calls;   /* allocations so far */
static unsigned long fail_at; /* the call to fail; 0: none */
static int fail_all;          /* fail every call from fail_at on */
static int ready;             /* the environment was read */

/* Read the environment once, before main (getenv does not allocate). */
__attribute__((constructor)) static void alloc_fail_setup(void)
{
    const char *k = getenv("SG_ALLOC_FAIL");
    const char *all = getenv("SG_ALLOC_FAIL_ALL");

    fail_at = k ? strtoul(k, NULL, 10) : 0;
    fail_all = all && *all == '1';
    ready = 1;
}

/* Write the count without stdio, which might allocate. */
__attribute__((destructor)) static void alloc_fail_report(void)
{
    const char *path = getenv("SG_ALLOC_COUNT");
    char buf[32];
    int fd, len;

    if (!path)
        return;
    len = snprintf(buf, sizeof buf, "%lu\n",
                   __atomic_load_n(&calls, __ATOMIC_SEQ_CST));
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return;
    if (write(fd, buf, (size_t)len) != len) {
        /* nothing to do: the script then sees a short file */
    }
    close(fd);
}

/* Whether this call must fail. */
static int should_fail(void)
{
    unsigned long c = __atomic_add_fetch(&calls, 1, __ATOMIC_SEQ_CST);

    if (!ready || fail_at == 0)
        return 0;
    return fail_all ? c >= fail_at : c == fail_at;
}

void *malloc(size_t n)
{
    if (should_fail()) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
    if (should_fail()) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
    if (should_fail()) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_realloc(p, n);
}

int posix_memalign(void **out, size_t align, size_t n)
{
    void *p;

    if (should_fail())
        return ENOMEM;
    p = __libc_memalign(align, n);
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}

void *aligned_alloc(size_t align, size_t n)
{
    if (should_fail()) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_memalign(align, n);
}
