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
#include "setexpr.h"

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
    size_t i;

    if (tb) {
        for (i = 0; i < tb->nent; i++)
            if (tb->ent[i].set) {
                sgi_set_clear(tb->ent[i].set);
                free(tb->ent[i].set);
            }
        free(tb->ent);
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
    for (i = 0; i < tb->nent; i++)
        all |= tb->ent[i].digit.mask;
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

/* The digit d as canonical text (at most 24 bytes). */
static void digit_text(char buf[32], sgi_tb_digit d)
{
    size_t n;

    if (d.mask < 32) {
        buf[0] = base32[d.mask];
        n = 1;
    } else {
        n = (size_t)snprintf(buf, 32, "&%llu;", (unsigned long long)d.mask);
    }
    if (d.cons != SGI_TB_ANY)
        buf[n++] = "!!?="[d.cons];
    buf[n] = '\0';
}

/* moves{D@0;D@SET;...}: the digit before the point first, then the
 * entries in their order. */
static char *moves_text(const sgi_tb *tb)
{
    size_t cap = 64, n, i;
    char *s = malloc(cap), dt[32];

    if (!s)
        return NULL;
    n = (size_t)snprintf(s, cap, "moves{");
    for (i = 0; i <= tb->nent; i++) {
        const char *set = "0";
        char *own = NULL;
        size_t need;
        if (i == 0 && tb->d[0].mask == 0)
            continue;
        digit_text(dt, i == 0 ? tb->d[0] : tb->ent[i - 1].digit);
        if (i > 0 && !(set = own = sgi_set_canonical(tb->ent[i - 1].set))) {
            free(s);
            return NULL;
        }
        need = n + strlen(dt) + strlen(set) + 4;
        if (need > cap) {
            char *t;
            while (cap < need)
                cap *= 2;
            if (!(t = realloc(s, cap))) {
                free(own);
                free(s);
                return NULL;
            }
            s = t;
        }
        n += (size_t)snprintf(s + n, cap - n, "%s%s@%s", n > 6 ? ";" : "", dt,
                              set);
        free(own);
    }
    snprintf(s + n, cap - n, "}");
    return s;
}

char *sgi_tb_canonical(const sgi_tb *tb)
{
    if (tb->nent)
        return moves_text(tb);
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
    r->tb = calloc(1, sizeof *r->tb);
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

/* ------------------------------------------------------------------ */
/* Rules by sets: moves{D@SET;...}                                      */
/* ------------------------------------------------------------------ */

/* An entry as parsed: its digit, and its set (NULL for position 0). */
typedef struct mv_entry {
    sgi_tb_digit digit;
    sgi_set *set;
    char *text; /* the set's canonical text, for sorting and merging */
} mv_entry;

static void entries_free(mv_entry *e, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        if (e[i].set) {
            sgi_set_clear(e[i].set);
            free(e[i].set);
        }
        free(e[i].text);
    }
    free(e);
}

static int entry_cmp(const void *a, const void *b)
{
    const mv_entry *x = a, *y = b;
    char dx[32], dy[32];
    int c;

    digit_text(dx, x->digit);
    digit_text(dy, y->digit);
    if ((c = strcmp(dx, dy)) != 0)
        return c;
    return strcmp(x->text, y->text);
}

/* The digit that allows both a and b, when one does (same constraint, or
 * one of them without splits, or no constraint on a superset of the
 * other's splits): 1 and *out, else 0. */
static int digit_union(sgi_tb_digit *out, sgi_tb_digit a, sgi_tb_digit b)
{
    uint64_t sa = a.mask >> 2, sb = b.mask >> 2;

    out->mask = a.mask | b.mask;
    if (a.cons == b.cons || !sb)
        out->cons = a.cons;
    else if (!sa)
        out->cons = b.cons;
    else if (a.cons == SGI_TB_ANY && (sb & ~sa) == 0)
        out->cons = SGI_TB_ANY;
    else if (b.cons == SGI_TB_ANY && (sa & ~sb) == 0)
        out->cons = SGI_TB_ANY;
    else
        return 0;
    normalise_digit(out);
    return 1;
}

/* The code the entries write, when every set is heap-independent and
 * finite or eventually periodic and the digits at each position merge:
 * its text (malloc'ed) in *code, else *code NULL. */
static sg_status entries_code(char **code, const mv_entry *e, size_t n,
                              sgi_tb_digit d0)
{
    uint64_t L = 1, off = 1, per, o, top, k;
    size_t i;
    tb_build b = {NULL, 0, 0, SIZE_MAX};
    int periodic = 0;

    *code = NULL;
    for (i = 0; i < n; i++) {
        const sgi_set *s = e[i].set;
        if (sgi_set_heap_dependent(s))
            return SG_OK;
        if (sgi_set_finite(s, &top)) {
            if (top >= SGI_TB_MAX_DIGITS)
                return SG_OK;
            if (top + 1 > off)
                off = top + 1;
        } else if (sgi_set_periodic(s, &per, &o)) {
            uint64_t g = L, h = per, l;
            while (h) {
                uint64_t t = g % h;
                g = h;
                h = t;
            }
            l = L / g * per;
            if (per >= SGI_TB_MAX_DIGITS || l >= SGI_TB_MAX_DIGITS ||
                o >= SGI_TB_MAX_DIGITS)
                return SG_OK;
            L = l;
            if (o > off)
                off = o;
            periodic = 1;
        } else {
            return SG_OK;
        }
    }
    if (off + (periodic ? L : 0) > SGI_TB_MAX_DIGITS)
        return SG_OK;
    if (build_push(&b, d0))
        return SG_E_NOMEM;
    for (k = 1; k < off + (periodic ? L : 0); k++) {
        sgi_tb_digit d = {0, SGI_TB_ANY};
        for (i = 0; i < n; i++)
            if (sgi_set_contains(e[i].set, k, k) &&
                !digit_union(&d, d, e[i].digit)) {
                free(b.d);
                return SG_OK;
            }
        if (build_push(&b, d)) {
            free(b.d);
            return SG_E_NOMEM;
        }
    }
    if (periodic)
        b.tail_from = (size_t)off;
    normalise(&b);
    for (i = 0; i < b.len; i++)
        if (b.d[i].cons == SGI_TB_UNEQUAL && (b.d[i].mask >> 4)) {
            free(b.d);
            return SG_OK;
        }
    *code = code_text(b.d, b.len, b.tail_from);
    free(b.d);
    return *code ? SG_OK : SG_E_NOMEM;
}

/* The union of two sets' canonical texts, parsed again into one set. */
static sg_status merge_sets(mv_entry *into, const mv_entry *from, sg_error *err)
{
    size_t len = strlen(into->text) + strlen(from->text) + 2;
    char *u = malloc(len);
    sgi_set s;
    sg_status st;

    if (!u)
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    snprintf(u, len, "%s,%s", into->text, from->text);
    sgi_set_init(&s);
    st = sgi_set_parse(&s, u, err);
    free(u);
    if (st) {
        sgi_set_clear(&s);
        return st;
    }
    sgi_set_clear(into->set);
    *into->set = s;
    free(into->text);
    into->text = sgi_set_canonical(into->set);
    return into->text ? SG_OK
                      : sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
}

/* One entry per digit: equal digits merge their sets, sorted by
 * entry_cmp; *n becomes the number kept.  On failure *n is unchanged
 * and the entries merged away are empty, so that entries_free(e, *n)
 * frees what is left.  (No entries at all when every move takes nothing,
 * and e is then NULL, which qsort may not be given.) */
static sg_status entries_merge(mv_entry *e, size_t *n, sg_error *err)
{
    size_t i, j;
    sg_status st;

    if (*n > 1)
        qsort(e, *n, sizeof *e, entry_cmp);
    for (i = 0, j = 0; i < *n; i++) {
        if (j && same_digit(e[j - 1].digit, e[i].digit)) {
            st = merge_sets(&e[j - 1], &e[i], err);
            sgi_set_clear(e[i].set);
            free(e[i].set);
            free(e[i].text);
            e[i].set = NULL;
            e[i].text = NULL;
            if (st)
                return st;
            continue;
        }
        if (j != i) {
            e[j] = e[i];
            e[i].set = NULL;
            e[i].text = NULL;
        }
        j++;
    }
    *n = j;
    if (*n > 1)
        qsort(e, *n, sizeof *e, entry_cmp);
    return SG_OK;
}

sg_status sgi_rule_parse_moves(sg_rule *r, const char *inner, long off,
                               char **code, sg_error *err)
{
    mv_entry *e = NULL;
    size_t n = 0, cap = 0, i;
    sgi_tb_digit d0 = {0, SGI_TB_ANY};
    const char *p = inner;
    sg_status st = SG_OK;
    int all_three = 1;

    *code = NULL;
    while (*p) {
        const char *at = strchr(p, '@'), *end = strchr(p, ';');
        sgi_tb_digit d;
        const char *q = p;
        char *stext;
        if (!end)
            end = p + strlen(p);
        if (!at || at > end) {
            st = sg_error_set(err, SG_E_INPUT, off + (p - inner),
                              "an entry of moves{..} is DIGIT@SET, as in "
                              "4@primes");
            goto out;
        }
        if ((st = parse_digit(&d, &q, inner, off, err)))
            goto out;
        if (q != at) {
            st = sg_error_set(err, SG_E_INPUT, off + (q - inner),
                              "expected '@' after the digit");
            goto out;
        }
        normalise_digit(&d);
        if (d.cons == SGI_TB_UNEQUAL && (d.mask >> 4)) {
            st = sg_error_set(err, SG_E_INPUT, off + (p - inner),
                              "'!' on a digit that may leave four or more "
                              "heaps is not implemented");
            goto out;
        }
        if (end - at == 2 && at[1] == '0') {
            if (d.mask & 3) {
                st = sg_error_set(err, SG_E_INPUT, off + (p - inner),
                                  "a move that removes nothing (@0) must "
                                  "split the heap");
                goto out;
            }
            if (!digit_union(&d0, d0, d)) {
                st = sg_error_set(err, SG_E_INPUT, off + (p - inner),
                                  "two digits @0 whose constraints do not "
                                  "merge");
                goto out;
            }
            if (d.mask)
                all_three = 0;
            p = *end ? end + 1 : end;
            continue;
        }
        if (!d.mask) { /* digit 0 allows nothing */
            p = *end ? end + 1 : end;
            continue;
        }
        if (sg_grow(&e, &cap, n + 1, sizeof *e)) {
            st = sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
            goto out;
        }
        memset(&e[n], 0, sizeof e[n]);
        e[n].digit = d;
        if (!(e[n].set = malloc(sizeof *e[n].set)) ||
            !(stext = strndup(at + 1, (size_t)(end - at - 1)))) {
            free(e[n].set);
            st = sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
            goto out;
        }
        n++;
        sgi_set_init(e[n - 1].set);
        st = sgi_set_parse(e[n - 1].set, stext, err);
        free(stext);
        if (st) {
            if (err && err->pos >= 0)
                err->pos += off + (at + 1 - inner);
            goto out;
        }
        if (!(e[n - 1].text = sgi_set_canonical(e[n - 1].set))) {
            st = sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
            goto out;
        }
        if (d.mask != 3)
            all_three = 0;
        p = *end ? end + 1 : end;
    }
    if (n == 0 && d0.mask == 0) {
        /* no move at all: the game 0.0, as the code `0.` is (issue 50:
         * one was refused, the other accepted) */
        if (!(*code = strdup("0.0")))
            st = sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
        goto out;
    }
    if ((st = entries_merge(e, &n, err)))
        goto out;
    /* subtract{SET}: one entry of digit 3 and nothing before the point */
    if (all_three && n == 1 && d0.mask == 0) {
        st = sgi_rule_parse_set(r, e[0].text, off, 0, err);
        goto out;
    }
    if ((st = entries_code(code, e, n, d0)) || *code)
        goto out;
    if (!(r->tb = calloc(1, sizeof *r->tb)) ||
        !(r->tb->d = malloc(sizeof *r->tb->d)) ||
        !(r->tb->ent = calloc(n ? n : 1, sizeof *r->tb->ent))) {
        st = sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
        goto out;
    }
    r->tb->d[0] = d0;
    r->tb->len = 1;
    for (i = 0; i < n; i++) {
        r->tb->ent[i].digit = e[i].digit;
        r->tb->ent[i].set = e[i].set;
        e[i].set = NULL;
    }
    r->tb->nent = n;
out:
    entries_free(e, n);
    if (st == SG_E_NOMEM && err && err->code != SG_E_NOMEM)
        sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    return st;
}
