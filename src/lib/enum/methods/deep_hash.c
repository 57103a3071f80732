/*
 * deep_hash.c - a deep run's values hashed before they leave memory
 * (sg_deep, docs/DEEP.md): the run's object (init, clear), the running and
 * block checksums (sgi_deep_hash) and the hashing thread that computes
 * them from a copy while the next window is computed
 * (sgi_deep_hash_async).  Below the sparse method, which moves the window
 * and calls the hasher as the values leave (sparse/window.c); the rest of
 * a deep run, its entry points and checkpoint, is deep_run.c above it.
 */
#include "sgexplore.h"
#include "enum/methods/enum_impl.h"
#include "base/fnv.h"

#include <stdlib.h>
#include <string.h>

/*
 * The hashing thread.  A chain of multiplications per digit, the checksum
 * costs a deep run of Kayles a sixth of its time on the run's own thread;
 * the window moves every W heaps, so the values leaving (W of them) are
 * copied and hashed on a second core while the next W heaps are computed.
 * Only the hash fields of the run (sum, hashed, blocks, nblocks, hmax,
 * max_heap) are written there, and nothing reads them before
 * hasher_join.
 */
#if (defined(__unix__) || defined(__APPLE__))
#define DEEP_THREADS 1
#include <pthread.h>
#endif

struct sg_deep_hasher {
    sg_deep *d;
    sg_seq view; /* the copied values, as G(from..upto-1) */
    size_t upto, cap;
    int busy;
#ifdef DEEP_THREADS
    pthread_t thread;
#endif
};

static void hasher_join(sg_deep *d)
{
    struct sg_deep_hasher *hs = d->hasher;

    if (!hs || !hs->busy)
        return;
#ifdef DEEP_THREADS
    pthread_join(hs->thread, NULL);
#endif
    hs->busy = 0;
}

static void hash_range(sg_deep *d, const sg_seq *s, size_t upto);

#ifdef DEEP_THREADS
static void *hasher_main(void *arg)
{
    struct sg_deep_hasher *hs = arg;

    hash_range(hs->d, &hs->view, hs->upto);
    return NULL;
}
#endif

void sg_deep_init(sg_deep *d, size_t window)
{
    memset(d, 0, sizeof *d);
    sg_seq_init(&d->seq);
    d->window = window < SG_DEEP_MIN_WINDOW ? SG_DEEP_MIN_WINDOW : window;
    d->sum = SG_FNV_OFFSET;
}

void sg_deep_clear(sg_deep *d)
{
    hasher_join(d);
    if (d->hasher) {
        free(d->hasher->view.data);
        free(d->hasher);
    }
    sg_seq_clear(&d->seq);
    free(d->rpos);
    free(d->rval);
    free(d->hist);
    free(d->blocks);
    memset(d, 0, sizeof *d);
}

/* Hash G(hashed..upto-1), held by s, into the running checksum, noting
 * each block's checksum and the first heap of the largest value.  The
 * blocks array grows by doubling; when that fails the checksums of later
 * blocks are not recorded (nblocks stops), which sg_deep_save reports. */
static void hash_range(sg_deep *d, const sg_seq *s, size_t upto)
{
    size_t i;

    for (i = d->hashed; i < upto; i++)
        if (sg_seq_at(s, i) > d->hmax || i == 0) {
            d->hmax = sg_seq_at(s, i);
            d->max_heap = i;
        }
    while (d->hashed < upto) {
        size_t end = (d->hashed / SG_DEEP_BLOCK + 1) * SG_DEEP_BLOCK;
        if (end > upto)
            end = upto;
        d->sum = sgi_checksum_extend(d->sum, s, d->hashed, end);
        d->hashed = end;
        if (end % SG_DEEP_BLOCK == 0 && d->nblocks == end / SG_DEEP_BLOCK - 1 &&
            sg_grow(&d->blocks, &d->blocks_cap, d->nblocks + 1,
                    sizeof *d->blocks) == 0)
            d->blocks[d->nblocks++] = d->sum;
    }
}

void sgi_deep_hash(sg_deep *d, size_t upto)
{
    hasher_join(d);
    hash_range(d, &d->seq, upto);
}

void sgi_deep_hash_async(sg_deep *d, size_t upto)
{
#ifdef DEEP_THREADS
    struct sg_deep_hasher *hs;
    const sg_seq *s = &d->seq;
    size_t count, w = s->width, first;

    hasher_join(d);
    if (upto <= d->hashed)
        return;
    if (!d->hasher && !(d->hasher = calloc(1, sizeof *d->hasher)))
        goto sync;
    hs = d->hasher;
    count = upto - d->hashed;
    if (count * w > hs->cap) {
        uint8_t *p = realloc(hs->view.data, count * w);
        if (!p)
            goto sync;
        hs->view.data = p;
        hs->cap = count * w;
    }
    /* G(hashed..upto-1) lie in the prefix, the window, or both */
    first = d->hashed;
    if (first < s->keep) {
        size_t k = (upto < s->keep ? upto : s->keep) - first;
        memcpy(hs->view.data, s->data + first * w, k * w);
        first += k;
    }
    if (first < upto)
        memcpy(hs->view.data + (first - d->hashed) * w,
               s->data + (first - s->off) * w, (upto - first) * w);
    hs->view.width = s->width;
    hs->view.keep = 0;
    hs->view.off = d->hashed;
    hs->view.n = upto;
    hs->d = d;
    hs->upto = upto;
    if (pthread_create(&hs->thread, NULL, hasher_main, hs) == 0) {
        hs->busy = 1;
        return;
    }
sync:
#endif
    sgi_deep_hash(d, upto);
}
