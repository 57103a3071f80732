/*
 * rule.c - parsing rules of heap games into one normalised representation,
 * and printing their canonical text.  Equal games must get equal canonical
 * texts (0.77 and 0.770, 0.3[3] and 0.[3], --subtract 1-3 and --octal 0.333),
 * because the canonical text is what the cache and the user see.
 */
#define _DEFAULT_SOURCE
#include "sgexplore.h"
#include "internal.h"
#include "setexpr.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void sg_rule_init(sg_rule *r)
{
    memset(r, 0, sizeof *r);
}

void sg_rule_clear(sg_rule *r)
{
    free(r->terms);
    free(r->tail);
    free(r->tail_unequal);
    if (r->set) {
        sgi_set_clear(r->set);
        free(r->set);
    }
    sgi_tb_free(r->tb);
    free(r->profile);
    free(r->given);
    memset(r, 0, sizeof *r);
}

/* ------------------------------------------------------------------ */
/* Dense working form used while parsing and normalising                */
/* ------------------------------------------------------------------ */

typedef struct dense {
    uint8_t *digit, *uneq; /* positions 0..len-1 */
    size_t len, alloc, alloc_uneq;
    uint8_t *tail, *tail_uneq;
    size_t tail_len, tail_alloc, tail_alloc_uneq;
} dense;

/* The character at p as text for a message: the whole UTF-8 sequence when
 * it is valid, else the first byte as \xNN, so that a message never holds
 * half a character (stderr stays valid UTF-8). */
static const char *char_text(char buf[16], const char *p)
{
    const unsigned char *u = (const unsigned char *)p;
    size_t len = u[0] >= 0x20 && u[0] != 0x7F ? sg_utf8_len(p, 4) : 0;

    if (len) {
        memcpy(buf, p, len);
        buf[len] = '\0';
    } else {
        snprintf(buf, 16, "\\x%02X", u[0]);
    }
    return buf;
}

static void dense_clear(dense *d)
{
    free(d->digit);
    free(d->uneq);
    free(d->tail);
    free(d->tail_uneq);
    memset(d, 0, sizeof *d);
}

static int dense_put(dense *d, size_t pos, uint8_t digit, uint8_t uneq)
{
    if (pos >= d->alloc) {
        size_t old = d->alloc;
        /* both arrays grow alike: the positions past old read as 0 */
        if (sg_grow(&d->digit, &d->alloc, pos + 1, 1) ||
            sg_grow(&d->uneq, &d->alloc_uneq, d->alloc, 1)) {
            d->alloc = old;
            return -1;
        }
        memset(d->digit + old, 0, d->alloc - old);
        memset(d->uneq + old, 0, d->alloc - old);
    }
    d->digit[pos] = digit;
    d->uneq[pos] = uneq;
    if (pos + 1 > d->len)
        d->len = pos + 1;
    return 0;
}

/* Bring a dense code to its normal form: `!` only on digits that split,
 * the tail as short as possible and started as early as possible, no
 * trailing zeros.  Equal games then have equal dense forms. */
static void dense_normalise(dense *d)
{
    size_t i;

    for (i = 0; i < d->len; i++)
        if (!(d->digit[i] & (SG_BIT_TWO | SG_BIT_THREE)))
            d->uneq[i] = 0;
    for (i = 0; i < d->tail_len; i++)
        if (!(d->tail[i] & (SG_BIT_TWO | SG_BIT_THREE)))
            d->tail_uneq[i] = 0;

    if (d->tail_len) {
        size_t q, L = d->tail_len;
        int allzero = 1;

        for (i = 0; i < L; i++)
            if (d->tail[i])
                allzero = 0;
        if (allzero) {
            d->tail_len = 0;
        } else {
            /* Shortest repeating unit of the tail. */
            for (q = 1; q < L; q++) {
                if (L % q)
                    continue;
                for (i = q; i < L; i++)
                    if (d->tail[i] != d->tail[i - q] ||
                        d->tail_uneq[i] != d->tail_uneq[i - q])
                        break;
                if (i == L)
                    break;
            }
            d->tail_len = q;
            /* Absorb finite digits equal to the tail's last digit; never
             * into position 0, which is the digit before the point. */
            while (d->len > 1 && d->digit[d->len - 1] == d->tail[q - 1] &&
                   d->uneq[d->len - 1] == d->tail_uneq[q - 1]) {
                uint8_t a = d->tail[q - 1], b = d->tail_uneq[q - 1];
                memmove(d->tail + 1, d->tail, q - 1);
                memmove(d->tail_uneq + 1, d->tail_uneq, q - 1);
                d->tail[0] = a;
                d->tail_uneq[0] = b;
                d->len--;
            }
            return;
        }
    }
    while (d->len > 1 && d->digit[d->len - 1] == 0)
        d->len--;
}

/* Turn the dense form into the sparse rule. */
static sg_status dense_to_rule(sg_rule *r, const dense *d, sg_error *err)
{
    size_t i, n = 0;

    for (i = 0; i < d->len; i++)
        if (d->digit[i])
            n++;
    r->terms = n ? malloc(n * sizeof *r->terms) : NULL;
    if (n && !r->terms)
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    r->nterms = 0;
    for (i = 0; i < d->len; i++)
        if (d->digit[i]) {
            r->terms[r->nterms].take = i;
            r->terms[r->nterms].digit = d->digit[i];
            r->terms[r->nterms].unequal = d->uneq[i];
            r->nterms++;
        }
    if (d->tail_len) {
        r->tail_start = d->len ? d->len : 1;
        r->tail_len = d->tail_len;
        r->tail = malloc(d->tail_len);
        r->tail_unequal = malloc(d->tail_len);
        if (!r->tail || !r->tail_unequal)
            return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
        memcpy(r->tail, d->tail, d->tail_len);
        memcpy(r->tail_unequal, d->tail_uneq, d->tail_len);
    }
    return SG_OK;
}

/* ------------------------------------------------------------------ */
/* Lists: subtraction sets and all-but sets                             */
/* ------------------------------------------------------------------ */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Parse "2,3,5" / "1-3,7" into a sorted, duplicate-free array of positive
 * numbers.  `base` is added to reported positions (for canonical forms). */
static sg_status parse_list(uint64_t **out, size_t *count, const char *text,
                            long base, int allow_empty, sg_error *err)
{
    const char *p = text;
    uint64_t *v = NULL;
    size_t n = 0, alloc = 0;
    uint64_t total = 0;
    sg_status st;
    char cb[16];

    *out = NULL;
    *count = 0;
    if (*text == '\0') {
        if (allow_empty)
            return SG_OK;
        return sg_error_set(err, SG_E_INPUT, base, "empty list");
    }
    for (;;) {
        const char *q = p;
        uint64_t a, b;

        while (isdigit((unsigned char)*q))
            q++;
        if (q == p) {
            if (*p == '-')
                st = sg_error_set(err, SG_E_INPUT, base + (p - text),
                                  "negative numbers are not allowed");
            else if (*p == ',' || *p == '\0')
                st = sg_error_set(err, SG_E_INPUT, base + (p - text),
                                  "empty element in list");
            else
                st = sg_error_set(err, SG_E_INPUT, base + (p - text),
                                  "unexpected character '%s' in list",
                                  char_text(cb, p));
            goto fail;
        }
        st = sgi_parse_u63(&a, p, (size_t)(q - p), base + (p - text), err);
        if (st)
            goto fail;
        if (a == 0) {
            st = sg_error_set(err, SG_E_INPUT, base + (p - text),
                              "0 is not allowed: a move removes at least "
                              "one token");
            goto fail;
        }
        b = a;
        if (*q == '-') {
            const char *r0 = q + 1, *r = r0;
            while (isdigit((unsigned char)*r))
                r++;
            if (r == r0) {
                st = sg_error_set(err, SG_E_INPUT, base + (r0 - text),
                                  "range needs an upper end");
                goto fail;
            }
            st = sgi_parse_u63(&b, r0, (size_t)(r - r0), base + (r0 - text),
                               err);
            if (st)
                goto fail;
            if (b < a) {
                st = sg_error_set(err, SG_E_INPUT, base + (p - text),
                                  "range %llu-%llu is reversed",
                                  (unsigned long long)a, (unsigned long long)b);
                goto fail;
            }
            q = r;
        }
        total += b - a + 1;
        if (b - a + 1 > SG_RULE_MAX_TERMS || total > SG_RULE_MAX_TERMS) {
            st = sg_error_set(err, SG_E_INPUT, base + (p - text),
                              "list names more than %llu numbers",
                              (unsigned long long)SG_RULE_MAX_TERMS);
            goto fail;
        }
        for (; a <= b; a++) {
            if (sg_grow(&v, &alloc, n + 1, sizeof *v)) {
                st = sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
                goto fail;
            }
            v[n++] = a;
        }
        if (*q == '\0')
            break;
        if (*q != ',') {
            st = sg_error_set(err, SG_E_INPUT, base + (q - text),
                              "unexpected character '%s' in list",
                              char_text(cb, q));
            goto fail;
        }
        p = q + 1;
        if (*p == '\0') {
            st = sg_error_set(err, SG_E_INPUT, base + (p - text),
                              "empty element in list");
            goto fail;
        }
    }
    /* Sort and drop duplicates. */
    {
        size_t i, j;
        /* Lists are usually sorted already; sort only when not. */
        for (i = 1; i < n; i++)
            if (v[i] < v[i - 1])
                break;
        if (i < n)
            qsort(v, n, sizeof *v, cmp_u64);
        for (i = j = 0; i < n; i++)
            if (j == 0 || v[i] != v[j - 1])
                v[j++] = v[i];
        n = j;
    }
    *out = v;
    *count = n;
    return SG_OK;
fail:
    free(v);
    return st;
}

/* Whether text is a list of numbers and ranges only (or empty): such a
 * list keeps the list parser and its messages; anything else is a set
 * expression (rule_set.c). */
static int plain_list(const char *text)
{
    return text[strspn(text, "0123456789,-")] == '\0';
}

sg_status sgi_rule_from_list(sg_rule *r, const uint64_t *v, size_t n,
                             int allbut, long base, sg_error *err)
{
    size_t i, j;
    uint64_t top;

    if (!allbut) {
        r->terms = malloc((n ? n : 1) * sizeof *r->terms);
        if (!r->terms)
            return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
        for (i = 0; i < n; i++) {
            r->terms[i].take = v[i];
            r->terms[i].digit = SG_BIT_ALL | SG_BIT_ONE;
            r->terms[i].unequal = 0;
        }
        r->nterms = n;
        return SG_OK;
    }
    top = n ? v[n - 1] : 0;
    /* The rule is stored one entry per position below the tail. */
    if (top > SG_RULE_MAX_TERMS)
        return sg_error_set(err, SG_E_INPUT, base,
                            "excluded removal %llu is too large (at most "
                            "%llu)",
                            (unsigned long long)top,
                            (unsigned long long)SG_RULE_MAX_TERMS);
    /* Positions 1..top, except the listed ones, get digit 3; then [3]. */
    r->nterms = 0;
    r->terms = top ? malloc(top * sizeof *r->terms) : NULL;
    r->tail = malloc(1);
    r->tail_unequal = malloc(1);
    if ((top && !r->terms) || !r->tail || !r->tail_unequal)
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    for (i = 1, j = 0; i <= top; i++) {
        if (j < n && v[j] == i) {
            j++;
            continue;
        }
        r->terms[r->nterms].take = i;
        r->terms[r->nterms].digit = SG_BIT_ALL | SG_BIT_ONE;
        r->terms[r->nterms].unequal = 0;
        r->nterms++;
    }
    r->tail_start = top + 1;
    r->tail_len = 1;
    r->tail[0] = SG_BIT_ALL | SG_BIT_ONE;
    r->tail_unequal[0] = 0;
    return SG_OK;
}

static sg_status parse_subtract(sg_rule *r, const char *text, long base,
                                sg_error *err)
{
    uint64_t *v;
    size_t n;
    sg_status st;

    if (!plain_list(text))
        return sgi_rule_parse_set(r, text, base, 0, err);
    st = parse_list(&v, &n, text, base, 0, err);
    if (st)
        return st;
    st = sgi_rule_from_list(r, v, n, 0, base, err);
    free(v);
    return st;
}

static sg_status parse_allbut(sg_rule *r, const char *text, long base,
                              sg_error *err)
{
    uint64_t *v;
    size_t n;
    sg_status st;

    if (!plain_list(text))
        return sgi_rule_parse_set(r, text, base, 1, err);
    st = parse_list(&v, &n, text, base, 1, err);
    if (st)
        return st;
    st = sgi_rule_from_list(r, v, n, 1, base, err);
    free(v);
    return st;
}

/* ------------------------------------------------------------------ */
/* Take-and-break codes                                                 */
/* ------------------------------------------------------------------ */

static int digit_value(char c, int base)
{
    int v;
    if (c >= '0' && c <= '9')
        v = c - '0';
    else if (c >= 'a' && c <= 'f')
        v = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
        v = c - 'A' + 10;
    else
        return isalnum((unsigned char)c) ? -2 : -1;
    return v < base ? v : -2;
}

/* The digit before the point (position 0, no tokens removed) and its `!`,
 * if any, and the point: *pp moves past them. */
static sg_status parse_before_point(dense *d, const char **pp, const char *text,
                                    int base, long off, sg_error *err)
{
    const char *p = *pp;
    char cb[16];
    const char *digits_name = base == 8 ? "octal" : "hexadecimal";

    if (*p != '.') {
        int v = digit_value(*p, base);
        if (v == -2)
            return sg_error_set(err, SG_E_INPUT, off, "digit '%s' is not %s",
                                char_text(cb, p), digits_name);
        if (v < 0)
            return sg_error_set(err, SG_E_INPUT, off,
                                *p == '!' ? "'!' must follow a digit"
                                          : "unexpected character '%s' in code",
                                char_text(cb, p));
        if (v & (SG_BIT_ALL | SG_BIT_ONE))
            return sg_error_set(err, SG_E_INPUT, off,
                                "digit '%c' before the point: a move that "
                                "removes nothing must split the heap "
                                "(use 0, 4, 8 or C)",
                                *p);
        if (dense_put(d, 0, (uint8_t)v, 0))
            return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
        p++;
        if (*p == '!') {
            d->uneq[0] = 1;
            p++;
            if (*p == '!')
                return sg_error_set(err, SG_E_INPUT, off + (p - text),
                                    "'!' must follow a digit");
        }
    } else if (dense_put(d, 0, 0, 0)) {
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    }
    if (*p != '.') {
        if (*p == '\0')
            return sg_error_set(err, SG_E_INPUT, off + (p - text),
                                "code needs a point, as in 0.77");
        if (isdigit((unsigned char)*p) || isalpha((unsigned char)*p))
            return sg_error_set(err, SG_E_INPUT, off + (p - text),
                                "only one digit may stand before the point");
        return sg_error_set(err, SG_E_INPUT, off + (p - text),
                            "unexpected character '%s' in code",
                            char_text(cb, p));
    }
    *pp = p + 1;
    return SG_OK;
}

/* The digits after the point, from p on, with their `!` and the bracketed
 * repeating tail: positions 1..*pos-1 of d, or d's tail. */
static sg_status parse_after_point(dense *d, const char *p, const char *text,
                                   int base, long off, size_t *pos,
                                   sg_error *err)
{
    int in_tail = 0;
    char cb[16];
    const char *bracket = NULL;
    const char *digits_name = base == 8 ? "octal" : "hexadecimal";

    for (; *p; p++) {
        long at = off + (p - text);
        int v;
        if (*p == '[') {
            if (in_tail)
                return sg_error_set(err, SG_E_INPUT, at, "nested '['");
            in_tail = 1;
            bracket = p;
            continue;
        }
        if (*p == ']') {
            if (!in_tail)
                return sg_error_set(err, SG_E_INPUT, at, "']' without '['");
            if (d->tail_len == 0)
                return sg_error_set(err, SG_E_INPUT, at, "empty '[]' tail");
            if (p[1] != '\0')
                return sg_error_set(err, SG_E_INPUT, at + 1,
                                    "nothing may follow the repeating tail");
            in_tail = 2;
            continue;
        }
        if (*p == '!') {
            int prev_ok = in_tail == 1 ? d->tail_len > 0 : *pos > 1;
            if (!prev_ok || p[-1] == '!')
                return sg_error_set(err, SG_E_INPUT, at,
                                    "'!' must follow a digit");
            if (in_tail == 1)
                d->tail_uneq[d->tail_len - 1] = 1;
            else
                d->uneq[*pos - 1] = 1;
            continue;
        }
        v = digit_value(*p, base);
        if (v == -2)
            return sg_error_set(err, SG_E_INPUT, at, "digit '%s' is not %s",
                                char_text(cb, p), digits_name);
        if (v < 0)
            return sg_error_set(err, SG_E_INPUT, at,
                                "unexpected character '%s' in code",
                                char_text(cb, p));
        if (in_tail == 1) {
            if (sg_grow(&d->tail, &d->tail_alloc, d->tail_len + 1, 1) ||
                sg_grow(&d->tail_uneq, &d->tail_alloc_uneq, d->tail_len + 1, 1))
                return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
            d->tail[d->tail_len] = (uint8_t)v;
            d->tail_uneq[d->tail_len] = 0;
            d->tail_len++;
        } else {
            if (*pos > SG_RULE_MAX_TERMS)
                return sg_error_set(err, SG_E_INPUT, at, "code too long");
            if (dense_put(d, *pos, (uint8_t)v, 0))
                return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
            (*pos)++;
        }
    }
    if (in_tail == 1)
        return sg_error_set(err, SG_E_INPUT, off + (bracket - text),
                            "unclosed '['");
    return SG_OK;
}

/* A code in `base` (8 or 16) into r; `off` is added to the positions the
 * messages report (the code may sit inside a longer text). */
static sg_status parse_code(sg_rule *r, const char *text, int base, long off,
                            sg_error *err)
{
    dense d;
    const char *p = text;
    size_t pos = 1;
    sg_status st;

    if (*p == '\0')
        return sg_error_set(err, SG_E_INPUT, off, "empty code");
    if (base == 32) {
        /* CGSuite's whole notation where the text needs it; a code that
         * turns out ordinary comes back as an ordinary text */
        char *plain;
        if (!sgi_tb_text(text))
            return parse_code(r, text, 16, off, err);
        st = sgi_rule_parse_tb(r, text, off, &plain, err);
        if (st || !plain)
            return st;
        st = parse_code(r, plain, 16, off, err);
        free(plain);
        return st;
    }
    memset(&d, 0, sizeof d);
    st = parse_before_point(&d, &p, text, base, off, err);
    if (!st)
        st = parse_after_point(&d, p, text, base, off, &pos, err);
    if (st)
        goto out;
    /* The tail starts right after the written digits, even zero ones. */
    if (d.tail_len) {
        if (dense_put(&d, pos - 1, d.digit[pos - 1], d.uneq[pos - 1]) < 0) {
            st = sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
            goto out;
        }
        d.len = pos;
    }
    dense_normalise(&d);
    st = dense_to_rule(r, &d, err);
out:
    dense_clear(&d);
    return st;
}

/* Well-known games by name, for SG_SYNTAX_RULE (listed in sgexplore.1),
 * in any case (`Kayles`, `NIM`): they are names, not codes. */
static const struct rule_name {
    const char *name, *code;
} rule_names[] = {
    {"kayles", "0.77"}, {"dawson", "0.07"}, {"officers", "0.6"},
    {"grundy", "4!.0"}, {"nim", "0.[3]"},
};

static const char *rule_name_code(const char *text)
{
    size_t i;

    for (i = 0; i < sizeof rule_names / sizeof *rule_names; i++)
        if (strcasecmp(text, rule_names[i].name) == 0)
            return rule_names[i].code;
    return NULL;
}

/* Whether text (at most 64 characters) is a set expression, for the hint
 * of a rule argument such as `primes`. */
static int is_set_text(const char *text)
{
    sgi_set set;
    int ok;

    if (strlen(text) > 64)
        return 0;
    sgi_set_init(&set);
    ok = sgi_set_parse(&set, text, NULL) == SG_OK;
    sgi_set_clear(&set);
    return ok;
}

/* A given form equal to the canonical text says nothing: dropped. */
static sg_status drop_canonical_given(sg_rule *r, sg_error *err)
{
    char *canon = sg_rule_canonical(r);

    if (!canon)
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    if (strcmp(canon, r->given) == 0) {
        free(r->given);
        r->given = NULL;
    }
    free(canon);
    return SG_OK;
}

const char *sg_rule_given_family(const char *given)
{
    if (given && strncmp(given, "subtract{", 9) == 0)
        return "subtract";
    if (given && strncmp(given, "all-but{", 8) == 0)
        return "all-but";
    return NULL;
}

sg_status sg_rule_parse(sg_rule *r, sg_rule_syntax syntax, const char *text,
                        sg_error *err)
{
    const char *code;
    sg_status st;
    size_t len = strlen(text);

    sg_rule_clear(r);
    if (len > SG_RULE_MAX_TEXT)
        return sg_error_set(err, SG_E_INPUT, (long)SG_RULE_MAX_TEXT,
                            "the rule text is %zu characters long; at most "
                            "%zu are read",
                            len, SG_RULE_MAX_TEXT);
    switch (syntax) {
    case SG_SYNTAX_SUBTRACT:
        st = parse_subtract(r, text, 0, err);
        break;
    case SG_SYNTAX_ALLBUT:
        st = parse_allbut(r, text, 0, err);
        break;
    case SG_SYNTAX_OCTAL:
        st = parse_code(r, text, 8, 0, err);
        break;
    case SG_SYNTAX_HEX:
        st = parse_code(r, text, 16, 0, err);
        break;
    case SG_SYNTAX_GRUNDY:
        st = parse_code(r, "4!.0", 8, 0, err);
        break;
    case SG_SYNTAX_RULE:
    default:
        if (strncasecmp(text, "subtract{", 9) == 0 ||
            strncasecmp(text, "all-but{", 8) == 0) {
            int sub = text[0] == 's' || text[0] == 'S';
            size_t open = sub ? 9 : 8;
            char *inner;
            if (len < open + 1 || text[len - 1] != '}' ||
                memchr(text + open, '}', len - open - 1)) {
                st = sg_error_set(err, SG_E_INPUT, (long)len,
                                  "expected '}' at the end");
                break;
            }
            inner = strndup(text + open, len - open - 1);
            if (!inner) {
                st = sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
                break;
            }
            st = sub ? parse_subtract(r, inner, (long)open, err)
                     : parse_allbut(r, inner, (long)open, err);
            free(inner);
        } else if (strncasecmp(text, "moves{", 6) == 0) {
            char *inner, *mcode;
            if (len < 7 || text[len - 1] != '}') {
                st = sg_error_set(err, SG_E_INPUT, (long)len,
                                  "expected '}' at the end");
                break;
            }
            if (!(inner = strndup(text + 6, len - 7))) {
                st = sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
                break;
            }
            st = sgi_rule_parse_moves(r, inner, 6, &mcode, err);
            free(inner);
            if (!st && mcode) {
                st = parse_code(r, mcode, 32, 0, err);
                free(mcode);
            }
        } else if ((code = rule_name_code(text)) != NULL) {
            st = parse_code(r, code, 16, 0, err);
        } else if (isalpha((unsigned char)text[0]) && !strchr(text, '.') &&
                   is_set_text(text)) {
            st = sg_error_set(err, SG_E_INPUT, 0,
                              "unknown rule name: '%s' is a set, the rule is "
                              "--subtract %s, --all-but %s or "
                              "'subtract{%s}' (known names: kayles, dawson, "
                              "officers, grundy, nim)",
                              text, text, text, text);
        } else if (isalpha((unsigned char)text[0]) && !strchr(text, '.')) {
            st = sg_error_set(err, SG_E_INPUT, 0,
                              "unknown rule name (known names: kayles, "
                              "dawson, officers, grundy, nim; or a code "
                              "such as 0.77 or subtract{1,3,4})");
        } else {
            st = parse_code(r, text, 32, 0, err);
        }
        break;
    }
    /* The profile, once the rule is whole (rules are immutable after). */
    if (!st)
        st = sgi_rule_profile_build(r, err);
    if (!st && r->given)
        st = drop_canonical_given(r, err);
    if (st)
        sg_rule_clear(r);
    return st;
}

/* ------------------------------------------------------------------ */
/* Questions about a rule                                               */
/* ------------------------------------------------------------------ */

unsigned sg_rule_digit(const sg_rule *r, uint64_t k, int *unequal)
{
    size_t lo = 0, hi = r->nterms;

    if (unequal)
        *unequal = 0;
    if (r->tail_len && k >= r->tail_start) {
        size_t i = (size_t)((k - r->tail_start) % r->tail_len);
        if (unequal)
            *unequal = r->tail_unequal[i];
        return r->tail[i];
    }
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->terms[mid].take < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < r->nterms && r->terms[lo].take == k) {
        if (unequal)
            *unequal = r->terms[lo].unequal;
        return r->terms[lo].digit;
    }
    return 0;
}

uint64_t sg_rule_max_take(const sg_rule *r)
{
    if (r->tail_len || r->set || (r->tb && r->tb->tail_len))
        return UINT64_MAX;
    if (r->tb)
        return r->tb->len - 1;
    return r->nterms ? r->terms[r->nterms - 1].take : 0;
}

unsigned sg_rule_bits(const sg_rule *r)
{
    unsigned bits = 0;
    size_t i;

    for (i = 0; i < r->nterms; i++)
        bits |= r->terms[i].digit;
    for (i = 0; i < r->tail_len; i++)
        bits |= r->tail[i];
    if (r->set) /* a move takes k tokens and leaves one heap or none */
        bits |= SG_BIT_ALL | SG_BIT_ONE;
    if (r->tb) /* the digits' bits up to three heaps */
        for (i = 0; i < r->tb->len; i++)
            bits |= (unsigned)(r->tb->d[i].mask & 15);
    return bits;
}

int sg_rule_has_unequal(const sg_rule *r)
{
    size_t i;

    for (i = 0; i < r->nterms; i++)
        if (r->terms[i].unequal)
            return 1;
    for (i = 0; i < r->tail_len; i++)
        if (r->tail_unequal[i])
            return 1;
    return 0;
}

/* Every finite digit is 3 and none stands before the point. */
static int all_threes(const sg_rule *r)
{
    size_t i;

    for (i = 0; i < r->nterms; i++)
        if (r->terms[i].take == 0 || r->terms[i].digit != 3)
            return 0;
    return 1;
}

int sgi_rule_is_subtract(const sg_rule *r)
{
    return r->tail_len == 0 && r->nterms > 0 && all_threes(r);
}

int sgi_rule_is_allbut(const sg_rule *r)
{
    return r->tail_len == 1 && r->tail[0] == 3 && !r->tail_unequal[0] &&
           all_threes(r);
}

/* ------------------------------------------------------------------ */
/* Canonical text                                                       */
/* ------------------------------------------------------------------ */

typedef struct sbuf {
    char *s;
    size_t n, alloc;
    int failed;
} sbuf;

static void sb_putc(sbuf *b, char c)
{
    if (b->failed)
        return;
    if (sg_grow(&b->s, &b->alloc, b->n + 2, 1)) {
        b->failed = 1;
        return;
    }
    b->s[b->n++] = c;
    b->s[b->n] = '\0';
}

static void sb_puts(sbuf *b, const char *s)
{
    while (*s)
        sb_putc(b, *s++);
}

static void sb_putu(sbuf *b, uint64_t v)
{
    char tmp[24];
    int i = 0;
    do {
        tmp[i++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (i)
        sb_putc(b, tmp[--i]);
}

/* Write a sorted list compactly: runs of three or more as a-b. */
static void sb_put_list(sbuf *b, const uint64_t *v, size_t n)
{
    size_t i = 0;
    while (i < n) {
        size_t j = i;
        while (j + 1 < n && v[j + 1] == v[j] + 1)
            j++;
        if (i)
            sb_putc(b, ',');
        sb_putu(b, v[i]);
        if (j >= i + 2) {
            sb_putc(b, '-');
            sb_putu(b, v[j]);
            i = j + 1;
        } else {
            i++;
        }
    }
}

static void sb_put_digit(sbuf *b, unsigned d, int uneq)
{
    sb_putc(b, "0123456789ABCDEF"[d & 15]);
    if (uneq)
        sb_putc(b, '!');
}

char *sg_rule_canonical(const sg_rule *r)
{
    sbuf b = {0};
    size_t i;

    if (r->set) {
        char *text;
        if (sgi_rule_set_text(&text, r))
            return NULL;
        if (text)
            return text;
    }
    if (r->tb)
        return sgi_tb_canonical(r->tb);
    sb_putc(&b, '\0');
    b.n = 0;
    if (sgi_rule_is_subtract(r) || sgi_rule_is_allbut(r)) {
        int sub = sgi_rule_is_subtract(r);
        /* All-but lists name the zero positions below the tail. */
        size_t cap = sub ? r->nterms : (size_t)r->tail_start;
        uint64_t *v = malloc((cap + 1) * sizeof *v);
        size_t n = 0;
        if (!v) {
            free(b.s);
            return NULL;
        }
        if (sub) {
            for (i = 0; i < r->nterms; i++)
                v[n++] = r->terms[i].take;
        } else {
            uint64_t k;
            size_t j = 0;
            for (k = 1; k < r->tail_start; k++) {
                if (j < r->nterms && r->terms[j].take == k)
                    j++;
                else
                    v[n++] = k;
            }
        }
        if (!sub && n == 0) {
            /* all-but{} is Nim: its name is what a reader expects */
            sb_puts(&b, "nim");
        } else {
            sb_puts(&b, sub ? "subtract{" : "all-but{");
            sb_put_list(&b, v, n);
            sb_putc(&b, '}');
        }
        free(v);
    } else {
        uint64_t k, end;
        size_t j = 0;
        int u0;
        unsigned d0 = sg_rule_digit(r, 0, &u0);

        if (r->tail_len && r->tail_start == 0) {
            /* Not produced by the parser: the tail never covers 0. */
            free(b.s);
            return NULL;
        }
        sb_put_digit(&b, d0, u0);
        sb_putc(&b, '.');
        end = r->tail_len ? r->tail_start : sg_rule_max_take(r) + 1;
        if (end <= 1 && !r->tail_len)
            sb_putc(&b, '0');
        if (r->nterms && r->terms[0].take == 0)
            j = 1;
        for (k = 1; k < end; k++) {
            if (j < r->nterms && r->terms[j].take == k) {
                sb_put_digit(&b, r->terms[j].digit, r->terms[j].unequal);
                j++;
            } else {
                sb_putc(&b, '0');
            }
        }
        if (r->tail_len) {
            sb_putc(&b, '[');
            for (i = 0; i < r->tail_len; i++)
                sb_put_digit(&b, r->tail[i], r->tail_unequal[i]);
            sb_putc(&b, ']');
        }
    }
    if (b.failed) {
        free(b.s);
        return NULL;
    }
    return b.s;
}
