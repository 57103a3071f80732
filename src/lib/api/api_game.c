/*
 * api_game.c - the handles of the installed API (sgexplore_api.h): games
 * made from rule texts or option functions, their results, values on
 * heaps of any size, positions and their answers, certificates and the
 * per-thread error message.  The analysis and the cache are api_flow.c,
 * misère play api_misere.c.
 */
#define _GNU_SOURCE
#include "api/api_impl.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

_Static_assert(sizeof(sig_atomic_t) == sizeof(int),
               "the cancel flag is documented as an int");

/* The message of this thread's last failure (sg_last_error). */
static _Thread_local char last_error[512];

const char *sg_library_version(void)
{
    return PACKAGE_VERSION;
}

int sg_library_abi(void)
{
    return SG_API_MAJOR;
}

const char *sg_last_error(void)
{
    return last_error;
}

const char *sg_status_name(sg_status st)
{
    switch (st) {
    case SG_OK:
        return "ok";
    case SG_E_INPUT:
        return "input";
    case SG_E_NOMEM:
        return "nomem";
    case SG_E_IO:
        return "io";
    case SG_E_INTERRUPTED:
        return "interrupted";
    case SG_E_UNKNOWN:
        return "unknown";
    default:
        return "?";
    }
}

void sg_free(void *p)
{
    free(p);
}

sg_status sgi_api_fail(const sg_error *err)
{
    snprintf(last_error, sizeof last_error, "%s", err->msg);
    return err->code;
}

sg_status sgi_api_failf(sg_status st, const char *fmt, ...)
{
    sg_error err;
    char msg[sizeof err.msg];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* through sg_error_set, so that quoted input is escaped */
    sg_error_set(&err, st, -1, "%s", msg);
    return sgi_api_fail(&err);
}

double sgi_api_now(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------------ */
/* Games                                                                */
/* ------------------------------------------------------------------ */

static sg_game *game_alloc(void)
{
    sg_game *g = calloc(1, sizeof *g);

    if (!g)
        return NULL;
    sg_rule_init(&g->rule);
    sg_seq_init(&g->seq);
    sg_flow_row_init(&g->row);
    sg_misere_init(&g->mis);
    sg_mquot_init(&g->quot);
    g->res.status = SG_UNRESOLVED;
    g->source = "computed";
    return g;
}

void sg_game_free(sg_game *g)
{
    if (!g)
        return;
    free(g->canon);
    sg_rule_clear(&g->rule);
    free(g->buf);
    free(g->mark);
    sg_seq_clear(&g->seq);
    sg_flow_row_clear(&g->row);
    free(g->cert);
    sg_misere_clear(&g->mis);
    sg_mquot_clear(&g->quot);
    free(g->quot_text);
    free(g);
}

sg_status sg_game_new_form(sg_game **out, const char *form, const char *text)
{
    static const struct {
        const char *name;
        sg_rule_syntax syntax;
    } forms[] = {
        {"subtract", SG_SYNTAX_SUBTRACT}, {"all-but", SG_SYNTAX_ALLBUT},
        {"octal", SG_SYNTAX_OCTAL},       {"hex", SG_SYNTAX_HEX},
        {"rule", SG_SYNTAX_RULE},         {"grundy", SG_SYNTAX_GRUNDY},
    };
    sg_error err;
    sg_game *g;
    size_t i;

    *out = NULL;
    if (!form)
        form = "rule";
    for (i = 0; i < sizeof forms / sizeof forms[0]; i++)
        if (strcmp(form, forms[i].name) == 0)
            break;
    if (i == sizeof forms / sizeof forms[0])
        return sgi_api_failf(SG_E_INPUT,
                             "unknown rule form '%s' (subtract, all-but, "
                             "octal, hex, rule or grundy)",
                             form);
    if (!text && forms[i].syntax != SG_SYNTAX_GRUNDY)
        return sgi_api_failf(SG_E_INPUT, "no rule text");
    if (!(g = game_alloc()))
        return sgi_api_failf(SG_E_NOMEM, "out of memory");
    if (sg_rule_parse(&g->rule, forms[i].syntax, text ? text : "", &err)) {
        sg_game_free(g);
        return sgi_api_fail(&err);
    }
    if (!(g->canon = sg_rule_canonical(&g->rule))) {
        sg_game_free(g);
        return sgi_api_failf(SG_E_NOMEM, "out of memory");
    }
    g->has_rule = 1;
    g->family = sg_rule_family(&g->rule);
    *out = g;
    return SG_OK;
}

sg_status sg_game_new(sg_game **out, const char *rule)
{
    return sg_game_new_form(out, "rule", rule);
}

/* A name or version of a game given by a function: what its key may
 * hold. */
static int key_part_ok(const char *s)
{
    size_t n = strlen(s), i, len;

    if (n == 0 || n > 200)
        return 0;
    for (i = 0; i < n; i += len) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f || c == '{' || c == '}' || c == ',' ||
            (len = sg_utf8_len(s + i, n - i)) == 0)
            return 0;
    }
    return 1;
}

sg_status sg_game_from_moves(sg_game **out, const char *name,
                             const char *version, sg_moves_fn fn, void *ctx)
{
    sg_game *g;

    *out = NULL;
    if (!fn)
        return sgi_api_failf(SG_E_INPUT, "no moves function");
    if (!name || !key_part_ok(name))
        return sgi_api_failf(SG_E_INPUT,
                             "bad name '%s': 1 to 200 bytes without control "
                             "characters, '{', '}' or ','",
                             name ? name : "");
    if (!version || !key_part_ok(version))
        return sgi_api_failf(SG_E_INPUT,
                             "bad version '%s': 1 to 200 bytes without "
                             "control characters, '{', '}' or ','",
                             version ? version : "");
    if (!(g = game_alloc()) ||
        asprintf(&g->canon, "moves{%s,%s}", name, version) < 0) {
        if (g)
            g->canon = NULL;
        sg_game_free(g);
        return sgi_api_failf(SG_E_NOMEM, "out of memory");
    }
    g->family = "moves";
    g->fn = fn;
    g->fn_ctx = ctx;
    *out = g;
    return SG_OK;
}

const char *sg_game_rule(const sg_game *g)
{
    return g->canon;
}

const char *sg_game_family(const sg_game *g)
{
    return g->family;
}

const char *sg_game_given(const sg_game *g)
{
    return g->has_rule ? g->rule.given : NULL;
}

sg_status sg_game_set_budget(sg_game *g, uint64_t max_values, double seconds)
{
    sg_error err;

    if (!(seconds >= 0) || seconds > 1e9)
        return sgi_api_failf(SG_E_INPUT, "seconds %g: 0 to 1e9", seconds);
    if (max_values && (max_values > SIZE_MAX / 2 ||
                       sg_seq_check_size((size_t)max_values, &err)))
        return sgi_api_failf(SG_E_INPUT, "max %llu: too many values",
                             (unsigned long long)max_values);
    g->max = max_values;
    g->seconds = seconds;
    return SG_OK;
}

void sg_game_set_cancel(sg_game *g, volatile sig_atomic_t *flag)
{
    g->cancel = flag;
}

void sg_game_set_progress(sg_game *g, sg_game_progress_fn fn, void *ctx)
{
    g->progress = fn;
    g->progress_ctx = ctx;
}

void sg_game_set_threads(sg_game *g, unsigned threads)
{
    g->threads = threads;
}

void sg_game_set_cache(sg_game *g, sg_cache *c)
{
    g->cache = c;
}

/* ------------------------------------------------------------------ */
/* Result                                                               */
/* ------------------------------------------------------------------ */

const char *sg_game_status(const sg_game *g)
{
    return sg_period_status_name(g->res.status);
}

int sg_game_proven(const sg_game *g)
{
    return g->res.status != SG_UNRESOLVED;
}

uint64_t sg_game_preperiod(const sg_game *g)
{
    return sg_game_proven(g) ? g->res.preperiod : 0;
}

uint64_t sg_game_period(const sg_game *g)
{
    return sg_game_proven(g) ? g->res.period : 0;
}

uint64_t sg_game_saltus(const sg_game *g)
{
    return sg_game_proven(g) ? g->res.saltus : 0;
}

const char *sg_game_theorem(const sg_game *g)
{
    return sg_game_proven(g) ? g->res.theorem_id : NULL;
}

const char *sg_game_theorem_name(const sg_game *g)
{
    return sg_game_proven(g) ? g->res.theorem : NULL;
}

uint64_t sg_game_computed(const sg_game *g)
{
    return g->seq.n;
}

const char *sg_game_source(const sg_game *g)
{
    return g->source;
}

const char *sg_game_stopped(const sg_game *g)
{
    return g->stopped;
}

const char *sg_game_method(const sg_game *g)
{
    return g->has_rule ? sg_enumerate_method(&g->rule) : "moves";
}

const char *sg_game_note(const sg_game *g)
{
    return sg_game_proven(g) ? NULL : g->res.note;
}

int sg_game_observed(const sg_game *g, uint64_t *preperiod, uint64_t *period,
                     uint64_t *saltus, uint64_t *held_to)
{
    const sg_observed *o = &g->res.observed;

    if (sg_game_proven(g) || !o->have)
        return 0;
    if (preperiod)
        *preperiod = o->preperiod;
    if (period)
        *period = o->period;
    if (saltus)
        *saltus = o->saltus;
    if (held_to)
        *held_to = o->held_to;
    return 1;
}

sg_status sgi_api_refresh(sg_game *g)
{
    free(g->cert);
    g->cert = NULL;
    if (!sg_game_proven(g))
        return SG_OK;
    if (!(g->cert = sg_certificate_format(g->canon, &g->res)))
        return sgi_api_failf(SG_E_NOMEM, "out of memory");
    return SG_OK;
}

const char *sg_game_certificate(const sg_game *g)
{
    return g->cert;
}

sg_status sg_game_export_certificate(const sg_game *g, const char *path)
{
    FILE *f;
    int bad;

    if (!g->cert)
        return sgi_api_failf(SG_E_UNKNOWN,
                             "no proven period of %s to export: %llu values "
                             "computed",
                             g->canon, (unsigned long long)g->seq.n);
    if (!(f = fopen(path, "w")))
        return sgi_api_failf(SG_E_IO, "cannot write '%s': %s", path,
                             strerror(errno));
    bad = fputs(g->cert, f) < 0;
    if (fclose(f) != 0 || bad)
        return sgi_api_failf(SG_E_IO, "cannot write '%s': %s", path,
                             strerror(errno));
    return SG_OK;
}

/* ------------------------------------------------------------------ */
/* Values                                                               */
/* ------------------------------------------------------------------ */

static sg_status unknown_past(const sg_game *g, const char *heap)
{
    return sgi_api_failf(SG_E_UNKNOWN,
                         "G(%s) of %s is not known: no period is proven and "
                         "%llu values are computed",
                         heap, g->canon, (unsigned long long)g->seq.n);
}

sg_status sg_game_values(const sg_game *g, uint64_t a, uint64_t b,
                         uint32_t *out)
{
    const sg_result *r = &g->res;
    uint64_t i;

    if (a > b)
        return sgi_api_failf(SG_E_INPUT, "values %llu..%llu: a > b",
                             (unsigned long long)a, (unsigned long long)b);
    for (i = a; i < b; i++) {
        uint64_t q, k, v;
        if (i < g->seq.n) {
            out[i - a] = sg_seq_get(&g->seq, (size_t)i);
            continue;
        }
        if (!sg_game_proven(g) || r->period == 0) {
            char h[24];
            snprintf(h, sizeof h, "%llu", (unsigned long long)i);
            return unknown_past(g, h);
        }
        q = (i - r->preperiod) / r->period;
        k = (i - r->preperiod) % r->period;
        v = sg_seq_get(&g->seq, (size_t)(r->preperiod + k));
        if (r->saltus && q > (UINT32_MAX - v) / r->saltus)
            return sgi_api_failf(SG_E_INPUT,
                                 "G(%llu) of %s exceeds 32 bits: use "
                                 "sg_game_heap",
                                 (unsigned long long)i, g->canon);
        out[i - a] = (uint32_t)(v + q * r->saltus);
    }
    return SG_OK;
}

/* A heap given as decimal digits. */
static sg_status heap_parse(mpz_t out, const char *text)
{
    const char *p;

    if (!text || !*text)
        return sgi_api_failf(SG_E_INPUT, "empty heap");
    for (p = text; *p; p++)
        if (!isdigit((unsigned char)*p))
            return sgi_api_failf(SG_E_INPUT,
                                 "bad heap '%s': decimal digits only", text);
    if (strlen(text) > 100000)
        return sgi_api_failf(SG_E_INPUT, "heap of %zu digits: at most 100000",
                             strlen(text));
    if (mpz_set_str(out, text, 10) != 0)
        return sgi_api_failf(SG_E_INPUT, "bad heap '%s'", text);
    return SG_OK;
}

sg_status sg_game_heap_mpz(const sg_game *g, mpz_t value, const mpz_t heap)
{
    sg_status st;

    if (mpz_sgn(heap) < 0)
        return sgi_api_failf(SG_E_INPUT, "a negative heap");
    st = sg_value_at(value, &g->res, &g->seq, heap);
    if (st == SG_E_UNKNOWN) {
        char *h = mpz_get_str(NULL, 10, heap);
        st =
            h ? unknown_past(g, h) : sgi_api_failf(SG_E_NOMEM, "out of memory");
        free(h);
    } else if (st) {
        st = sgi_api_failf(st, "G of a heap of %s failed", g->canon);
    }
    return st;
}

sg_status sg_game_heap(const sg_game *g, const char *heap, char **value)
{
    mpz_t h, v;
    sg_status st;

    *value = NULL;
    mpz_inits(h, v, NULL);
    if (!(st = heap_parse(h, heap)) && !(st = sg_game_heap_mpz(g, v, h)) &&
        !(*value = mpz_get_str(NULL, 10, v)))
        st = sgi_api_failf(SG_E_NOMEM, "out of memory");
    mpz_clears(h, v, NULL);
    return st;
}

/* ------------------------------------------------------------------ */
/* Positions                                                            */
/* ------------------------------------------------------------------ */

void sg_answer_free(sg_answer *a)
{
    size_t i;

    if (!a)
        return;
    for (i = 0; a->values && i < a->n; i++)
        free(a->values[i]);
    free(a->values);
    free(a->nim_sum);
    free(a->take);
    for (i = 0; a->left && i < a->nleft; i++)
        free(a->left[i]);
    free(a->left);
    free(a);
}

int sg_answer_first_wins(const sg_answer *a)
{
    return a->first_wins;
}

const char *sg_answer_method(const sg_answer *a)
{
    return a->method;
}

size_t sg_answer_heaps(const sg_answer *a)
{
    return a->n;
}

const char *sg_answer_value(const sg_answer *a, size_t i)
{
    return a->values && i < a->n ? a->values[i] : NULL;
}

const char *sg_answer_nim_sum(const sg_answer *a)
{
    return a->nim_sum;
}

long sg_answer_move_heap(const sg_answer *a)
{
    return a->move_heap;
}

const char *sg_answer_move_take(const sg_answer *a)
{
    return a->take;
}

size_t sg_answer_move_nleft(const sg_answer *a)
{
    return a->nleft;
}

const char *sg_answer_move_left(const sg_answer *a, size_t i)
{
    return a->left && i < a->nleft ? a->left[i] : NULL;
}

/* An answer of n heaps with room for `nleft` heaps left by its move. */
static sg_answer *answer_new(size_t n, size_t nleft, int with_values)
{
    sg_answer *a = calloc(1, sizeof *a);

    if (!a)
        return NULL;
    a->n = n;
    a->move_heap = -1;
    if ((with_values && !(a->values = calloc(n, sizeof *a->values))) ||
        (nleft && !(a->left = calloc(nleft, sizeof *a->left)))) {
        sg_answer_free(a);
        return NULL;
    }
    a->nleft = nleft;
    return a;
}

/* The winning move of a game given by a function, into a. */
static sg_status moves_answer(sg_answer *a, sg_game *g, const mpz_t *heaps,
                              const sg_position *p)
{
    uint64_t h, target, *left = NULL;
    size_t nleft = 0, i;
    int found = 0;
    sg_error err;
    mpz_t t;

    if (p->move_heap < 0 && mpz_sgn(p->nim_sum) != 0) {
        /* sg_position_analyse found no move through a rule: look among
         * the callback's options for the heap whose value falls */
        mpz_init(t);
        for (i = 0; i < p->nheaps && !found; i++) {
            mpz_xor(t, p->values[i], p->nim_sum);
            if (mpz_cmp(t, p->values[i]) >= 0)
                continue;
            h = mpz_get_ui(heaps[i]);
            target = mpz_get_ui(t);
            if (sgi_api_moves_find(g, h, target, &left, &nleft, &found, &err)) {
                mpz_clear(t);
                return sgi_api_fail(&err);
            }
            if (found)
                a->move_heap = (long)i;
        }
        mpz_clear(t);
    }
    if (!found)
        return SG_OK;
    if (nleft && !(a->left = calloc(nleft, sizeof *a->left))) {
        free(left);
        return sgi_api_failf(SG_E_NOMEM, "out of memory");
    }
    a->nleft = nleft;
    for (i = 0; i < nleft; i++)
        if (asprintf(&a->left[i], "%llu", (unsigned long long)left[i]) < 0) {
            a->left[i] = NULL;
            free(left);
            return sgi_api_failf(SG_E_NOMEM, "out of memory");
        }
    free(left);
    return SG_OK;
}

/* Fill a from p (normal play). */
static sg_status answer_fill(sg_answer *a, const sg_position *p)
{
    size_t i;
    int k;

    a->first_wins = p->first_wins;
    a->method = "nim-sum";
    for (i = 0; i < p->nheaps; i++)
        if (!(a->values[i] = mpz_get_str(NULL, 10, p->values[i])))
            return SG_E_NOMEM;
    if (!(a->nim_sum = mpz_get_str(NULL, 10, p->nim_sum)))
        return SG_E_NOMEM;
    a->move_heap = p->move_heap;
    if (p->move_heap < 0)
        return SG_OK;
    if (!(a->take = mpz_get_str(NULL, 10, p->move.take)))
        return SG_E_NOMEM;
    if (p->move.nleft &&
        !(a->left = calloc((size_t)p->move.nleft, sizeof *a->left)))
        return SG_E_NOMEM;
    a->nleft = (size_t)p->move.nleft;
    for (k = 0; k < p->move.nleft; k++)
        if (!(a->left[k] = mpz_get_str(NULL, 10, p->move.left[k])))
            return SG_E_NOMEM;
    return SG_OK;
}

/* Every heap's value, for sg_position_analyse of a game given by a
 * function (which has no rule to find moves with). */
static sg_status moves_position(sg_position *p, const sg_game *g,
                                const mpz_t *heaps, size_t n)
{
    size_t i;

    if (!(p->values = malloc(n * sizeof *p->values)))
        return SG_E_NOMEM;
    for (i = 0; i < n; i++)
        mpz_init(p->values[i]);
    p->nheaps = n;
    mpz_set_ui(p->nim_sum, 0);
    for (i = 0; i < n; i++) {
        if (sg_value_at(p->values[i], &g->res, &g->seq, heaps[i]))
            return SG_E_UNKNOWN;
        mpz_xor(p->nim_sum, p->nim_sum, p->values[i]);
    }
    p->first_wins = mpz_sgn(p->nim_sum) != 0;
    p->move_heap = -1;
    return SG_OK;
}

sg_status sg_game_position_mpz(sg_answer **out, const sg_game *g,
                               const mpz_t *heaps, size_t n)
{
    sg_position p;
    sg_answer *a;
    sg_status st;
    size_t i;

    *out = NULL;
    if (n == 0)
        return sgi_api_failf(SG_E_INPUT, "a position of no heaps");
    for (i = 0; i < n; i++)
        if (mpz_sgn(heaps[i]) < 0)
            return sgi_api_failf(SG_E_INPUT, "a negative heap");
    if (!(a = answer_new(n, 0, 1)))
        return sgi_api_failf(SG_E_NOMEM, "out of memory");
    sg_position_init(&p);
    st = g->has_rule
             ? sg_position_analyse(&p, &g->rule, &g->res, &g->seq, heaps, n)
             : moves_position(&p, g, heaps, n);
    if (st == SG_E_UNKNOWN) {
        char *h = NULL;
        mpz_t v;
        mpz_init(v);
        for (i = 0; i < n && !h; i++)
            if (sg_value_at(v, &g->res, &g->seq, heaps[i]))
                h = mpz_get_str(NULL, 10, heaps[i]);
        mpz_clear(v);
        st = unknown_past(g, h ? h : "?");
        free(h);
    } else if (st == SG_E_NOMEM || (!st && answer_fill(a, &p))) {
        st = sgi_api_failf(SG_E_NOMEM, "out of memory");
    } else if (st) {
        st = sgi_api_failf(st, "the position could not be analysed");
    } else if (!g->has_rule) {
        /* the callback is called, but g itself is not changed */
        st = moves_answer(a, (sg_game *)(uintptr_t)g, heaps, &p);
    }
    sg_position_clear(&p);
    if (st) {
        sg_answer_free(a);
        return st;
    }
    *out = a;
    return SG_OK;
}

sg_status sg_game_position(sg_answer **out, const sg_game *g,
                           const char *const *heaps, size_t n)
{
    mpz_t *h;
    sg_status st = SG_OK;
    size_t i;

    *out = NULL;
    if (n == 0)
        return sgi_api_failf(SG_E_INPUT, "a position of no heaps");
    if (n > SIZE_MAX / sizeof *h || !(h = malloc(n * sizeof *h)))
        return sgi_api_failf(SG_E_NOMEM, "out of memory");
    for (i = 0; i < n; i++)
        mpz_init(h[i]);
    for (i = 0; i < n && !st; i++)
        st = heap_parse(h[i], heaps[i]);
    if (!st)
        st = sg_game_position_mpz(out, g, (const mpz_t *)h, n);
    for (i = 0; i < n; i++)
        mpz_clear(h[i]);
    free(h);
    return st;
}

/* ------------------------------------------------------------------ */
/* Certificates and figures                                             */
/* ------------------------------------------------------------------ */

sg_status sg_certificate_verify(const char *text, char **rule)
{
    sg_rule r;
    sg_result claim;
    sg_seq ref;
    sg_error err;
    char *cert_rule = NULL;
    uint64_t fail_n;
    sg_status st = SG_OK;

    if (rule)
        *rule = NULL;
    if (!text)
        return sgi_api_failf(SG_E_INPUT, "no certificate text");
    sg_rule_init(&r);
    sg_seq_init(&ref);
    if (sg_certificate_parse(&cert_rule, &claim, text, &err) ||
        sg_rule_parse(&r, SG_SYNTAX_RULE, cert_rule, &err)) {
        st = sgi_api_fail(&err);
        goto out;
    }
    if (claim.certified_to >= SIZE_MAX / 2 ||
        sg_seq_check_size((size_t)claim.certified_to + 1, &err)) {
        st = sgi_api_failf(SG_E_INPUT, "the bound %llu is too large",
                           (unsigned long long)claim.certified_to);
        goto out;
    }
    if (sg_enumerate_naive(&ref, &r, (size_t)claim.certified_to + 1, NULL,
                           &err)) {
        st = sgi_api_fail(&err);
        goto out;
    }
    if (!sg_certificate_check(&r, &claim, &ref, &fail_n, &err)) {
        if (fail_n != UINT64_MAX)
            st = sgi_api_failf(SG_E_INPUT, "refused: fails at n = %llu: %s",
                               (unsigned long long)fail_n, err.msg);
        else
            st = sgi_api_failf(SG_E_INPUT, "refused: %s", err.msg);
        goto out;
    }
    if (rule && !(*rule = sg_rule_canonical(&r)))
        st = sgi_api_failf(SG_E_NOMEM, "out of memory");
out:
    free(cert_rule);
    sg_rule_clear(&r);
    sg_seq_clear(&ref);
    return st;
}

sg_status sg_game_plot(const sg_game *g, const char *path, uint64_t from,
                       uint64_t to)
{
    sg_error err;

    if (!g->has_rule)
        return sgi_api_failf(SG_E_INPUT,
                             "%s: figures need a rule text, not a function",
                             g->canon);
    if (sg_plot_sequence(path, &g->rule, &g->res, &g->seq, from, to, NULL,
                         &err))
        return sgi_api_fail(&err);
    return SG_OK;
}
