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
        /* Twice the message's room: enough to see that a message is too
         * long, and a separate buffer, so that err->msg may be one of the
         * arguments. */
        char raw[2 * sizeof err->msg];
        va_list ap;
        int n;

        va_start(ap, fmt);
        n = vsnprintf(raw, sizeof raw, fmt, ap);
        va_end(ap);
        if (n < 0)
            raw[0] = '\0';
        else if ((size_t)n >= sizeof raw)
            /* Cut visibly: sg_escape adds "..." only when its own output
             * does not fit. */
            memcpy(raw + sizeof raw - 4, "...", 4);
        err->code = code;
        err->pos = pos;
        sg_escape(err->msg, sizeof err->msg, raw, SG_ESCAPE_KEEP_BACKSLASH);
    }
    return code;
}

sg_status sgi_parse_u63(uint64_t *out, const char *text, size_t len, long pos,
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

/* Whether the character at u becomes an escape (\n, \xNN, ...). */
static int escaped_at(const unsigned char *u)
{
    size_t len = sg_utf8_len((const char *)u, 4);

    if (len == 0)
        return 1;
    if (len == 1)
        return u[0] < 0x20 || u[0] == 0x7f;
    /* U+0080..U+009F, the C1 controls: 0xC2 0x80..0x9F */
    return len == 2 && u[0] == 0xc2 && u[1] < 0xa0;
}

/* The escaped form of the character at u into piece (NUL-terminated, at
 * most 8 bytes and the NUL: a C1 control as two \xNN); returns its
 * length, *used the bytes of text it stands for. */
static size_t escape_piece(char piece[16], const unsigned char *u,
                           unsigned flags, size_t *used)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t len = sg_utf8_len((const char *)u, 4), i;

    if (len == 0)
        len = 1;
    *used = len;
    if (u[0] == '\\') {
        unsigned char c = u[1];
        int twice = !(flags & SG_ESCAPE_KEEP_BACKSLASH) && c &&
                    (strchr("\\nrtx", c) || escaped_at(u + 1));
        memcpy(piece, "\\\\", 3);
        piece[twice ? 2 : 1] = '\0';
        return twice ? 2 : 1;
    }
    if (!escaped_at(u)) {
        memcpy(piece, u, len);
        piece[len] = '\0';
        return len;
    }
    if (u[0] == '\n' || u[0] == '\r' || u[0] == '\t') {
        piece[0] = '\\';
        piece[1] = u[0] == '\n' ? 'n' : u[0] == '\r' ? 'r' : 't';
        piece[2] = '\0';
        return 2;
    }
    for (i = 0; i < len; i++) {
        piece[4 * i] = '\\';
        piece[4 * i + 1] = 'x';
        piece[4 * i + 2] = hex[u[i] >> 4];
        piece[4 * i + 3] = hex[u[i] & 15];
    }
    piece[4 * len] = '\0';
    return 4 * len;
}

size_t sg_escape(char *out, size_t cap, const char *text, unsigned flags)
{
    const unsigned char *u = (const unsigned char *)text;
    char piece[16];
    size_t total = 0, o = 0, used, k;

    /* The whole length first: whether it fits decides where to cut. */
    while (*u) {
        total += escape_piece(piece, u, flags, &used);
        u += used;
    }
    if (cap == 0)
        return total;
    u = (const unsigned char *)text;
    while (*u) {
        k = escape_piece(piece, u, flags, &used);
        /* Room for the piece, and for "..." after it unless all fits. */
        if (o + k + (total < cap ? 0 : 3) > cap - 1)
            break;
        memcpy(out + o, piece, k);
        o += k;
        u += used;
    }
    if (*u && cap > 3) {
        memcpy(out + o, "...", 3);
        o += 3;
    }
    out[o] = '\0';
    return total;
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
