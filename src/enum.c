/*
 * enum.c - the enumerator: G(0..N-1) for any take-and-break rule.
 *
 * sg_enumerate is the single entry point every caller uses, so that faster
 * methods can replace the straightforward one here without touching them.
 * The method: for each heap n, mark the value of every option in a stamp
 * array (stamp n+1 means "present for heap n", so nothing is ever cleared)
 * and take the least unmarked value.
 */
#define _DEFAULT_SOURCE
#include "sgexplore.h"

#include <stdlib.h>
#include <string.h>

void sg_seq_init(sg_seq *s)
{
    memset(s, 0, sizeof *s);
}

void sg_seq_clear(sg_seq *s)
{
    free(s->data);
    memset(s, 0, sizeof *s);
}

/* Bytes a value takes at least, to hold v. */
static unsigned width_for(sg_value v)
{
    return v < 256 ? 1 : v < 65536 ? 2 : 4;
}

static sg_status check_bytes(size_t n, unsigned width, sg_error *err)
{
    uint64_t mem = sg_physical_memory();
    uint64_t need;

    if (n > SIZE_MAX / 8)
        return sg_error_set(err, SG_E_NOMEM, -1,
                            "%zu values cannot be held in memory", n);
    need = (uint64_t)n * width;
    if (mem && need > mem / 4 * 3)
        return sg_error_set(err, SG_E_NOMEM, -1,
                            "%zu values need %.1f GiB of memory; this machine "
                            "has %.1f GiB",
                            n, need / 1073741824.0, mem / 1073741824.0);
    return SG_OK;
}

sg_status sg_seq_check_size(size_t n, sg_error *err)
{
    return check_bytes(n, 1, err);
}

static sg_status seq_realloc(sg_seq *s, size_t na, unsigned width,
                             sg_error *err)
{
    sg_status st = check_bytes(na, width, err);
    uint8_t *nd;

    if (st)
        return st;
    nd = realloc(s->data, na * width);
    if (!nd)
        return sg_error_set(err, SG_E_NOMEM, -1,
                            "out of memory holding %zu values", na);
    s->data = nd;
    s->alloc = na;
    return SG_OK;
}

sg_status sg_seq_widen(sg_seq *s, unsigned width, sg_error *err)
{
    unsigned old = s->width ? s->width : 1;
    size_t i;
    sg_status st;

    if (width <= old) {
        s->width = old;
        return SG_OK;
    }
    st = seq_realloc(s, s->alloc ? s->alloc : 64, width, err);
    if (st)
        return st;
    /* Convert in place from the top down so nothing is overwritten early. */
    for (i = s->n; i-- > 0;) {
        sg_value v = old == 1 ? s->data[i]
                     : old == 2 ? ((uint16_t *)(void *)s->data)[i]
                                : ((uint32_t *)(void *)s->data)[i];
        if (width == 2)
            ((uint16_t *)(void *)s->data)[i] = (uint16_t)v;
        else
            ((uint32_t *)(void *)s->data)[i] = v;
    }
    s->width = width;
    return SG_OK;
}

sg_status sg_seq_reserve(sg_seq *s, size_t n, sg_error *err)
{
    size_t na;
    sg_status st;

    if (!s->width)
        s->width = 1;
    if (n <= s->alloc && s->data)
        return SG_OK;
    st = check_bytes(n, s->width, err);
    if (st)
        return st;
    na = s->alloc ? s->alloc : 64;
    while (na < n)
        na = na > SIZE_MAX / 8 ? n : na * 2;
    if (na > n && check_bytes(na, s->width, NULL) != SG_OK)
        na = n;
    return seq_realloc(s, na, s->width, err);
}

sg_status sg_seq_append(sg_seq *s, sg_value v, sg_error *err)
{
    sg_status st;

    if (s->n == s->alloc || !s->data) {
        st = sg_seq_reserve(s, s->n + 1, err);
        if (st)
            return st;
    }
    if (width_for(v) > s->width) {
        st = sg_seq_widen(s, width_for(v), err);
        if (st)
            return st;
    }
    switch (s->width) {
    case 1:
        s->data[s->n] = (uint8_t)v;
        break;
    case 2:
        ((uint16_t *)(void *)s->data)[s->n] = (uint16_t)v;
        break;
    default:
        ((uint32_t *)(void *)s->data)[s->n] = v;
        break;
    }
    s->n++;
    if (v > s->max)
        s->max = v;
    return SG_OK;
}

/* Stamp array indexed by value: wide enough for any xor of values seen. */
typedef struct marks {
    uint64_t *stamp;
    size_t size;     /* a power of two greater than every option value */
} marks;

static int marks_fit(marks *m, sg_value max)
{
    size_t want = 2;
    uint64_t *ns;

    while (want <= (size_t)max)
        want *= 2;
    want *= 2;   /* the mex can be one past the largest option */
    if (want <= m->size)
        return 0;
    ns = realloc(m->stamp, want * sizeof *ns);
    if (!ns)
        return -1;
    memset(ns + m->size, 0, (want - m->size) * sizeof *ns);
    m->stamp = ns;
    m->size = want;
    return 0;
}

#define G(i) sg_seq_get(g, (i))

/* Mark every option of heap n removing k tokens under digit d. */
static void mark_options(uint64_t *st, uint64_t tag, const sg_seq *g,
                         size_t n, size_t k, unsigned d, int uneq)
{
    size_t rem = n - k;

    if ((d & SG_BIT_ALL) && rem == 0)
        st[0] = tag;
    if ((d & SG_BIT_ONE) && rem >= 1)
        st[G(rem)] = tag;
    if ((d & SG_BIT_TWO) && rem >= 2) {
        size_t a;
        for (a = 1; a <= rem / 2; a++) {
            if (uneq && 2 * a == rem)
                continue;
            st[G(a) ^ G(rem - a)] = tag;
        }
    }
    if ((d & SG_BIT_THREE) && rem >= 3) {
        size_t a, b;
        for (a = 1; 3 * a <= rem; a++)
            for (b = a; a + 2 * b <= rem; b++) {
                size_t c = rem - a - b;
                if (uneq && (a == b || b == c))
                    continue;
                st[G(a) ^ G(b) ^ G(c)] = tag;
            }
    }
}

#undef G

sg_status sg_enumerate(sg_seq *s, const sg_rule *r, size_t n,
                       volatile sig_atomic_t *cancel, sg_error *err)
{
    marks m = {NULL, 0};
    sg_status st;
    size_t h;

    if (n <= s->n)
        return SG_OK;
    st = sg_seq_reserve(s, n, err);
    if (st)
        return st;
    if (marks_fit(&m, s->max))
        goto nomem;
    for (h = s->n; h < n; h++) {
        uint64_t tag = (uint64_t)h + 1;
        size_t i;
        sg_value v;

        if (cancel && *cancel && (h & 255) == 0) {
            free(m.stamp);
            return sg_error_set(err, SG_E_INTERRUPTED, -1,
                                "interrupted after %zu values", s->n);
        }
        for (i = 0; i < r->nterms && r->terms[i].take <= h; i++)
            mark_options(m.stamp, tag, s, h, (size_t)r->terms[i].take,
                         r->terms[i].digit, r->terms[i].unequal);
        if (r->tail_len && r->tail_start <= h) {
            size_t k, j = 0;
            for (k = (size_t)r->tail_start; k <= h; k++) {
                mark_options(m.stamp, tag, s, h, k, r->tail[j],
                             r->tail_unequal[j]);
                if (++j == r->tail_len)
                    j = 0;
            }
        }
        for (v = 0; m.stamp[v] == tag; v++)
            ;
        st = sg_seq_append(s, v, err);
        if (st) {
            free(m.stamp);
            return st;
        }
        if (marks_fit(&m, s->max))
            goto nomem;
    }
    free(m.stamp);
    return SG_OK;
nomem:
    free(m.stamp);
    return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
}

const char *sg_enumerate_method(const sg_rule *r)
{
    (void)r;
    return "naive";
}
