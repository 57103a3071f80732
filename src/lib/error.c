/*
 * error.c - diagnostics and small input helpers shared by every module, so
 * that each one reports problems the same way (code, position, message).
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "sgexplore.h"
#include "internal.h"

#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <unistd.h>

sg_status sg_error_set(sg_error *err, sg_status code, long pos, const char *fmt,
                       ...)
{
    if (err) {
        va_list ap;
        err->code = code;
        err->pos = pos;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}

sg_status sg_parse_u63(uint64_t *out, const char *text, size_t len, long pos,
                       sg_error *err)
{
    uint64_t v = 0;
    size_t i;

    if (len == 0)
        return sg_error_set(err, SG_E_INPUT, pos, "expected a number");
    for (i = 0; i < len; i++) {
        unsigned d;
        if (text[i] < '0' || text[i] > '9')
            return sg_error_set(err, SG_E_INPUT, pos + (long)i,
                                "unexpected character '%c' in a number",
                                text[i]);
        d = (unsigned)(text[i] - '0');
        if (v > ((uint64_t)INT64_MAX - d) / 10)
            return sg_error_set(err, SG_E_INPUT, pos,
                                "number '%.*s' is larger than 2^63-1",
                                (int)(len > 40 ? 40 : len), text);
        v = v * 10 + d;
    }
    *out = v;
    return SG_OK;
}

unsigned sg_threads_default(void)
{
    long n = 0;

#if defined(__linux__) && defined(CPU_COUNT)
    cpu_set_t set;

    if (sched_getaffinity(0, sizeof set, &set) == 0)
        n = CPU_COUNT(&set);
#endif
    if (n <= 0)
        n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        n = 1;
    return n > SG_THREADS_DEFAULT_MAX ? SG_THREADS_DEFAULT_MAX : (unsigned)n;
}

uint64_t sgi_physical_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES);
    long size = sysconf(_SC_PAGE_SIZE);

    if (pages <= 0 || size <= 0)
        return 0;
    return (uint64_t)pages * (uint64_t)size;
}

size_t sg_utf8_len(const char *text, size_t n)
{
    const unsigned char *s = (const unsigned char *)text;
    unsigned c = s[0];
    size_t len, i;
    uint32_t cp;

    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf) {
        len = 2;
        cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
        len = 3;
        cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
        (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
        return 0;
    return len;
}

int sg_grow(void *p, size_t *cap, size_t need, size_t size)
{
    size_t nc = *cap ? *cap : 16;
    void *old, *np;

    if (need <= *cap)
        return 0;
    if (size == 0)
        return -1;
    while (nc < need) {
        if (nc > SIZE_MAX / 2)
            return -1;
        nc *= 2;
    }
    if (nc > SIZE_MAX / size)
        return -1;
    /* p points at a T *; memcpy, not a cast to void **, keeps the access
     * to it well-defined whatever T is. */
    memcpy(&old, p, sizeof old);
    if (!(np = realloc(old, nc * size)))
        return -1;
    memcpy(p, &np, sizeof np);
    *cap = nc;
    return 0;
}
