/*
 * enum.c - the enumerator: G(0..N-1) for any take-and-break rule, and the
 * sg_seq container that holds the values.
 *
 * sg_enumerate is the single entry point every caller uses; it picks the
 * fastest method that applies to the rule:
 *  - "sparse" (enum_sparse.c) for rules whose moves leave at most two heaps
 *    and have some split, with no repeating tail;
 *  - "direct" (here) for finite rules without splits: each heap looks at
 *    one option per digit, O(N * digits);
 *  - "naive" (here) for everything else (three-heap digits, repeating
 *    tails).
 * sg_enumerate_naive is the straightforward method, kept as the reference
 * the others are tested and benchmarked against: for each heap it marks the
 * value of every option in a stamp array (stamp h+1 means "present for heap
 * h", so nothing is ever cleared) and takes the least unmarked value.
 */
#define _DEFAULT_SOURCE
#include "sgexplore.h"
#include "enum_impl.h"

#include <stdlib.h>
#include <string.h>

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

sg_status sg_enumerate_naive(sg_seq *s, const sg_rule *r, size_t n,
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

        if ((h & 255) == 0) {
            if (cancel && *cancel) {
                free(m.stamp);
                return sg_error_set(err, SG_E_INTERRUPTED, -1,
                                    "interrupted after %zu values", s->n);
            }
            sg_enum_progress(h, n, 0);
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


/* ------------------------------------------------------------------ */
/* Progress hook                                                        */
/* ------------------------------------------------------------------ */

static sg_progress_fn progress_fn;
static void *progress_ctx;

void sg_enumerate_set_progress(sg_progress_fn fn, void *ctx)
{
    progress_fn = fn;
    progress_ctx = ctx;
}

void sg_enum_progress(size_t done, size_t target, size_t rare)
{
    if (progress_fn)
        progress_fn(progress_ctx, done, target, rare);
}

/* ------------------------------------------------------------------ */
/* The direct method: finite rules without splits                      */
/* ------------------------------------------------------------------ */

/*
 * Without split moves a heap h has at most one option per digit: G(h - k)
 * for a digit with bit 2 at k < h, and 0 for a digit with bit 1 at k = h.
 * So every value is at most the number of digits, the stamp array is that
 * small, and a heap costs one load and one store per digit.
 */
typedef struct direct {
    size_t none, nall;
    size_t *one;       /* positions k >= 1 whose digit has bit 2, ascending */
    size_t *all;       /* positions k >= 1 whose digit has bit 1, ascending */
    uint64_t *stamp;   /* none + 2 entries */
} direct;

static int direct_applicable(const sg_rule *r)
{
    return r->tail_len == 0 &&
           !(sg_rule_bits(r) & (SG_BIT_TWO | SG_BIT_THREE));
}

/* The value of heap h, reading G through g of element type T.  Terms are
 * ascending, so the loops stop at the first one too large for h. */
#define DIRECT_HEAP(NAME, T)                                               \
    static sg_value NAME(const direct *d, const T *g, size_t h)            \
    {                                                                      \
        uint64_t *st = d->stamp, tag = (uint64_t)h + 1;                    \
        size_t i;                                                          \
        sg_value v;                                                        \
        for (i = 0; i < d->none && d->one[i] < h; i++)                     \
            st[g[h - d->one[i]]] = tag;                                    \
        for (i = 0; i < d->nall && d->all[i] <= h; i++)                    \
            if (d->all[i] == h)                                            \
                st[0] = tag;                                               \
        for (v = 0; st[v] == tag; v++)                                     \
            ;                                                              \
        return v;                                                          \
    }

DIRECT_HEAP(direct_heap1, uint8_t)
DIRECT_HEAP(direct_heap2, uint16_t)
DIRECT_HEAP(direct_heap4, uint32_t)

/* Heaps h..end-1, all above every digit's position (so every option
 * exists and there is no bit-1 move), stored straight into s while the
 * values fit in T; returns the first heap not computed. */
#define DIRECT_RUN(NAME, T, MAXV)                                          \
    static size_t NAME(const direct *d, sg_seq *s, size_t h, size_t end)   \
    {                                                                      \
        T *g = (T *)(void *)s->data;                                       \
        uint64_t *st = d->stamp;                                           \
        const size_t *one = d->one, none = d->none;                        \
        sg_value mx = s->max;                                              \
        for (; h < end; h++) {                                             \
            uint64_t tag = (uint64_t)h + 1;                                \
            size_t i;                                                      \
            sg_value v;                                                    \
            for (i = 0; i < none; i++)                                     \
                st[g[h - one[i]]] = tag;                                   \
            for (v = 0; st[v] == tag; v++)                                 \
                ;                                                          \
            if (v > (MAXV))                                                \
                break;                                                     \
            g[h] = (T)v;                                                   \
            if (v > mx)                                                    \
                mx = v;                                                    \
        }                                                                  \
        s->n = h;                                                          \
        s->max = mx;                                                       \
        return h;                                                          \
    }

DIRECT_RUN(direct_run1, uint8_t, 0xFF)
DIRECT_RUN(direct_run2, uint16_t, 0xFFFF)
DIRECT_RUN(direct_run4, uint32_t, UINT32_MAX)

static sg_status enumerate_direct(sg_seq *s, const sg_rule *r, size_t n,
                                  volatile sig_atomic_t *cancel,
                                  sg_error *err)
{
    direct d;
    sg_status st = SG_OK;
    size_t i, h, top = 0;

    memset(&d, 0, sizeof d);
    st = sg_seq_reserve(s, n, err);
    if (st)
        return st;
    d.one = malloc((r->nterms + 1) * sizeof *d.one);
    d.all = malloc((r->nterms + 1) * sizeof *d.all);
    d.stamp = calloc(r->nterms + 2, sizeof *d.stamp);
    if (!d.one || !d.all || !d.stamp) {
        st = sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
        goto out;
    }
    for (i = 0; i < r->nterms; i++) {
        size_t k = (size_t)r->terms[i].take;
        if (k == 0)
            continue;   /* the parser allows only splits there */
        if (r->terms[i].digit & SG_BIT_ONE)
            d.one[d.none++] = k;
        if (r->terms[i].digit & SG_BIT_ALL)
            d.all[d.nall++] = k;
        top = k;
    }
    for (h = s->n; h < n;) {
        sg_value v;

        if (h % SG_ENUM_POLL == 0) {
            if (cancel && *cancel) {
                st = sg_error_set(err, SG_E_INTERRUPTED, -1,
                                  "interrupted after %zu values", s->n);
                goto out;
            }
            sg_enum_progress(h, n, 0);
        }
        if (h > top && s->width) {
            /* The fast loop, up to the next poll. */
            size_t end = (h / SG_ENUM_POLL + 1) * SG_ENUM_POLL, at;
            if (end > n)
                end = n;
            at = s->width == 1   ? direct_run1(&d, s, h, end)
                 : s->width == 2 ? direct_run2(&d, s, h, end)
                                 : direct_run4(&d, s, h, end);
            if (at > h) {
                h = at;
                continue;
            }
        }
        switch (s->width) {
        case 1:
            v = direct_heap1(&d, s->data, h);
            break;
        case 2:
            v = direct_heap2(&d, (const uint16_t *)(const void *)s->data, h);
            break;
        default:
            v = direct_heap4(&d, (const uint32_t *)(const void *)s->data, h);
            break;
        }
        st = sg_seq_push(s, v, err);
        if (st)
            goto out;
        h++;
    }
out:
    free(d.one);
    free(d.all);
    free(d.stamp);
    return st;
}

/* ------------------------------------------------------------------ */
/* The entry point                                                      */
/* ------------------------------------------------------------------ */

sg_status sg_enumerate(sg_seq *s, const sg_rule *r, size_t n,
                       volatile sig_atomic_t *cancel, sg_error *err)
{
    if (n <= s->n)
        return SG_OK;
    if (sg_sparse_applicable(r))
        return sg_enumerate_sparse(s, r, n, SG_SPARSE_AUTO, NULL, cancel,
                                   err);
    if (direct_applicable(r))
        return enumerate_direct(s, r, n, cancel, err);
    if (sg_three_applicable(r))
        return sg_enumerate_three(s, r, n, cancel, err);
    return sg_enumerate_naive(s, r, n, cancel, err);
}

const char *sg_enumerate_method(const sg_rule *r)
{
    if (sg_sparse_applicable(r))
        return "sparse";
    if (direct_applicable(r))
        return "direct";
    if (sg_three_applicable(r))
        return "three-heap";
    return "naive";
}
