/*
 * deep_run.c - deep runs (sg_deep, docs/DEEP.md): the bookkeeping around
 * the sparse method's window (sparse/ does the computing and moves the
 * window; methods/deep_hash.c keeps the running checksum of every value
 * before it leaves memory): the entry points and the checkpoint format,
 * so that a run killed at any moment resumes from its last checkpoint
 * and ends with exactly the values, the checksums and the rare heaps of
 * a run that was never stopped.
 */
#include "sgexplore.h"
#include "enum/methods/enum_impl.h"
#include "enum/sparse/sparse.h"

#include <stdlib.h>
#include <string.h>

/* The blob begins with these 8 bytes; a change of layout changes them. */
static const char deep_magic[8] = {'S', 'G', 'D', 'E', 'E', 'P', '0', '1'};

/* Largest window accepted (values at each end). */
#define DEEP_MAX_WINDOW ((size_t)1 << 34)

uint64_t sg_deep_checksum(sg_deep *d)
{
    sgi_deep_hash(d, d->seq.n);
    return d->sum;
}

int sg_deep_applicable(const sg_rule *r)
{
    return sgi_method_of(r)->deep;
}

sg_status sg_deep_extend(sg_deep *d, const sg_rule *r, size_t n,
                         const sg_enum_options *opt, sg_error *err)
{
    sg_status st;

    if (!sg_deep_applicable(r))
        return sg_error_set(err, SG_E_INPUT, -1,
                            "deep runs need a rule whose moves leave at "
                            "most two heaps, without a repeating tail");
    if (n <= d->seq.n)
        return SG_OK;
    st = sgi_deep_run_sparse(d, r, n, opt, err);
    /* values stay hashed up to the end, so that a checkpoint is whole */
    sgi_deep_hash(d, d->seq.n);
    return st;
}

/* ------------------------------------------------------------------ */
/* The checkpoint blob: little-endian fields, in this order             */
/* ------------------------------------------------------------------ */

typedef struct wbuf {
    unsigned char *p;
    size_t n, cap;
    int fail;
} wbuf;

static void put_bytes(wbuf *b, const void *x, size_t len)
{
    if (b->fail)
        return;
    if (sg_grow(&b->p, &b->cap, b->n + len, 1)) {
        b->fail = 1;
        return;
    }
    memcpy(b->p + b->n, x, len);
    b->n += len;
}

static void put_u64(wbuf *b, uint64_t v)
{
    unsigned char x[8];
    int i;

    for (i = 0; i < 8; i++)
        x[i] = (unsigned char)(v >> (8 * i));
    put_bytes(b, x, 8);
}

sg_status sg_deep_save(sg_deep *d, const sg_rule *r, void **blob, size_t *len,
                       sg_error *err)
{
    const sg_seq *s = &d->seq;
    char *text = sg_rule_canonical(r);
    wbuf b = {NULL, 0, 0, 0};
    size_t i, held = s->n - s->off;

    *blob = NULL;
    *len = 0;
    if (!text)
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    sgi_deep_hash(d, s->n);
    if (d->nblocks != d->hashed / SG_DEEP_BLOCK) {
        free(text);
        return sg_error_set(err, SG_E_NOMEM, -1,
                            "out of memory keeping the block checksums");
    }
    put_bytes(&b, deep_magic, sizeof deep_magic);
    put_u64(&b, strlen(text));
    put_bytes(&b, text, strlen(text));
    free(text);
    put_u64(&b, s->n);
    put_u64(&b, d->window);
    put_u64(&b, s->keep);
    put_u64(&b, s->off);
    put_u64(&b, s->width);
    put_u64(&b, s->max);
    put_u64(&b, (uint64_t)d->frozen);
    put_u64(&b, d->mask);
    put_u64(&b, (uint64_t)d->parity);
    put_u64(&b, (uint64_t)d->pshift);
    put_u64(&b, d->full_scans);
    put_u64(&b, d->sum);
    put_u64(&b, d->hashed);
    put_u64(&b, d->max_heap);
    put_u64(&b, d->nrare);
    for (i = 0; i < d->nrare; i++) {
        put_u64(&b, d->rpos[i]);
        put_u64(&b, d->rval[i]);
    }
    put_u64(&b, d->nhist);
    for (i = 0; i < d->nhist; i++)
        put_u64(&b, d->hist[i]);
    put_u64(&b, d->nblocks);
    for (i = 0; i < d->nblocks; i++)
        put_u64(&b, d->blocks[i]);
    /* the values held, as 4-byte words whatever the width */
    put_u64(&b, held);
    for (i = 0; i < held && !b.fail; i++) {
        uint64_t v = sg_seq_get(s, i);
        unsigned char x[4] = {(unsigned char)v, (unsigned char)(v >> 8),
                              (unsigned char)(v >> 16),
                              (unsigned char)(v >> 24)};
        put_bytes(&b, x, 4);
    }
    if (b.fail) {
        free(b.p);
        return sg_error_set(err, SG_E_NOMEM, -1,
                            "out of memory writing a checkpoint");
    }
    *blob = b.p;
    *len = b.n;
    return SG_OK;
}

typedef struct rbuf {
    const unsigned char *p;
    size_t n, at;
    int bad;
} rbuf;

static uint64_t get_u64(rbuf *b)
{
    uint64_t v = 0;
    int i;

    if (b->bad || b->n - b->at < 8) {
        b->bad = 1;
        return 0;
    }
    for (i = 0; i < 8; i++)
        v |= (uint64_t)b->p[b->at + (size_t)i] << (8 * i);
    b->at += 8;
    return v;
}

/* Whether count items of `size` bytes can still be read (a damaged count
 * must not become a huge allocation). */
static int room(const rbuf *b, uint64_t count, size_t size)
{
    return !b->bad && count <= (b->n - b->at) / size;
}

static sg_status bad_blob(sg_deep *d, sg_error *err, const char *why)
{
    sg_deep_clear(d);
    return sg_error_set(err, SG_E_IO, -1,
                        "the deep-run checkpoint is damaged (%s)", why);
}

sg_status sg_deep_load(sg_deep *d, const sg_rule *r, const void *blob,
                       size_t len, sg_error *err)
{
    rbuf b = {blob, len, 0, 0};
    char *text = sg_rule_canonical(r);
    uint64_t tl, n, window, keep, off, width, max, held, i, frozen;
    sg_value top = 0;
    size_t j;
    int same;

    memset(d, 0, sizeof *d);
    if (!text)
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    if (len < sizeof deep_magic ||
        memcmp(blob, deep_magic, sizeof deep_magic) != 0) {
        free(text);
        return sg_error_set(err, SG_E_IO, -1,
                            "the deep-run checkpoint is not one this "
                            "sgexplore writes");
    }
    b.at = sizeof deep_magic;
    tl = get_u64(&b);
    same = room(&b, tl, 1) && tl == strlen(text) &&
           memcmp(b.p + b.at, text, tl) == 0;
    free(text);
    if (!same)
        return sg_error_set(err, SG_E_IO, -1,
                            "the deep-run checkpoint belongs to another "
                            "rule");
    b.at += tl;
    n = get_u64(&b);
    window = get_u64(&b);
    keep = get_u64(&b);
    off = get_u64(&b);
    width = get_u64(&b);
    max = get_u64(&b);
    frozen = get_u64(&b);
    sg_deep_init(d, SG_DEEP_MIN_WINDOW);
    d->mask = (uint32_t)get_u64(&b);
    d->parity = (int)(get_u64(&b) & 3);
    d->pshift = (int)(get_u64(&b) & 3);
    d->full_scans = get_u64(&b);
    d->sum = get_u64(&b);
    d->hashed = get_u64(&b);
    d->max_heap = get_u64(&b);
    if (b.bad)
        return bad_blob(d, err, "cut short");
    if (window < SG_DEEP_MIN_WINDOW || window > DEEP_MAX_WINDOW)
        return bad_blob(d, err, "window");
    if (width != 1 && width != 2 && width != 4)
        return bad_blob(d, err, "width");
    if (frozen > 1 || d->parity > 1 || d->pshift > 1 || max >= (1u << 30))
        return bad_blob(d, err, "sparse space");
    if (off ? keep != window || !frozen || n < keep + off : keep != 0 || frozen)
        return bad_blob(d, err, "window layout");
    if (d->hashed != n || (n && d->max_heap >= n))
        return bad_blob(d, err, "checksum state");
    d->window = (size_t)window;
    d->frozen = (int)frozen;
    d->nrare = (size_t)get_u64(&b);
    if (!room(&b, d->nrare, 16))
        return bad_blob(d, err, "rare heaps");
    d->rpos = malloc((d->nrare + 1) * sizeof *d->rpos);
    d->rval = malloc((d->nrare + 1) * sizeof *d->rval);
    if (!d->rpos || !d->rval) {
        sg_deep_clear(d);
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    }
    for (j = 0; j < d->nrare; j++) {
        uint64_t p = get_u64(&b), v = get_u64(&b);
        if (p == 0 || p >= n || (j && p <= d->rpos[j - 1]) || v > max)
            return bad_blob(d, err, "rare heaps");
        d->rpos[j] = (size_t)p;
        d->rval[j] = (sg_value)v;
    }
    d->nhist = (size_t)get_u64(&b);
    if (!room(&b, d->nhist, 8) || d->nhist > ((size_t)1 << 32))
        return bad_blob(d, err, "value counts");
    if (!(d->hist = malloc((d->nhist + 1) * sizeof *d->hist))) {
        sg_deep_clear(d);
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    }
    for (j = 0; j < d->nhist; j++)
        if ((d->hist[j] = get_u64(&b)) > n)
            return bad_blob(d, err, "value counts");
    if (frozen && d->nhist <= 2 * (size_t)max)
        return bad_blob(d, err, "value counts");
    d->nblocks = (size_t)get_u64(&b);
    if (!room(&b, d->nblocks, 8) || d->nblocks != d->hashed / SG_DEEP_BLOCK)
        return bad_blob(d, err, "block checksums");
    if (sg_grow(&d->blocks, &d->blocks_cap, d->nblocks + 1,
                sizeof *d->blocks)) {
        sg_deep_clear(d);
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    }
    for (j = 0; j < d->nblocks; j++)
        d->blocks[j] = get_u64(&b);
    held = get_u64(&b);
    if (held != n - off || !room(&b, held, 4) || held > sgi_deep_hold(d))
        return bad_blob(d, err, "values");
    d->seq.width = (unsigned)width;
    if (sg_seq_reserve(&d->seq, sgi_deep_hold(d), err) != SG_OK) {
        sg_deep_clear(d);
        return SG_E_NOMEM;
    }
    for (i = 0; i < held; i++) {
        const unsigned char *x = b.p + b.at + 4 * i;
        sg_value v = (sg_value)x[0] | (sg_value)x[1] << 8 |
                     (sg_value)x[2] << 16 | (sg_value)x[3] << 24;
        if (v > max || sgi_value_width(v) > width)
            return bad_blob(d, err, "values");
        if (v > top)
            top = v;
        if (width == 1)
            d->seq.data[i] = (uint8_t)v;
        else if (width == 2)
            ((uint16_t *)(void *)d->seq.data)[i] = (uint16_t)v;
        else
            ((uint32_t *)(void *)d->seq.data)[i] = v;
    }
    b.at += 4 * held;
    if (b.at != b.n)
        return bad_blob(d, err, "trailing bytes");
    d->seq.n = (size_t)n;
    d->seq.keep = (size_t)keep;
    d->seq.off = (size_t)off;
    d->seq.max = (sg_value)max;
    if (!off && top != max)
        return bad_blob(d, err, "largest value");
    d->hmax = (sg_value)max; /* everything is hashed (hashed == n) */
    if (n && sg_seq_kept(&d->seq, d->max_heap) &&
        sg_seq_at(&d->seq, d->max_heap) != max)
        return bad_blob(d, err, "largest value");
    return SG_OK;
}
