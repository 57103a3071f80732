/*
 * error.c - diagnostics and small input helpers shared by every module, so
 * that each one reports problems the same way (code, position, message).
 */
#define _DEFAULT_SOURCE
#include "sgexplore.h"

#include <stdarg.h>
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

uint64_t sg_physical_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES);
    long size = sysconf(_SC_PAGE_SIZE);

    if (pages <= 0 || size <= 0)
        return 0;
    return (uint64_t)pages * (uint64_t)size;
}
