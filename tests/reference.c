/*
 * reference.c - the tests' independent, deliberately naive model of
 * take-and-break games (see reference.h).  Slow on purpose: every move is
 * listed from the definition, so the library's cleverer code has something
 * plain to be checked against.
 */
#include "reference.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char hex_chars[] = "0123456789ABCDEF";

void ref_rule_zero(ref_rule *r)
{
    memset(r, 0, sizeof *r);
}

void ref_rule_subtract(ref_rule *r, const uint64_t *set, size_t n)
{
    ref_rule_zero(r);
    for (size_t i = 0; i < n; i++) {
        if (set[i] == 0 || set[i] >= REF_MAXPOS) {
            abort();
        }
        r->digit[set[i]] = 3;
        if (set[i] + 1 > r->len) {
            r->len = (size_t)set[i] + 1;
        }
    }
}

void ref_rule_allbut(ref_rule *r, const uint64_t *excl, size_t n)
{
    size_t last = 0;

    ref_rule_zero(r);
    for (size_t i = 0; i < n; i++) {
        if (excl[i] == 0 || excl[i] >= REF_MAXPOS - 1) {
            abort();
        }
        if (excl[i] > last) {
            last = (size_t)excl[i];
        }
    }
    /* Explicit positions 1..last, tail of 3s from last + 1. */
    r->len = last + 1;
    for (size_t k = 1; k <= last; k++) {
        r->digit[k] = 3;
    }
    for (size_t i = 0; i < n; i++) {
        r->digit[excl[i]] = 0;
    }
    r->tail_start = last + 1;
    r->tail_len = 1;
    r->tail[0] = 3;
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    return -1;
}

int ref_rule_from_code(ref_rule *r, const char *code)
{
    const char *c = code;
    size_t pos = 0;
    int d;

    ref_rule_zero(r);
    d = hex_value(*c);
    if (d < 0) {
        return -1;
    }
    r->digit[0] = (uint8_t)d;
    c++;
    if (*c == '!') {
        r->unequal[0] = 1;
        c++;
    }
    if (*c != '.') {
        return -1;
    }
    c++;
    pos = 1;
    while ((d = hex_value(*c)) >= 0) {
        if (pos >= REF_MAXPOS) {
            return -1;
        }
        r->digit[pos] = (uint8_t)d;
        c++;
        if (*c == '!') {
            r->unequal[pos] = 1;
            c++;
        }
        pos++;
    }
    r->len = pos;
    if (*c == '[') {
        c++;
        r->tail_start = pos;
        while ((d = hex_value(*c)) >= 0) {
            if (r->tail_len >= REF_MAXTAIL) {
                return -1;
            }
            r->tail[r->tail_len] = (uint8_t)d;
            c++;
            if (*c == '!') {
                r->tail_unequal[r->tail_len] = 1;
                c++;
            }
            r->tail_len++;
        }
        if (*c != ']' || r->tail_len == 0) {
            return -1;
        }
        c++;
    }
    return *c == '\0' ? 0 : -1;
}

unsigned ref_digit(const ref_rule *r, uint64_t k, int *unequal)
{
    unsigned d = 0;
    int u = 0;

    if (r->tail_len > 0 && k >= r->tail_start) {
        size_t i = (size_t)((k - r->tail_start) % r->tail_len);
        d = r->tail[i];
        u = r->tail_unequal[i];
    } else if (k < r->len) {
        d = r->digit[k];
        u = r->unequal[k];
    }
    if (unequal != NULL) {
        *unequal = u;
    }
    return d;
}

unsigned ref_digit_mpz(const ref_rule *r, const mpz_t k, int *unequal)
{
    mpz_t t;
    size_t i;

    if (mpz_sgn(k) < 0) {
        if (unequal != NULL) {
            *unequal = 0;
        }
        return 0;
    }
    if (mpz_cmp_ui(k, 1UL << 62) < 0) {
        return ref_digit(r, (uint64_t)mpz_get_ui(k), unequal);
    }
    if (r->tail_len == 0) {
        if (unequal != NULL) {
            *unequal = 0;
        }
        return 0;
    }
    mpz_init(t);
    mpz_sub_ui(t, k, (unsigned long)r->tail_start);
    i = (size_t)mpz_fdiv_ui(t, (unsigned long)r->tail_len);
    mpz_clear(t);
    if (unequal != NULL) {
        *unequal = r->tail_unequal[i];
    }
    return r->tail[i];
}

/* Last explicit position that is not shadowed by the tail, plus one. */
static size_t explicit_end(const ref_rule *r)
{
    if (r->tail_len > 0 && r->tail_start < r->len) {
        return r->tail_start;
    }
    return r->len;
}

static int tail_nonzero(const ref_rule *r)
{
    for (size_t i = 0; i < r->tail_len; i++) {
        if (r->tail[i] != 0) {
            return 1;
        }
    }
    return 0;
}

uint64_t ref_max_take(const ref_rule *r)
{
    uint64_t m = 0;

    if (tail_nonzero(r)) {
        return UINT64_MAX;
    }
    for (size_t k = 0; k < explicit_end(r); k++) {
        if (r->digit[k] != 0) {
            m = k;
        }
    }
    return m;
}

unsigned ref_bits(const ref_rule *r)
{
    unsigned b = 0;

    for (size_t k = 0; k < explicit_end(r); k++) {
        b |= r->digit[k];
    }
    for (size_t i = 0; i < r->tail_len; i++) {
        b |= r->tail[i];
    }
    return b;
}

int ref_has_unequal(const ref_rule *r)
{
    for (size_t k = 0; k < explicit_end(r); k++) {
        if (r->unequal[k] && (r->digit[k] & 12)) {
            return 1;
        }
    }
    for (size_t i = 0; i < r->tail_len; i++) {
        if (r->tail_unequal[i] && (r->tail[i] & 12)) {
            return 1;
        }
    }
    return 0;
}

int ref_has_moves(const ref_rule *r)
{
    return ref_bits(r) != 0;
}

/* A growable plain array of option values. */
typedef struct opt_list {
    uint32_t *v;
    size_t n, alloc;
} opt_list;

static void opt_add(opt_list *o, uint32_t value)
{
    if (o->n == o->alloc) {
        o->alloc = o->alloc ? 2 * o->alloc : 64;
        o->v = realloc(o->v, o->alloc * sizeof *o->v);
        if (o->v == NULL) {
            abort();
        }
    }
    o->v[o->n++] = value;
}

static uint32_t opt_mex(const opt_list *o)
{
    /* The mex of m values is at most m, so only values <= m matter. */
    unsigned char *seen = calloc(o->n + 1, 1);
    uint32_t m = 0;

    if (seen == NULL) {
        abort();
    }
    for (size_t i = 0; i < o->n; i++) {
        if (o->v[i] <= o->n) {
            seen[o->v[i]] = 1;
        }
    }
    while (seen[m]) {
        m++;
    }
    free(seen);
    return m;
}

void ref_values(uint32_t *g, size_t n, const ref_rule *r)
{
    opt_list o = {NULL, 0, 0};

    for (size_t h = 0; h < n; h++) {
        o.n = 0;
        for (size_t k = 0; k <= h; k++) {
            int u;
            unsigned d = ref_digit(r, k, &u);
            size_t rest = h - k;

            if (d == 0) {
                continue;
            }
            /* Remove the whole heap: only when exactly k are there. */
            if ((d & 1) && k > 0 && rest == 0) {
                opt_add(&o, 0);
            }
            /* Leave one non-empty heap. */
            if ((d & 2) && k > 0 && rest >= 1) {
                opt_add(&o, g[rest]);
            }
            /* Leave two non-empty heaps a <= b. */
            if (d & 4) {
                for (size_t a = 1; 2 * a <= rest; a++) {
                    size_t b = rest - a;
                    if (u && a == b) {
                        continue;
                    }
                    opt_add(&o, g[a] ^ g[b]);
                }
            }
            /* Leave three non-empty heaps a <= b <= c. */
            if (d & 8) {
                for (size_t a = 1; 3 * a <= rest; a++) {
                    for (size_t b = a; a + 2 * b <= rest; b++) {
                        size_t c = rest - a - b;
                        if (u && (a == b || b == c)) {
                            continue;
                        }
                        opt_add(&o, g[a] ^ g[b] ^ g[c]);
                    }
                }
            }
        }
        g[h] = opt_mex(&o);
    }
    free(o.v);
}

void ref_subtract_values(uint32_t *g, size_t n, const uint64_t *set, size_t m)
{
    opt_list o = {NULL, 0, 0};

    for (size_t h = 0; h < n; h++) {
        o.n = 0;
        for (size_t i = 0; i < m; i++) {
            if (set[i] <= h) {
                opt_add(&o, g[h - set[i]]);
            }
        }
        g[h] = opt_mex(&o);
    }
    free(o.v);
}

/* Appends one digit (and its `!`) to buf at *at. */
static void put_digit(char *buf, size_t *at, unsigned d, int u)
{
    buf[(*at)++] = hex_chars[d & 15];
    if (u && d != 0) {
        buf[(*at)++] = '!';
    }
}

char *ref_rule_text(const ref_rule *r)
{
    size_t end = explicit_end(r);
    size_t last = 0;
    size_t cap = 2 * (end + r->tail_start + REF_MAXTAIL) + 16;
    char *buf = malloc(cap);
    size_t at = 0;

    if (buf == NULL) {
        return NULL;
    }
    if (r->tail_len > 0 && r->tail_start == 0) {
        free(buf);
        return NULL;
    }
    put_digit(buf, &at, r->len > 0 ? r->digit[0] : 0,
              r->len > 0 ? r->unequal[0] : 0);
    buf[at++] = '.';
    if (r->tail_len > 0) {
        last = r->tail_start - 1;
    } else {
        for (size_t k = 1; k < end; k++) {
            if (r->digit[k] != 0) {
                last = k;
            }
        }
    }
    if (r->tail_len == 0 && last == 0) {
        buf[at++] = '0';
    }
    for (size_t k = 1; k <= last; k++) {
        int u;
        unsigned d = ref_digit(r, k, &u);
        put_digit(buf, &at, d, u);
    }
    if (r->tail_len > 0) {
        buf[at++] = '[';
        for (size_t i = 0; i < r->tail_len; i++) {
            put_digit(buf, &at, r->tail[i], r->tail_unequal[i]);
        }
        buf[at++] = ']';
    }
    buf[at] = '\0';
    return buf;
}

/* The rule brought to normal form: `!` only on split digits, the tail
 * reduced to its least period and moved as early as it goes (never to
 * position 0), no all-zero tail, no explicit digits hidden under it. */
static void normalise(ref_rule *dst, const ref_rule *src)
{
    size_t q;

    ref_rule_zero(dst);
    dst->len = explicit_end(src);
    for (size_t k = 0; k < dst->len; k++) {
        dst->digit[k] = src->digit[k];
        dst->unequal[k] = (src->unequal[k] && (src->digit[k] & 12)) ? 1 : 0;
    }
    if (!tail_nonzero(src)) {
        /* No tail (or an all-zero one): the positions below tail_start
         * that were not written are zero already. */
        return;
    }
    dst->tail_start = src->tail_start;
    for (size_t i = 0; i < src->tail_len; i++) {
        dst->tail[i] = src->tail[i];
        dst->tail_unequal[i] =
            (src->tail_unequal[i] && (src->tail[i] & 12)) ? 1 : 0;
    }
    /* Least period of the tail. */
    for (q = 1; q < src->tail_len; q++) {
        int ok = src->tail_len % q == 0;
        for (size_t i = 0; ok && i < src->tail_len; i++) {
            ok = dst->tail[i] == dst->tail[i % q] &&
                 dst->tail_unequal[i] == dst->tail_unequal[i % q];
        }
        if (ok) {
            break;
        }
    }
    dst->tail_len = q;
    /* Start the tail as early as possible, but after the point. */
    while (dst->tail_start >= 2) {
        size_t k = dst->tail_start - 1;
        unsigned d = k < dst->len ? dst->digit[k] : 0;
        unsigned u = k < dst->len ? dst->unequal[k] : 0;
        uint8_t td = dst->tail[q - 1], tu = dst->tail_unequal[q - 1];

        if (d != td || u != tu) {
            break;
        }
        memmove(dst->tail + 1, dst->tail, q - 1);
        memmove(dst->tail_unequal + 1, dst->tail_unequal, q - 1);
        dst->tail[0] = td;
        dst->tail_unequal[0] = tu;
        dst->tail_start = k;
    }
    if (dst->len > dst->tail_start) {
        dst->len = dst->tail_start;
    }
}

typedef enum { KIND_SUBTRACT, KIND_ALLBUT, KIND_CODE } rule_kind;

static rule_kind kind_of(const ref_rule *n)
{
    size_t end = n->tail_len > 0 ? n->tail_start : n->len;

    if (n->len > 0 && n->digit[0] != 0) {
        return KIND_CODE;
    }
    if (ref_has_unequal(n)) {
        return KIND_CODE;
    }
    for (size_t k = 1; k < end; k++) {
        unsigned d = k < n->len ? n->digit[k] : 0;
        if (d != 0 && d != 3) {
            return KIND_CODE;
        }
    }
    if (n->tail_len == 0) {
        return KIND_SUBTRACT;
    }
    if (n->tail_len == 1 && n->tail[0] == 3) {
        return KIND_ALLBUT;
    }
    return KIND_CODE;
}

/* Writes an ascending list, runs of three or more as "a-b" (the
 * project's chosen canonical spelling: subtract{1-3,7}); returns the
 * number of characters written. */
static size_t put_list(char *buf, const size_t *v, size_t n)
{
    size_t at = 0;

    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && v[j + 1] == v[j] + 1) {
            j++;
        }
        at += (size_t)sprintf(buf + at, "%s%zu", i ? "," : "", v[i]);
        if (j >= i + 2) {
            at += (size_t)sprintf(buf + at, "-%zu", v[j]);
            i = j + 1;
        } else {
            i++;
        }
    }
    return at;
}

char *ref_rule_canonical(const ref_rule *r)
{
    static ref_rule n; /* large; tests run single-threaded */
    size_t cap;
    char *buf;
    static size_t list[REF_MAXPOS];
    size_t at = 0, count = 0;

    normalise(&n, r);
    cap = 24 * (n.len + n.tail_start + 4) + 64;
    buf = malloc(cap);
    if (buf == NULL) {
        return NULL;
    }
    switch (kind_of(&n)) {
    case KIND_SUBTRACT:
        at += (size_t)sprintf(buf + at, "subtract{");
        for (size_t k = 1; k < n.len; k++) {
            if (n.digit[k] == 3) {
                list[count++] = k;
            }
        }
        at += put_list(buf + at, list, count);
        sprintf(buf + at, "}");
        break;
    case KIND_ALLBUT:
        at += (size_t)sprintf(buf + at, "all-but{");
        for (size_t k = 1; k < n.tail_start; k++) {
            if (k >= n.len || n.digit[k] == 0) {
                list[count++] = k;
            }
        }
        at += put_list(buf + at, list, count);
        sprintf(buf + at, "}");
        if (count == 0) {
            sprintf(buf, "nim"); /* Nim's name, not all-but{} */
        }
        break;
    case KIND_CODE:
        free(buf);
        return ref_rule_text(&n);
    }
    return buf;
}

const char *ref_rule_family(const ref_rule *r)
{
    static ref_rule n;

    normalise(&n, r);
    switch (kind_of(&n)) {
    case KIND_SUBTRACT:
        return "subtract";
    case KIND_ALLBUT:
        return "all-but";
    case KIND_CODE:
        break;
    }
    /* octal and hex games are finite codes without `!` */
    if (n.tail_len > 0 || ref_has_unequal(&n)) {
        return "take-and-break";
    }
    return (ref_bits(&n) & 8) ? "hex" : "octal";
}

int ref_find_period(uint64_t *p, uint64_t *n0, const uint32_t *g, size_t n)
{
    for (size_t q = 1; q <= n / 4; q++) {
        size_t m = n - q;
        /* Walk back from the end while the shift by q agrees. */
        while (m > 0 && g[m - 1 + q] == g[m - 1]) {
            m--;
        }
        if (m <= n / 2) {
            *p = q;
            *n0 = m;
            return 1;
        }
    }
    return 0;
}

int ref_find_arith_period(uint64_t *p, uint64_t *n0, uint64_t *s,
                          const uint32_t *g, size_t n)
{
    for (size_t q = 1; q <= n / 4; q++) {
        size_t m = n - q;
        int64_t sal = (int64_t)g[n - 1] - (int64_t)g[n - 1 - q];

        if (sal < 0) {
            continue;
        }
        while (m > 0 && (int64_t)g[m - 1 + q] == (int64_t)g[m - 1] + sal) {
            m--;
        }
        if (m <= n / 2) {
            *p = q;
            *n0 = m;
            *s = (uint64_t)sal;
            return 1;
        }
    }
    return 0;
}

int ref_move_legal(const ref_rule *r, const mpz_t heap, const mpz_t take,
                   int nleft, const mpz_t *left)
{
    mpz_t sum;
    int u, ok;
    unsigned d;

    if (nleft < 0 || nleft > 3 || mpz_sgn(take) < 0) {
        return 0;
    }
    mpz_init_set(sum, take);
    for (int i = 0; i < nleft; i++) {
        mpz_add(sum, sum, left[i]);
    }
    ok = mpz_cmp(sum, heap) == 0;
    mpz_clear(sum);
    if (!ok) {
        return 0;
    }
    for (int i = 0; i < nleft; i++) {
        if (mpz_sgn(left[i]) <= 0) {
            return 0;
        }
        if (i > 0 && mpz_cmp(left[i - 1], left[i]) > 0) {
            return 0;
        }
    }
    d = ref_digit_mpz(r, take, &u);
    switch (nleft) {
    case 0:
        return (d & 1) && mpz_sgn(take) > 0;
    case 1:
        return (d & 2) && mpz_sgn(take) > 0;
    case 2:
        return (d & 4) && !(u && mpz_cmp(left[0], left[1]) == 0);
    default:
        return (d & 8) && !(u && (mpz_cmp(left[0], left[1]) == 0 ||
                                  mpz_cmp(left[1], left[2]) == 0));
    }
}
