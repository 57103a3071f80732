/*
 * fnv.h - internal to libsg: FNV-1a (64-bit), the one hash of the
 * library, and its text form "fnv1a64:" + 16 hex digits.  Certificates
 * use it for their checksum of G(0..bound) (prove.c, cert.c) because a
 * short script in any language can recompute it; the cache (store.c) uses
 * it to catch damage inside value chunks, which SQLite does not check.
 */
#ifndef SG_FNV_H
#define SG_FNV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SG_FNV_OFFSET 14695981039346656037ULL
#define SG_FNV_PRIME 1099511628211ULL

/* The prefix of the text form. */
#define SG_FNV_TAG "fnv1a64:"

/* h extended by the n bytes at p. */
static inline uint64_t sgi_fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    size_t i;

    for (i = 0; i < n; i++)
        h = (h ^ b[i]) * SG_FNV_PRIME;
    return h;
}

/* Bytes of the text form, with its terminating NUL. */
#define SG_FNV_TEXT (sizeof SG_FNV_TAG + 16)

/* Write the text form of h. */
static inline void sgi_fnv_format(char out[SG_FNV_TEXT], uint64_t h)
{
    snprintf(out, SG_FNV_TEXT, SG_FNV_TAG "%016llx", (unsigned long long)h);
}

/* Read the text form: SG_FNV_TAG and exactly 16 hex digits.  Returns 1
 * and sets *out, or 0 when text is anything else. */
static inline int sgi_fnv_parse(uint64_t *out, const char *text)
{
    const size_t tag = sizeof SG_FNV_TAG - 1;

    if (!text || strncmp(text, SG_FNV_TAG, tag) != 0 ||
        strlen(text) != tag + 16 ||
        strspn(text + tag, "0123456789abcdefABCDEF") != 16)
        return 0;
    *out = strtoull(text + tag, NULL, 16);
    return 1;
}

#endif /* SG_FNV_H */
