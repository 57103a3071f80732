/*
 * misere_present.c - a proven misère quotient presented and used: its
 * products and the elements of the heaps (sgi_mquot_complete, which first
 * checks a copy read from the cache), generators, least-word normal forms
 * and relations, the names of its words, and positions decided by it
 * (the outcome and a winning move).
 */
#include "sgexplore.h"
#include "internal.h"
#include "rules/moves.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

/* ------------------------------------------------------------------ */
/* The presentation                                                     */
/* ------------------------------------------------------------------ */

/* Word a before word b (exponents over ngens): shorter first, then the
 * one with more of the first generator where they differ. */
static int word_less(const uint32_t *a, const uint32_t *b, size_t ngens)
{
    size_t j, la = 0, lb = 0;

    for (j = 0; j < ngens; j++) {
        la += a[j];
        lb += b[j];
    }
    if (la != lb)
        return la < lb;
    for (j = 0; j < ngens; j++)
        if (a[j] != b[j])
            return a[j] > b[j];
    return 0;
}

/* The element of a word over the generators. */
static uint32_t word_element(const sg_mquot *m, const uint32_t *e)
{
    uint32_t u = 0, c;
    size_t j;

    for (j = 0; j < m->ngens; j++)
        for (c = 0; c < e[j]; c++)
            u = m->trans[(size_t)u * m->heaps + m->gen_heap[j] - 1];
    return u;
}

/* Generators, normal forms and relations of the proven quotient m. */
static sg_status present(sg_mquot *m, sg_error *err)
{
    size_t n = m->order, h, u, j, cap = 0, capr = 0, caprr = 0, level;
    unsigned char *in = calloc(n, 1);
    uint32_t *queue = malloc(n * sizeof *queue), *lev = NULL, *w = NULL;
    size_t nq;
    sg_status st = SG_OK;

    m->ngens = 0;
    if (!in || !queue)
        goto oom;
    /* generators: each heap whose element the earlier ones miss */
    in[0] = 1;
    for (h = 1; h <= m->heaps; h++) {
        size_t qi;
        if (in[m->heap[h]])
            continue;
        if (sg_grow(&m->gen_heap, &cap, m->ngens + 1, sizeof *m->gen_heap))
            goto oom;
        m->gen_heap[m->ngens++] = h;
        for (nq = 0, u = 0; u < n; u++)
            if (in[u])
                queue[nq++] = (uint32_t)u;
        for (qi = 0; qi < nq; qi++)
            for (j = 0; j < m->ngens; j++) {
                uint32_t v =
                    m->trans[(size_t)queue[qi] * m->heaps + m->gen_heap[j] - 1];
                if (!in[v]) {
                    in[v] = 1;
                    queue[nq++] = v;
                }
            }
    }
    /* least words, level by level */
    if (!(m->nf = calloc(n * (m->ngens ? m->ngens : 1), sizeof *m->nf)) ||
        !(lev = malloc(n * sizeof *lev)) ||
        !(w = malloc((m->ngens + 1) * sizeof *w)))
        goto oom;
    for (u = 0; u < n; u++)
        lev[u] = NONE;
    lev[0] = 0;
    queue[0] = 0;
    nq = 1;
    {
        size_t from = 0;
        for (level = 1; from < nq; level++) {
            size_t to = nq, qi;
            for (qi = from; qi < to; qi++) {
                uint32_t x = queue[qi];
                for (j = 0; j < m->ngens; j++) {
                    uint32_t v =
                        m->trans[(size_t)x * m->heaps + m->gen_heap[j] - 1];
                    memcpy(w, m->nf + (size_t)x * m->ngens,
                           m->ngens * sizeof *w);
                    w[j]++;
                    if (lev[v] == NONE) {
                        lev[v] = (uint32_t)level;
                        queue[nq++] = v;
                        memcpy(m->nf + (size_t)v * m->ngens, w,
                               m->ngens * sizeof *w);
                    } else if (lev[v] == level &&
                               word_less(w, m->nf + (size_t)v * m->ngens,
                                         m->ngens)) {
                        memcpy(m->nf + (size_t)v * m->ngens, w,
                               m->ngens * sizeof *w);
                    }
                }
            }
            from = to;
        }
    }
    /* relations: the least words that are not normal forms, each
     * nf(u) + generator j with j past every generator of nf(u) */
    m->nrel = 0;
    for (u = 0; u < n; u++) {
        const uint32_t *e = m->nf + u * m->ngens;
        size_t last = 0, i;
        for (j = 0; j < m->ngens; j++)
            if (e[j])
                last = j;
        for (j = last; j < m->ngens; j++) {
            uint32_t v = m->trans[u * m->heaps + m->gen_heap[j] - 1];
            int minimal = 1;
            memcpy(w, e, m->ngens * sizeof *w);
            w[j]++;
            if (!memcmp(w, m->nf + (size_t)v * m->ngens, m->ngens * sizeof *w))
                continue; /* a normal form */
            for (i = 0; i < m->ngens && minimal; i++) {
                uint32_t d;
                if (!w[i] || i == j)
                    continue;
                w[i]--;
                d = word_element(m, w);
                minimal = !memcmp(w, m->nf + (size_t)d * m->ngens,
                                  m->ngens * sizeof *w);
                w[i]++;
            }
            if (!minimal)
                continue;
            if (sg_grow(&m->rel, &capr, (m->nrel + 1) * m->ngens,
                        sizeof *m->rel) ||
                sg_grow(&m->rel_rhs, &caprr, m->nrel + 1, sizeof *m->rel_rhs))
                goto oom;
            memcpy(m->rel + m->nrel * m->ngens, w, m->ngens * sizeof *w);
            m->rel_rhs[m->nrel++] = v;
        }
    }
    goto out;
oom:
    st = sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
out:
    free(in);
    free(queue);
    free(lev);
    free(w);
    return st;
}

/* The products, elements of the heaps and the presentation of m, of
 * which heaps, order, trans, p and orders are set; checked first, so
 * that a damaged copy read from the cache is refused, not believed. */
sg_status sgi_mquot_complete(sg_mquot *m, sg_error *err)
{
    size_t n = m->order, k = m->heaps, u, v, h, i;
    uint32_t *par = NULL, *gen = NULL, *order = NULL;
    unsigned char *seen = NULL;
    size_t nq = 1, qi;
    sg_status st = SG_OK;

    if (n < 1 || n > UINT32_MAX || (k && n > SIZE_MAX / k / 4) || !m->trans ||
        !m->p || !m->orders || m->orders[k] != n)
        return sg_error_set(err, SG_E_INPUT, -1,
                            "misère quotient: not a quotient of heaps 1..%zu",
                            k);
    for (u = 0; u < n * k; u++)
        if (m->trans[u] >= n)
            return sg_error_set(err, SG_E_INPUT, -1,
                                "misère quotient: an element out of range");
    for (u = 0; u < n; u++)
        for (h = 0; h < k; h++)
            for (i = h + 1; i < k; i++)
                if (m->trans[(size_t)m->trans[u * k + h] * k + i] !=
                    m->trans[(size_t)m->trans[u * k + i] * k + h])
                    return sg_error_set(err, SG_E_INPUT, -1,
                                        "misère quotient: heaps %zu and %zu "
                                        "do not commute",
                                        h + 1, i + 1);
    free(m->heap);
    free(m->mul);
    m->mul = NULL;
    if (!(m->heap = malloc((k + 1) * sizeof *m->heap)) ||
        !(m->mul = malloc(n * n * sizeof *m->mul)) || !(seen = calloc(n, 1)) ||
        !(par = malloc(n * sizeof *par)) || !(gen = malloc(n * sizeof *gen)) ||
        !(order = malloc(n * sizeof *order))) {
        st = sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
        goto out;
    }
    m->heap[0] = 0;
    for (h = 1; h <= k; h++)
        m->heap[h] = m->trans[h - 1];
    /* products through any word: the walk from the identity (under
     * commutativity the map of a word depends only on its element) */
    order[0] = 0;
    seen[0] = 1;
    for (qi = 0; qi < nq; qi++)
        for (h = 1; h <= k; h++) {
            uint32_t t = m->trans[(size_t)order[qi] * k + h - 1];
            if (!seen[t]) {
                seen[t] = 1;
                par[t] = order[qi];
                gen[t] = (uint32_t)h;
                order[nq++] = t;
            }
        }
    if (nq != n) {
        st = sg_error_set(err, SG_E_INPUT, -1,
                          "misère quotient: an element no sum reaches");
        goto out;
    }
    for (u = 0; u < n; u++) {
        uint32_t *row = m->mul + u * n;
        row[0] = (uint32_t)u;
        for (qi = 1; qi < nq; qi++) {
            v = order[qi];
            row[v] = m->trans[(size_t)row[par[v]] * k + gen[v] - 1];
        }
    }
    st = present(m, err);
out:
    free(seen);
    free(par);
    free(gen);
    free(order);
    return st;
}

uint32_t sg_mquot_element(const sg_mquot *q, const size_t *heaps, size_t n)
{
    uint32_t u = 0;
    size_t i;

    for (i = 0; i < n; i++)
        if (heaps[i])
            u = q->trans[(size_t)u * q->heaps + heaps[i] - 1];
    return u;
}

char *sg_mquot_gen_name(char *buf, size_t size, size_t j)
{
    if (j < 26)
        snprintf(buf, size, "%c", (char)('a' + j));
    else if (j < 52)
        snprintf(buf, size, "%c", (char)('A' + j - 26));
    else
        snprintf(buf, size, "g%zu", j + 1);
    return buf;
}

char *sg_mquot_word(char *buf, size_t size, const sg_mquot *q,
                    const uint32_t *exps)
{
    size_t j, at = 0;
    int any = 0, dots = q->ngens > 52;

    if (size)
        buf[0] = '\0';
    for (j = 0; j < q->ngens && at < size; j++) {
        char name[24];
        if (!exps[j])
            continue;
        sg_mquot_gen_name(name, sizeof name, j);
        at += (size_t)snprintf(buf + at, size - at, "%s%s",
                               any && dots ? "." : "", name);
        if (exps[j] > 1 && at < size)
            at += (size_t)snprintf(buf + at, size - at, "^%lu",
                                   (unsigned long)exps[j]);
        any = 1;
    }
    if (!any && size)
        snprintf(buf, size, "1");
    return buf;
}

/* The winning-move walk of sg_misere_position_quotient. */
typedef struct qmove_walk {
    const sg_mquot *q;
    uint32_t rest; /* the element of the sum without the heap played */
    int found;
    sgi_option move;
} qmove_walk;

static int qmove_visit(void *ctx, const sgi_option *o)
{
    qmove_walk *w = ctx;
    uint32_t u = w->rest;
    int k;

    for (k = 0; k < o->nparts; k++)
        u = w->q->trans[(size_t)u * w->q->heaps + o->part[k] - 1];
    if (w->q->p[u]) {
        w->found = 1;
        w->move = *o;
        return 1;
    }
    return 0;
}

sg_status sg_misere_position_quotient(sg_misere_position *out, const sg_rule *r,
                                      const sg_mquot *q, const size_t *heaps,
                                      size_t n, sg_error *err)
{
    size_t i, j;
    uint32_t u;
    sg_seq g;
    sg_status st;

    memset(out, 0, sizeof *out);
    out->move_heap = -1;
    out->method = SG_MISERE_QUOTIENT;
    for (i = 0; i < n; i++)
        if (heaps[i] > q->heaps)
            return sg_error_set(err, SG_E_INPUT, -1,
                                "heap %zu is past the quotient's heaps "
                                "(1..%zu)",
                                heaps[i], q->heaps);
    u = sg_mquot_element(q, heaps, n);
    out->first_wins = !q->p[u];
    if (!out->first_wins)
        return SG_OK;
    sg_seq_init(&g);
    if ((st = sg_enumerate(&g, r, q->heaps + 2, NULL, err)))
        return st;
    for (i = 0; i < n; i++) {
        qmove_walk w;
        if (!heaps[i])
            continue;
        memset(&w, 0, sizeof w);
        w.q = q;
        w.rest = 0;
        for (j = 0; j < n; j++)
            if (j != i && heaps[j])
                w.rest = q->trans[(size_t)w.rest * q->heaps + heaps[j] - 1];
        sgi_moves_heap(r, &g, heaps[i], qmove_visit, &w);
        if (w.found) {
            out->move_heap = (long)i;
            out->take = w.move.take;
            out->nparts = w.move.nparts;
            for (j = 0; j < (size_t)w.move.nparts; j++)
                out->part[j] = w.move.part[j];
            break;
        }
    }
    sg_seq_clear(&g);
    return SG_OK;
}
