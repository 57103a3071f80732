/*
 * rule_tb.c - take-and-break codes in CGSuite's whole notation
 * (docs/THEORY.md, section 7.6): base-32 digits 0-9, A-V and `&N;` (bit
 * j: a move may leave exactly j heaps, so digits from G on leave four or
 * more), each followed by at most one constraint on the heaps a split
 * leaves: `!` pairwise different, `?` not all equal, `=` all equal.
 * A code that normalises to digits 0-F with `!` only is handed back as an
 * ordinary code, so that one game has one canonical text and one cache
 * key whichever way it was written (`0.4?` is `0.4!`).
 */
#include "sgexplore.h"
#include "internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char base32[] = "0123456789ABCDEFGHIJKLMNOPQRSTUV";

int sgi_tb_text(const char *text)
{
    for (; *text; text++) {
        int c = toupper((unsigned char)*text);
        if (strchr("?=&*{", c) || (c > 'F' && c <= 'Z'))
            return 1;
    }
    return 0;
}

void sgi_tb_free(sgi_tb *tb)
{
    if (tb) {
        free(tb->d);
        free(tb);
    }
}

sgi_tb_digit sgi_tb_digit_at(const sgi_tb *tb, uint64_t k)
{
    sgi_tb_digit none = {0, SGI_TB_ANY};
    size_t pre = tb->len - tb->tail_len;

    if (k < tb->len)
        return tb->d[k];
    if (!tb->tail_len)
        return none;
    return tb->d[pre + (size_t)((k - pre) % tb->tail_len)];
}

unsigned sgi_tb_max_heaps(const sgi_tb *tb)
{
    uint64_t all = 0;
    unsigned j = 0;
    size_t i;

    for (i = 0; i < tb->len; i++)
        all |= tb->d[i].mask;
    while (j < 63 && (all >> (j + 1)))
        j++;
    return j;
}

/* The growing digit list of the parser. */
typedef struct tb_build {
    sgi_tb_digit *d;
    size_t len, alloc;
    size_t tail_from; /* index of the first tail digit, or SIZE_MAX */
} tb_build;

static int build_push(tb_build *b, sgi_tb_digit d)
{
    if (sg_grow(&b->d, &b->alloc, b->len + 1, sizeof *b->d))
        return -1;
    b->d[b->len++] = d;
    return 0;
}

/* One digit at *pp (a base-32 character, `&N;` or `{i,j,...}`) and its
 * constraint; *pp moves past them. */
static sg_status parse_digit(sgi_tb_digit *out, const char **pp,
                             const char *text, long off, sg_error *err)
{
    const char *p = *pp, *q;
    long at = off + (p - text);
    uint64_t mask = 0;
    int c = toupper((unsigned char)*p);

    if (c == '*')
        return sg_error_set(err, SG_E_INPUT, at,
                            "'*' (any number of heaps) is not implemented");
    if (c == '&') {
        uint64_t v = 0;
        for (q = p + 1; isdigit((unsigned char)*q); q++) {
            if (v > (((uint64_t)1 << 63) - 1 - (uint64_t)(*q - '0')) / 10)
                return sg_error_set(err, SG_E_INPUT, at,
                                    "digit '&...;' above 2^63 - 1: a move "
                                    "leaves at most %d heaps",
                                    SGI_TB_MAX_HEAPS);
            v = v * 10 + (uint64_t)(*q - '0');
        }
        if (q == p + 1 || *q != ';')
            return sg_error_set(err, SG_E_INPUT, at,
                                "digit '&' needs a decimal number and ';', "
                                "as in &48;");
        mask = v;
        p = q + 1;
    } else if (c == '{') {
        for (q = p + 1;; q++) {
            uint64_t j = 0;
            const char *n0 = q;
            while (isdigit((unsigned char)*q) && j <= SGI_TB_MAX_HEAPS)
                j = j * 10 + (uint64_t)(*q++ - '0');
            if (*q == '+' || (q == n0 && *q == '+'))
                return sg_error_set(err, SG_E_INPUT, off + (q - text),
                                    "'+' (any number of heaps) is not "
                                    "implemented");
            if (q == n0)
                return sg_error_set(err, SG_E_INPUT, off + (q - text),
                                    "expected a number of heaps in '{..}'");
            if (j > SGI_TB_MAX_HEAPS || isdigit((unsigned char)*q))
                return sg_error_set(err, SG_E_INPUT, off + (n0 - text),
                                    "a move leaves at most %d heaps",
                                    SGI_TB_MAX_HEAPS);
            mask |= (uint64_t)1 << j;
            if (*q == '}')
                break;
            if (*q == '!' || *q == '?' || *q == '=')
                return sg_error_set(err, SG_E_INPUT, off + (q - text),
                                    "one constraint for the whole list: "
                                    "after its '}'");
            if (*q != ',')
                return sg_error_set(err, SG_E_INPUT, off + (q - text),
                                    *q ? "expected ',' or '}' in '{..}'"
                                       : "unclosed '{'");
        }
        p = q + 1;
    } else {
        const char *hit = c ? strchr(base32, c) : NULL;
        if (!hit) {
            if (c == '!' || c == '?' || c == '=')
                return sg_error_set(err, SG_E_INPUT, at,
                                    "'%c' must follow a digit", c);
            if (isalnum(c))
                return sg_error_set(err, SG_E_INPUT, at,
                                    "digit '%c' is not a code digit (0-9, "
                                    "A-V or &N;)",
                                    *p);
            return sg_error_set(err, SG_E_INPUT, at,
                                isprint(c) ? "unexpected character '%c' in code"
                                           : "unexpected byte 0x%02X in code",
                                (unsigned char)*p);
        }
        mask = (uint64_t)(hit - base32);
        p++;
    }
    out->mask = mask;
    out->cons = SGI_TB_ANY;
    if (*p == '!' || *p == '?' || *p == '=') {
        out->cons = *p == '!'   ? SGI_TB_UNEQUAL
                    : *p == '?' ? SGI_TB_SOMEUNEQ
                                : SGI_TB_EQUAL;
        p++;
        if (*p == '!' || *p == '?' || *p == '=')
            return sg_error_set(err, SG_E_INPUT, off + (p - text),
                                "two constraints in a row ('%c' after '%c')",
                                *p, p[-1]);
    }
    *pp = p;
    return SG_OK;
}

/* The constraint in its normal form: none without a split; `?` on a
 * digit whose only split leaves two heaps is `!`. */
static void normalise_digit(sgi_tb_digit *d)
{
    uint64_t splits = d->mask >> 2;

    if (!splits)
        d->cons = SGI_TB_ANY;
    else if (splits == 1 && d->cons == SGI_TB_SOMEUNEQ)
        d->cons = SGI_TB_UNEQUAL;
}

static int same_digit(sgi_tb_digit a, sgi_tb_digit b)
{
    return a.mask == b.mask && a.cons == b.cons;
}

/* As for ordinary codes (rule.c, dense_normalise): the tail as short as
 * possible and started as early as possible (never at position 0), no
 * trailing zero digits. */
static void normalise(tb_build *b)
{
    size_t i, q, L, pre;

    for (i = 0; i < b->len; i++)
        normalise_digit(&b->d[i]);
    if (b->tail_from != SIZE_MAX) {
        int allzero = 1;
        pre = b->tail_from;
        L = b->len - pre;
        for (i = pre; i < b->len; i++)
            if (b->d[i].mask)
                allzero = 0;
        if (allzero) {
            b->len = pre;
            b->tail_from = SIZE_MAX;
        } else {
            for (q = 1; q < L; q++) {
                if (L % q)
                    continue;
                for (i = q; i < L; i++)
                    if (!same_digit(b->d[pre + i], b->d[pre + i - q]))
                        break;
                if (i == L)
                    break;
            }
            b->len = pre + q;
            /* d[pre-1] equal to the tail's last digit: the tail may
             * start one earlier, d[pre-1 .. len-2] being the same tail
             * rotated */
            while (pre > 1 && same_digit(b->d[pre - 1], b->d[b->len - 1])) {
                pre--;
                b->len--;
            }
            b->tail_from = pre;
            return;
        }
    }
    while (b->len > 1 && b->d[b->len - 1].mask == 0)
        b->len--;
}

/* Whether every digit is an ordinary one: 0-F, constraint none or `!`. */
static int plain_code(const tb_build *b)
{
    size_t i;

    for (i = 0; i < b->len; i++)
        if (b->d[i].mask > 15 ||
            (b->d[i].cons != SGI_TB_ANY && b->d[i].cons != SGI_TB_UNEQUAL))
            return 0;
    return 1;
}

/* Digits d[0..len-1] as code text, the tail from tail_from. */
static char *code_text(const sgi_tb_digit *d, size_t len, size_t tail_from)
{
    size_t cap = 32 * len + 8, n = 0, i;
    char *s = malloc(cap);

    if (!s)
        return NULL;
    for (i = 0; i < len; i++) {
        if (i == 1)
            s[n++] = '.';
        if (i == tail_from)
            s[n++] = '[';
        if (d[i].mask < 32)
            s[n++] = base32[d[i].mask];
        else
            n += (size_t)snprintf(s + n, cap - n, "&%llu;",
                                  (unsigned long long)d[i].mask);
        if (d[i].cons != SGI_TB_ANY)
            s[n++] = "!!?="[d[i].cons];
    }
    if (len == 1) {
        s[n++] = '.';
        s[n++] = '0';
    }
    if (tail_from < len)
        s[n++] = ']';
    s[n] = '\0';
    return s;
}

char *sgi_tb_canonical(const sgi_tb *tb)
{
    return code_text(tb->d, tb->len,
                     tb->tail_len ? tb->len - tb->tail_len : SIZE_MAX);
}

sg_status sgi_rule_parse_tb(sg_rule *r, const char *text, long off,
                            char **plain, sg_error *err)
{
    tb_build b = {NULL, 0, 0, SIZE_MAX};
    const char *p = text, *bracket = NULL;
    sgi_tb_digit d0 = {0, SGI_TB_ANY}, d;
    sg_status st = SG_OK;
    size_t i;

    *plain = NULL;
    if (*p == '\0')
        return sg_error_set(err, SG_E_INPUT, off, "empty code");
    if (*p != '.' && (st = parse_digit(&d0, &p, text, off, err)))
        return st;
    if (*p != '.') {
        if (*p == '\0')
            return sg_error_set(err, SG_E_INPUT, off + (p - text),
                                "code needs a point, as in 0.77");
        if (isalnum((unsigned char)*p) || *p == '&' || *p == '{')
            return sg_error_set(err, SG_E_INPUT, off + (p - text),
                                "only one digit may stand before the point "
                                "(CGSuite's additive digits, moves that add "
                                "tokens, can repeat forever: not supported)");
        /* whatever stands there is not a digit: parse_digit names it */
        if ((st = parse_digit(&d, &p, text, off, err)))
            return st;
        return sg_error_set(err, SG_E_INPUT, off + (p - text),
                            "code needs a point, as in 0.77");
    }
    if (d0.mask & 3)
        return sg_error_set(err, SG_E_INPUT, off,
                            "digit before the point: a move that removes "
                            "nothing must split the heap (its bits 1 and 2 "
                            "must be clear)");
    if (build_push(&b, d0))
        goto nomem;
    for (p++; *p;) {
        long at = off + (p - text);
        if (*p == '[') {
            if (b.tail_from != SIZE_MAX) {
                st = sg_error_set(err, SG_E_INPUT, at, "nested '['");
                goto out;
            }
            b.tail_from = b.len;
            bracket = p++;
            continue;
        }
        if (*p == ']') {
            if (b.tail_from == SIZE_MAX || bracket == NULL) {
                st = sg_error_set(err, SG_E_INPUT, at, "']' without '['");
                goto out;
            }
            if (b.len == b.tail_from) {
                st = sg_error_set(err, SG_E_INPUT, at, "empty '[]' tail");
                goto out;
            }
            if (p[1] != '\0') {
                st = sg_error_set(err, SG_E_INPUT, at + 1,
                                  "nothing may follow the repeating tail");
                goto out;
            }
            bracket = NULL;
            p++;
            continue;
        }
        if ((st = parse_digit(&d, &p, text, off, err)))
            goto out;
        if (b.len >= SGI_TB_MAX_DIGITS) {
            st = sg_error_set(err, SG_E_INPUT, at,
                              "code too long: at most %d digits in CGSuite's "
                              "notation",
                              SGI_TB_MAX_DIGITS);
            goto out;
        }
        if (build_push(&b, d))
            goto nomem;
    }
    if (bracket) {
        st = sg_error_set(err, SG_E_INPUT, off + (bracket - text),
                          "unclosed '['");
        goto out;
    }
    normalise(&b);
    for (i = 0; i < b.len; i++)
        if (b.d[i].cons == SGI_TB_UNEQUAL && (b.d[i].mask >> 4)) {
            st = sg_error_set(err, SG_E_INPUT, off,
                              "'!' on digit %zu after the point, which may "
                              "leave four or more heaps, is not implemented",
                              i);
            goto out;
        }
    if (plain_code(&b)) {
        *plain = code_text(b.d, b.len, b.tail_from);
        if (!*plain)
            goto nomem;
        goto out;
    }
    r->tb = malloc(sizeof *r->tb);
    if (!r->tb)
        goto nomem;
    r->tb->d = b.d;
    r->tb->len = b.len;
    r->tb->tail_len = b.tail_from == SIZE_MAX ? 0 : b.len - b.tail_from;
    return SG_OK;
nomem:
    st = sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
out:
    free(b.d);
    return st;
}
