/*
 * graph.c - explicit finite games given as graphs (docs/GRAPHS.md): the
 * text format's parser, Sprague-Grundy values of acyclic graphs, Smith's
 * generalized Sprague-Grundy function of loopy graphs, outcome classes of
 * partizan graphs, and sums of tokens.
 *
 * Everything is iterative (explicit stacks and queues, never recursion),
 * so that a path of a million vertices cannot overflow the C stack, and
 * every array is linear in the graph: the edges in one flat CSR array,
 * the names in one arena with an open-addressing hash table over them,
 * reverse edges built only by the computations that need them.
 */
#include "sgexplore.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A label that is neither a value nor infinity (loopy computation). */
#define UNLABELLED ((sg_value)(UINT32_MAX - 1))
/* Edge target word while parsing: the name id in the low 30 bits, the
 * side in the top two. */
#define ID_MASK ((uint32_t)SG_GRAPH_MAX_VERTICES - 1)
#define SIDE_SHIFT 30
/* No declaration (yet) of a name. */
#define UNDECLARED UINT32_MAX
/* How often the long loops poll the cancel flag. */
#define POLL_MASK 0xFFFF

void sg_graph_init(sg_graph *g)
{
    memset(g, 0, sizeof *g);
}

void sg_graph_clear(sg_graph *g)
{
    free(g->first);
    free(g->to);
    free(g->side);
    free(g->names);
    free(g->name_at);
    free(g->table);
    sg_graph_init(g);
}

/* ------------------------------------------------------------------ */
/* Names                                                                */
/* ------------------------------------------------------------------ */

/* FNV-1a, 64-bit: short names, few collisions, no seed needed. */
static uint64_t name_hash(const char *s, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    size_t i;

    for (i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

/*
 * The arena holds each name behind an 8-byte header: its id (the vertex
 * number once parsing is done) and its length, both 32-bit, so that a
 * lookup touches one table entry and one arena place.  A table entry is
 * the top 24 bits of the hash, then the header's offset + 1 in the low 40
 * bits (0 = empty).
 */
#define HDR 8
#define OFF_BITS 40
#define OFF_MASK (((uint64_t)1 << OFF_BITS) - 1)

static uint32_t hdr_get(const char *names, uint64_t off, int which)
{
    uint32_t x;
    memcpy(&x, names + off + 4 * (size_t)which, sizeof x);
    return x;
}

static int table_lookup(const uint64_t *table, size_t mask, const char *names,
                        const char *s, size_t len, uint64_t h, size_t *slot)
{
    size_t i = (size_t)h & mask;
    uint64_t tag = h >> OFF_BITS;

    for (;; i = (i + 1) & mask) {
        uint64_t e = table[i], off;
        if (e == 0) {
            *slot = i;
            return 0;
        }
        if ((e >> OFF_BITS) != tag)
            continue;
        off = (e & OFF_MASK) - 1;
        if (hdr_get(names, off, 1) == len &&
            memcmp(names + off + HDR, s, len) == 0) {
            *slot = i;
            return 1;
        }
    }
}

int sg_graph_find(sg_vertex *v, const sg_graph *g, const char *name, size_t len)
{
    size_t slot;

    if (!g->table || memchr(name, '\0', len))
        return 0;
    if (len > UINT32_MAX ||
        !table_lookup(g->table, g->table_mask, g->names, name, len,
                      name_hash(name, len), &slot))
        return 0;
    *v = hdr_get(g->names, (g->table[slot] & OFF_MASK) - 1, 0);
    return 1;
}

int sg_graph_is_partizan(const sg_graph *g)
{
    return g->side != NULL;
}

/* Write a name into a message: at most 40 bytes, bytes outside printable
 * ASCII escaped (the name may be the invalid text being reported). */
static const char *quote_name(char *buf, size_t cap, const char *s, size_t len)
{
    size_t i, o = 0;

    for (i = 0; i < len && o + 5 < cap; i++) {
        unsigned char c = (unsigned char)s[i];
        if (i >= 40) {
            memcpy(buf + o, "...", 3);
            o += 3;
            break;
        }
        if (c >= 0x20 && c < 0x7f) {
            buf[o++] = (char)c;
        } else {
            static const char hex[] = "0123456789abcdef";
            if (o + 5 >= cap)
                break;
            buf[o++] = '\\';
            buf[o++] = 'x';
            buf[o++] = hex[c >> 4];
            buf[o++] = hex[c & 15];
        }
    }
    buf[o] = '\0';
    return buf;
}

/* ------------------------------------------------------------------ */
/* Parsing                                                              */
/* ------------------------------------------------------------------ */

typedef struct parser {
    /* names, by id in order of first mention */
    char *names;
    size_t names_len, names_cap;
    size_t *name_at;
    uint32_t *decl;      /* vertex declaring each name, or UNDECLARED */
    uint32_t *seen_line; /* line of each name's first mention */
    size_t nnames, names_alloc;
    uint64_t *table;
    size_t table_mask;
    /* vertices, in order of their lines */
    size_t *first;
    uint32_t *vname;     /* name id of each vertex */
    uint32_t *decl_line; /* line of each vertex */
    size_t nvert, vert_alloc;
    /* edges: name id | side << SIDE_SHIFT */
    uint32_t *to;
    size_t nedges, edges_alloc;
    int partizan;
    size_t line; /* current line, 1-based */
} parser;

static void parser_free(parser *p)
{
    free(p->names);
    free(p->name_at);
    free(p->decl);
    free(p->seen_line);
    free(p->table);
    free(p->first);
    free(p->vname);
    free(p->decl_line);
    free(p->to);
    memset(p, 0, sizeof *p);
}

/* Grow three arrays that share one count *alloc to hold need elements
 * each (sg_grow); *alloc stays what all three hold when one fails. */
static int grow3(size_t *alloc, size_t need, void *a, size_t sa, void *b,
                 size_t sb, void *c, size_t sc)
{
    size_t a1 = *alloc, a2 = *alloc, a3 = *alloc;

    if (sg_grow(a, &a1, need, sa) || sg_grow(b, &a2, need, sb) ||
        sg_grow(c, &a3, need, sc))
        return -1;
    *alloc = a1 < a2 ? (a1 < a3 ? a1 : a3) : (a2 < a3 ? a2 : a3);
    return 0;
}

static sg_status nomem(sg_error *err)
{
    return sg_error_set(err, SG_E_NOMEM, -1,
                        "out of memory while reading the graph");
}

/* Double the hash table, re-inserting every name. */
static int table_grow(parser *p)
{
    size_t size = p->table ? 2 * (p->table_mask + 1) : 1024;
    uint64_t *t = calloc(size, sizeof *t);
    size_t i;

    if (!t)
        return -1;
    if (p->table) {
        for (i = 0; i <= p->table_mask; i++) {
            uint64_t e = p->table[i], off;
            size_t j;
            if (!e)
                continue;
            off = (e & OFF_MASK) - 1;
            j = (size_t)name_hash(p->names + off + HDR,
                                  hdr_get(p->names, off, 1)) &
                (size - 1);
            while (t[j])
                j = (j + 1) & (size - 1);
            t[j] = e;
        }
    }
    free(p->table);
    p->table = t;
    p->table_mask = size - 1;
    return 0;
}

/* Check a name's bytes: valid UTF-8, no control character, no `,` or
 * `:` (which separate names in --position and mark sides). */
static sg_status check_name(const parser *p, const char *s, size_t len,
                            sg_error *err)
{
    size_t i = 0;
    char q[200];

    while (i < len) {
        unsigned char c = (unsigned char)s[i];
        size_t l = sg_utf8_len(s + i, len - i);
        if (l == 0)
            return sg_error_set(err, SG_E_INPUT, -1,
                                "line %zu: the name '%s' is not valid UTF-8 "
                                "(byte 0x%02x at its byte %zu)",
                                p->line, quote_name(q, sizeof q, s, len), c,
                                i + 1);
        if (c < 0x20 || c == 0x7f)
            return sg_error_set(err, SG_E_INPUT, -1,
                                "line %zu: the name '%s' holds a control "
                                "character",
                                p->line, quote_name(q, sizeof q, s, len));
        if (c == ',' || c == ':')
            return sg_error_set(err, SG_E_INPUT, -1,
                                "line %zu: the name '%s' holds '%c' (names "
                                "may not contain ',' or ':'; 'L:' and 'R:' "
                                "mark a move's player)",
                                p->line, quote_name(q, sizeof q, s, len), c);
        i += l;
    }
    return SG_OK;
}

/* The id of a name, adding it when new. */
static sg_status intern(uint32_t *id, parser *p, const char *s, size_t len,
                        uint64_t h, sg_error *err)
{
    size_t slot;
    sg_status st;

    if (p->table &&
        table_lookup(p->table, p->table_mask, p->names, s, len, h, &slot)) {
        *id = hdr_get(p->names, (p->table[slot] & OFF_MASK) - 1, 0);
        return SG_OK;
    }
    if ((st = check_name(p, s, len, err)))
        return st;
    if (p->nnames >= SG_GRAPH_MAX_VERTICES - 1)
        return sg_error_set(err, SG_E_INPUT, -1,
                            "line %zu: more than %zu vertex names", p->line,
                            (size_t)SG_GRAPH_MAX_VERTICES - 1);
    if (!p->table || 2 * (p->nnames + 1) > p->table_mask + 1) {
        if (table_grow(p))
            return nomem(err);
    }
    if (len > UINT32_MAX || p->names_len + HDR + len + 1 > OFF_MASK)
        return sg_error_set(err, SG_E_INPUT, -1,
                            "line %zu: the names take more than 2^40 bytes",
                            p->line);
    if (sg_grow(&p->names, &p->names_cap, p->names_len + HDR + len + 1, 1))
        return nomem(err);
    if (grow3(&p->names_alloc, p->nnames + 1, &p->name_at, sizeof *p->name_at,
              &p->decl, sizeof *p->decl, &p->seen_line, sizeof *p->seen_line))
        return nomem(err);
    {
        uint32_t hdr[2] = {(uint32_t)p->nnames, (uint32_t)len};
        memcpy(p->names + p->names_len, hdr, HDR);
    }
    memcpy(p->names + p->names_len + HDR, s, len);
    p->names[p->names_len + HDR + len] = '\0';
    p->name_at[p->nnames] = p->names_len + HDR;
    p->decl[p->nnames] = UNDECLARED;
    p->seen_line[p->nnames] =
        p->line > UINT32_MAX ? UINT32_MAX : (uint32_t)p->line;
    /* the slot may have moved if the table grew */
    table_lookup(p->table, p->table_mask, p->names, s, len, h, &slot);
    p->table[slot] =
        ((h >> OFF_BITS) << OFF_BITS) | (uint64_t)(p->names_len + 1);
    p->names_len += HDR + len + 1;
    *id = (uint32_t)p->nnames++;
    return SG_OK;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Start fetching the table slot of hash h: a batch of lookups then waits
 * for memory once instead of once per name. */
static void prefetch_slot(const parser *p, uint64_t h)
{
#if defined(__GNUC__)
    if (p->table)
        __builtin_prefetch(&p->table[(size_t)h & p->table_mask]);
#else
    (void)p;
    (void)h;
#endif
}

/* Then the arena place of the name in that slot, when it may match. */
static void prefetch_name(const parser *p, uint64_t h)
{
#if defined(__GNUC__)
    uint64_t e;
    if (!p->table)
        return;
    e = p->table[(size_t)h & p->table_mask];
    if (e && (e >> OFF_BITS) == (h >> OFF_BITS))
        __builtin_prefetch(p->names + (e & OFF_MASK) - 1);
#else
    (void)p;
    (void)h;
#endif
}

/* One name of a line, found by the scan before the lookups. */
typedef struct token {
    size_t start, len;
    uint64_t h;
    unsigned side;
} token;

/* Tokens looked up together (a line's names are scanned and hashed, their
 * table slots prefetched, then they are interned in order). */
#define BATCH 32

/* The name a line declares, or one of its moves, interned. */
static sg_status add_token(parser *p, const char *s, const token *t, int first,
                           sg_error *err)
{
    uint32_t id = 0;
    sg_status st;
    char q[200];

    if (t->side != SG_SIDE_BOTH && t->len == 0)
        return sg_error_set(err, SG_E_INPUT, -1,
                            "line %zu: '%c:' is not followed by a vertex name",
                            p->line, t->side == SG_SIDE_LEFT ? 'L' : 'R');
    if ((st = intern(&id, p, s + t->start, t->len, t->h, err)))
        return st;
    if (first) {
        /* the vertex this line declares */
        if (p->decl[id] != UNDECLARED)
            return sg_error_set(
                err, SG_E_INPUT, -1,
                "line %zu: vertex '%s' is already declared on line %lu",
                p->line, quote_name(q, sizeof q, s + t->start, t->len),
                (unsigned long)p->decl_line[p->decl[id]]);
        if (grow3(&p->vert_alloc, p->nvert + 2, &p->first, sizeof *p->first,
                  &p->vname, sizeof *p->vname, &p->decl_line,
                  sizeof *p->decl_line))
            return nomem(err);
        p->decl[id] = (uint32_t)p->nvert;
        p->first[p->nvert] = p->nedges;
        p->vname[p->nvert] = id;
        p->decl_line[p->nvert] =
            p->line > UINT32_MAX ? UINT32_MAX : (uint32_t)p->line;
        p->nvert++;
    } else {
        if (sg_grow(&p->to, &p->edges_alloc, p->nedges + 1, sizeof *p->to))
            return nomem(err);
        p->to[p->nedges++] = id | ((uint32_t)t->side << SIDE_SHIFT);
    }
    return SG_OK;
}

/* One line (without its newline): a vertex and its moves, or nothing. */
static sg_status parse_line(parser *p, const char *s, size_t len, sg_error *err)
{
    const char *hash = memchr(s, '#', len);
    size_t i = 0, ntok = 0;
    token tok[BATCH];
    sg_status st;

    if (memchr(s, '\0', len))
        return sg_error_set(err, SG_E_INPUT, -1, "line %zu: holds a NUL byte",
                            p->line);
    if (hash)
        len = (size_t)(hash - s);
    for (;;) {
        size_t nb = 0, k;
        while (nb < BATCH) {
            token *t = &tok[nb];
            while (i < len && is_space(s[i]))
                i++;
            if (i >= len)
                break;
            t->start = i;
            while (i < len && !is_space(s[i]))
                i++;
            t->len = i - t->start;
            t->side = SG_SIDE_BOTH;
            if (ntok + nb > 0 && t->len >= 2 && s[t->start + 1] == ':' &&
                (s[t->start] == 'L' || s[t->start] == 'R')) {
                t->side = s[t->start] == 'L' ? SG_SIDE_LEFT : SG_SIDE_RIGHT;
                t->start += 2;
                t->len -= 2;
                p->partizan = 1;
            }
            t->h = name_hash(s + t->start, t->len);
            prefetch_slot(p, t->h);
            nb++;
        }
        if (nb == 0)
            break;
        for (k = 0; k < nb; k++)
            prefetch_name(p, tok[k].h);
        for (k = 0; k < nb; k++)
            if ((st = add_token(p, s, &tok[k], ntok + k == 0, err)))
                return st;
        ntok += nb;
    }
    return SG_OK;
}

/* Turn the parser's arrays into g: name ids become vertex numbers. */
static sg_status parser_finish(sg_graph *g, parser *p, sg_error *err)
{
    size_t i, v;
    char q[200];

    if (p->nvert == 0)
        return sg_error_set(err, SG_E_INPUT, -1,
                            "line %zu: the graph is empty (no vertex line, "
                            "only blank lines and comments)",
                            p->line ? p->line : 1);
    /* Names are mentioned first in id order, so the first undeclared id
     * is the earliest unknown name in the file. */
    for (i = 0; i < p->nnames; i++)
        if (p->decl[i] == UNDECLARED) {
            const char *nm = p->names + p->name_at[i];
            return sg_error_set(err, SG_E_INPUT, -1,
                                "line %lu: unknown vertex '%s' (every vertex "
                                "needs a line of its own)",
                                (unsigned long)p->seen_line[i],
                                quote_name(q, sizeof q, nm, strlen(nm)));
        }
    p->first[p->nvert] = p->nedges;
    g->nvertices = p->nvert;
    g->nedges = p->nedges;
    if (p->partizan) {
        g->side = malloc(p->nedges ? p->nedges : 1);
        if (!g->side)
            return nomem(err);
    }
    for (i = 0; i < p->nedges; i++) {
        uint32_t w = p->to[i];
        if (g->side)
            g->side[i] = (uint8_t)(w >> SIDE_SHIFT);
        p->to[i] = p->decl[w & ID_MASK];
    }
    /* Every name is declared, so ids and vertices are in one-to-one
     * correspondence: vertex v's name, and in each name's header the
     * vertex instead of the id (what sg_graph_find returns). */
    g->name_at = malloc((p->nvert ? p->nvert : 1) * sizeof *g->name_at);
    if (!g->name_at)
        return nomem(err);
    for (v = 0; v < p->nvert; v++)
        g->name_at[v] = p->name_at[p->vname[v]];
    for (i = 0; i < p->nnames; i++)
        memcpy(p->names + p->name_at[i] - HDR, &p->decl[i], 4);
    g->maxdeg = 0;
    for (v = 0; v < p->nvert; v++) {
        size_t d = p->first[v + 1] - p->first[v];
        if (d > g->maxdeg)
            g->maxdeg = d;
    }
    g->first = p->first;
    p->first = NULL;
    /* give back the slack of the doubling growth (a third of the
     * targets' memory on average) before the computations allocate */
    g->to = realloc(p->to, (p->nedges ? p->nedges : 1) * sizeof *p->to);
    if (!g->to) {
        if (!p->nedges)
            return nomem(err);
        g->to = p->to; /* shrinking failed: keep the larger block */
    }
    p->to = NULL;
    g->names = p->names;
    p->names = NULL;
    g->table = p->table;
    g->table_mask = p->table_mask;
    p->table = NULL;
    return SG_OK;
}

static sg_status line_too_long(const parser *p, sg_error *err)
{
    return sg_error_set(err, SG_E_INPUT, -1, "line %zu: longer than %d bytes",
                        p->line, SG_GRAPH_MAX_LINE);
}

/* The next line of the input, of l bytes at s (no newline). */
static sg_status next_line(parser *p, const char *s, size_t l, sg_error *err)
{
    p->line++;
    if (l > SG_GRAPH_MAX_LINE)
        return line_too_long(p, err);
    return parse_line(p, s, l, err);
}

/* After the last line (st: how reading went): the graph, or on failure
 * an empty one; the parser is freed either way. */
static sg_status parse_end(sg_graph *g, parser *p, sg_status st, sg_error *err)
{
    if (!st)
        st = parser_finish(g, p, err);
    parser_free(p);
    if (st)
        sg_graph_clear(g);
    return st;
}

sg_status sg_graph_parse(sg_graph *g, const char *text, size_t len,
                         sg_error *err)
{
    parser p;
    size_t at = 0;
    sg_status st = SG_OK;

    sg_graph_clear(g);
    memset(&p, 0, sizeof p);
    while (at < len) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t l = nl ? (size_t)(nl - (text + at)) : len - at;
        if ((st = next_line(&p, text + at, l, err)))
            break;
        at += l + 1;
    }
    return parse_end(g, &p, st, err);
}

sg_status sg_graph_read(sg_graph *g, FILE *f, sg_error *err)
{
    enum { CHUNK = 65536 };
    size_t cap = SG_GRAPH_MAX_LINE + 1 + CHUNK;
    char *buf = malloc(cap);
    size_t start = 0, end = 0;
    int eof = 0;
    parser p;
    sg_status st = SG_OK;

    sg_graph_clear(g);
    memset(&p, 0, sizeof p);
    if (!buf)
        return nomem(err);
    for (;;) {
        char *nl = end > start ? memchr(buf + start, '\n', end - start) : NULL;
        size_t l;
        if (!nl && !eof) {
            size_t got;
            if (end - start > SG_GRAPH_MAX_LINE) {
                p.line++;
                st = line_too_long(&p, err);
                break;
            }
            if (start > 0) {
                memmove(buf, buf + start, end - start);
                end -= start;
                start = 0;
            }
            got = fread(buf + end, 1, cap - end, f);
            end += got;
            if (got == 0) {
                if (ferror(f)) {
                    st = sg_error_set(err, SG_E_IO, -1,
                                      "cannot read the graph: %s",
                                      strerror(errno));
                    break;
                }
                eof = 1;
            }
            continue;
        }
        if (!nl && start == end)
            break; /* end of input */
        l = nl ? (size_t)(nl - (buf + start)) : end - start;
        if ((st = next_line(&p, buf + start, l, err)))
            break;
        start += l + (nl ? 1 : 0);
    }
    free(buf);
    return parse_end(g, &p, st, err);
}

/* ------------------------------------------------------------------ */
/* Cycles and Grundy values                                             */
/* ------------------------------------------------------------------ */

/* One frame of the explicit depth-first stack. */
typedef struct frame {
    sg_vertex v;
    size_t e; /* next edge of v to look at */
} frame;

static sg_status cancelled(sg_error *err)
{
    return sg_error_set(err, SG_E_INTERRUPTED, -1, "interrupted");
}

/* Describe a cycle in err: "a -> b -> c -> a", cut when long. */
static sg_status cycle_error(sg_error *err, const sg_graph *g,
                             const sg_vertex *cyc, size_t n)
{
    char text[400];
    size_t o = 0, i;

    for (i = 0; i <= n; i++) {
        const char *nm = sg_graph_name(g, cyc[i % n]);
        size_t need = strlen(nm) + 4;
        if (o + need + 40 > sizeof text) {
            o += (size_t)snprintf(text + o, sizeof text - o, " -> ...");
            break;
        }
        o += (size_t)snprintf(text + o, sizeof text - o, "%s%s",
                              i ? " -> " : "", nm);
    }
    return sg_error_set(err, SG_E_INPUT, -1,
                        "the game has a cycle of %zu vert%s: %s", n,
                        n == 1 ? "ex" : "ices", text);
}

/*
 * Depth-first search over every vertex with an explicit stack.  When
 * `values` is non-NULL each vertex gets its Sprague-Grundy value (the mex
 * of its followers') as it is finished, i.e. in post-order, when all its
 * followers are done.  A back edge to a vertex still on the stack is a
 * cycle: its vertices are the stack from that vertex up.
 */
static sg_status dfs(sg_value *values, sg_vertex **cycle, size_t *ncycle,
                     const sg_graph *g, volatile sig_atomic_t *cancel,
                     sg_error *err)
{
    size_t nv = g->nvertices, root, depth = 0, steps = 0;
    uint8_t *color = calloc(nv ? nv : 1, 1); /* 0 new, 1 open, 2 done */
    frame *stack = malloc((nv ? nv : 1) * sizeof *stack);
    uint32_t *mark = NULL; /* mark[x] == v + 1: value x is a follower's */
    sg_status st = SG_OK;

    *cycle = NULL;
    *ncycle = 0;
    if (values)
        mark = calloc(g->maxdeg + 1, sizeof *mark);
    if (!color || !stack || (values && !mark)) {
        st = sg_error_set(err, SG_E_NOMEM, -1, "out of memory (%zu vertices)",
                          nv);
        goto out;
    }
    for (root = 0; root < nv; root++) {
        if (color[root])
            continue;
        color[root] = 1;
        stack[0].v = (sg_vertex)root;
        stack[0].e = g->first[root];
        depth = 1;
        while (depth) {
            frame *top = &stack[depth - 1];
            sg_vertex v = top->v;
            if ((++steps & POLL_MASK) == 0 && cancel && *cancel) {
                st = cancelled(err);
                goto out;
            }
            if (top->e < g->first[v + 1]) {
                sg_vertex w = g->to[top->e++];
                if (color[w] == 0) {
                    color[w] = 1;
                    stack[depth].v = w;
                    stack[depth].e = g->first[w];
                    depth++;
                } else if (color[w] == 1) {
                    size_t k = depth - 1, i;
                    while (stack[k].v != w)
                        k--;
                    *ncycle = depth - k;
                    *cycle = malloc(*ncycle * sizeof **cycle);
                    if (!*cycle) {
                        *ncycle = 0;
                        st = sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
                        goto out;
                    }
                    for (i = 0; i < *ncycle; i++)
                        (*cycle)[i] = stack[k + i].v;
                    goto out;
                }
                continue;
            }
            if (values) {
                size_t e;
                sg_value x = 0;
                for (e = g->first[v]; e < g->first[v + 1]; e++) {
                    sg_value y = values[g->to[e]];
                    if (y <= g->maxdeg)
                        mark[y] = v + 1;
                }
                while (mark[x] == v + 1)
                    x++;
                values[v] = x;
            }
            color[v] = 2;
            depth--;
        }
    }
out:
    free(color);
    free(stack);
    free(mark);
    return st;
}

sg_status sg_graph_find_cycle(sg_vertex **cycle, size_t *n, const sg_graph *g,
                              sg_error *err)
{
    return dfs(NULL, cycle, n, g, NULL, err);
}

sg_status sg_graph_grundy(sg_value *values, const sg_graph *g,
                          volatile sig_atomic_t *cancel, sg_error *err)
{
    sg_vertex *cyc;
    size_t n;
    sg_status st;

    if (g->side)
        return sg_error_set(err, SG_E_INPUT, -1,
                            "the game is partizan (moves marked L: or R:): "
                            "it has outcome classes, not Grundy values");
    st = dfs(values, &cyc, &n, g, cancel, err);
    if (!st && n)
        st = cycle_error(err, g, cyc, n);
    free(cyc);
    return st;
}

/* ------------------------------------------------------------------ */
/* Reverse edges                                                        */
/* ------------------------------------------------------------------ */

/* Predecessors in CSR form: the edges into w are from[rfirst[w] ..
 * rfirst[w+1]-1]; redge[] (when asked for) holds the forward edge index
 * of each, for its side mark. */
typedef struct reverse {
    size_t *rfirst;
    sg_vertex *from;
    size_t *redge;
} reverse;

static void reverse_free(reverse *r)
{
    free(r->rfirst);
    free(r->from);
    free(r->redge);
}

static int reverse_build(reverse *r, const sg_graph *g, int with_edges)
{
    size_t nv = g->nvertices, ne = g->nedges, v, e;

    memset(r, 0, sizeof *r);
    r->rfirst = calloc(nv + 1, sizeof *r->rfirst);
    r->from = malloc((ne ? ne : 1) * sizeof *r->from);
    if (with_edges)
        r->redge = malloc((ne ? ne : 1) * sizeof *r->redge);
    if (!r->rfirst || !r->from || (with_edges && !r->redge)) {
        reverse_free(r);
        return -1;
    }
    for (e = 0; e < ne; e++)
        r->rfirst[g->to[e] + 1]++;
    for (v = 0; v < nv; v++)
        r->rfirst[v + 1] += r->rfirst[v];
    /* rfirst[w] is w's start; filling advances it to w's end, which is
     * where w + 1 starts, so one shift restores the starts */
    for (v = 0; v < nv; v++)
        for (e = g->first[v]; e < g->first[v + 1]; e++) {
            size_t k = r->rfirst[g->to[e]]++;
            r->from[k] = (sg_vertex)v;
            if (with_edges)
                r->redge[k] = e;
        }
    memmove(r->rfirst + 1, r->rfirst, nv * sizeof *r->rfirst);
    r->rfirst[0] = 0;
    r->rfirst[nv] = ne;
    return 0;
}

/* ------------------------------------------------------------------ */
/* The generalized Sprague-Grundy function                              */
/* ------------------------------------------------------------------ */

/*
 * The labelling of Fraenkel and Yesha (docs/THEORY.md).  Round m works on
 * W, the vertices not labelled with a value below m, and U, those of W not
 * yet labelled at all.  Inside W it is a retrograde win/loss analysis:
 * a vertex of U all of whose followers in W have a follower labelled m
 * gets label m; a vertex of W with a follower labelled m is "answered"
 * (stamp m + 1).  Afterwards every vertex of U neither labelled nor
 * answered is infinite for good (it lacks a follower of value m, so it can
 * never have a finite value above m); the answered ones go on to round
 * m + 1.  U shrinks every round, and a round costs the edges of W.
 */
sg_status sg_graph_loopy(sg_value *values, const sg_graph *g,
                         volatile sig_atomic_t *cancel, sg_error *err)
{
    size_t nv = g->nvertices, i, nu, steps = 0;
    reverse r;
    uint32_t *stamp = NULL;
    size_t *cnt = NULL;
    sg_vertex *unl = NULL, *queue = NULL;
    sg_value m;
    sg_status st = SG_OK;

    if (g->side)
        return sg_error_set(err, SG_E_INPUT, -1,
                            "the game is partizan (moves marked L: or R:): "
                            "it has outcome classes, not Grundy values");
    if (reverse_build(&r, g, 0))
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    stamp = calloc(nv ? nv : 1, sizeof *stamp);
    cnt = malloc((nv ? nv : 1) * sizeof *cnt);
    unl = malloc((nv ? nv : 1) * sizeof *unl);
    queue = malloc((nv ? nv : 1) * sizeof *queue);
    if (!stamp || !cnt || !unl || !queue) {
        st = sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
        goto out;
    }
    for (i = 0; i < nv; i++) {
        values[i] = UNLABELLED;
        unl[i] = (sg_vertex)i;
    }
    nu = nv;
    for (m = 0; nu > 0; m++) {
        size_t qh = 0, qt = 0, k, j;
        /* followers in W of each vertex of U; the dead ends start */
        for (k = 0; k < nu; k++) {
            sg_vertex u = unl[k];
            size_t c = 0, e;
            for (e = g->first[u]; e < g->first[u + 1]; e++) {
                sg_value y = values[g->to[e]];
                c += y == UNLABELLED || y == SG_VALUE_INFINITE;
            }
            cnt[u] = c;
        }
        /* only now label the dead ends: the counts above are over W as
         * it was when the round began */
        for (k = 0; k < nu; k++)
            if (cnt[unl[k]] == 0) {
                values[unl[k]] = m;
                queue[qt++] = unl[k];
            }
        while (qh < qt) {
            sg_vertex x = queue[qh++];
            size_t a;
            for (a = r.rfirst[x]; a < r.rfirst[x + 1]; a++) {
                sg_vertex u = r.from[a];
                sg_value yu = values[u];
                size_t b;
                if ((yu != UNLABELLED && yu != SG_VALUE_INFINITE) ||
                    stamp[u] == m + 1)
                    continue;
                stamp[u] = m + 1; /* u has a follower labelled m */
                for (b = r.rfirst[u]; b < r.rfirst[u + 1]; b++) {
                    sg_vertex y = r.from[b];
                    if ((++steps & POLL_MASK) == 0 && cancel && *cancel) {
                        st = cancelled(err);
                        goto out;
                    }
                    if (values[y] != UNLABELLED || stamp[y] == m + 1)
                        continue;
                    if (--cnt[y] == 0) {
                        values[y] = m;
                        queue[qt++] = y;
                    }
                }
            }
        }
        /* keep the answered vertices for the next round */
        for (k = j = 0; k < nu; k++) {
            sg_vertex u = unl[k];
            if (values[u] != UNLABELLED)
                continue;
            if (stamp[u] == m + 1)
                unl[j++] = u;
            else
                values[u] = SG_VALUE_INFINITE;
        }
        nu = j;
        if (cancel && *cancel) {
            st = cancelled(err);
            goto out;
        }
    }
out:
    reverse_free(&r);
    free(stamp);
    free(cnt);
    free(unl);
    free(queue);
    return st;
}

static int cmp_value(const void *a, const void *b)
{
    sg_value x = *(const sg_value *)a, y = *(const sg_value *)b;
    return (x > y) - (x < y);
}

size_t sg_graph_finite_followers(sg_value *out, size_t cap, const sg_graph *g,
                                 const sg_value *values, sg_vertex v)
{
    size_t deg = g->first[v + 1] - g->first[v], e, n = 0, k, total = 0;
    /* sort in the caller's array when it is large enough, else in a
     * scratch copy */
    sg_value *tmp = cap >= deg ? out : malloc(deg * sizeof *tmp);

    if (!tmp)
        return SIZE_MAX;
    for (e = g->first[v]; e < g->first[v + 1]; e++)
        if (values[g->to[e]] != SG_VALUE_INFINITE)
            tmp[n++] = values[g->to[e]];
    qsort(tmp, n, sizeof *tmp, cmp_value);
    for (k = 0; k < n; k++) {
        if (k && tmp[k] == tmp[k - 1])
            continue;
        if (total < cap)
            out[total] = tmp[k]; /* total <= k: never ahead of the scan */
        total++;
    }
    if (tmp != out)
        free(tmp);
    return total;
}

/* ------------------------------------------------------------------ */
/* Outcome classes                                                      */
/* ------------------------------------------------------------------ */

/*
 * Retrograde analysis over the 2V states (vertex, player to move).  A
 * state whose mover has no move is lost for the mover; a state with a move
 * to a state lost for its mover is won; a state all of whose moves lead to
 * won states is lost.  States never settled are draws (only possible with
 * a cycle).  State s = 2v + p, p = 0 for Left to move, 1 for Right.
 */
sg_status sg_graph_outcome(uint8_t *outcome, const sg_graph *g, int loopy,
                           volatile sig_atomic_t *cancel, sg_error *err)
{
    size_t nv = g->nvertices, v, qh = 0, qt = 0, steps = 0;
    reverse r;
    size_t *cnt = NULL;
    uint8_t *res = NULL; /* per state: 0 unknown, 1 mover wins, 2 loses */
    size_t *queue = NULL;
    sg_status st = SG_OK;

    if (!loopy) {
        sg_vertex *cyc;
        size_t n;
        st = dfs(NULL, &cyc, &n, g, cancel, err);
        if (!st && n)
            st = cycle_error(err, g, cyc, n);
        free(cyc);
        if (st)
            return st;
    }
    if (reverse_build(&r, g, g->side != NULL))
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    cnt = calloc(2 * nv + 1, sizeof *cnt);
    res = calloc(2 * nv + 1, 1);
    queue = malloc((2 * nv + 1) * sizeof *queue);
    if (!cnt || !res || !queue) {
        st = sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
        goto out;
    }
    for (v = 0; v < nv; v++) {
        size_t e;
        for (e = g->first[v]; e < g->first[v + 1]; e++) {
            unsigned sd = g->side ? g->side[e] : SG_SIDE_BOTH;
            cnt[2 * v] += (sd & SG_SIDE_LEFT) != 0;
            cnt[2 * v + 1] += (sd & SG_SIDE_RIGHT) != 0;
        }
        if (cnt[2 * v] == 0) {
            res[2 * v] = 2;
            queue[qt++] = 2 * v;
        }
        if (cnt[2 * v + 1] == 0) {
            res[2 * v + 1] = 2;
            queue[qt++] = 2 * v + 1;
        }
    }
    while (qh < qt) {
        size_t s = queue[qh++];
        sg_vertex w = (sg_vertex)(s / 2);
        unsigned p = (unsigned)(s % 2); /* the mover at s */
        /* predecessors: the other player moved into w */
        unsigned need = p == 0 ? SG_SIDE_RIGHT : SG_SIDE_LEFT;
        size_t a;
        if ((++steps & 0xFF) == 0 && cancel && *cancel) {
            st = cancelled(err);
            goto out;
        }
        for (a = r.rfirst[w]; a < r.rfirst[w + 1]; a++) {
            size_t t = 2 * (size_t)r.from[a] + (1 - p);
            if (r.redge && !(g->side[r.redge[a]] & need))
                continue;
            if (res[t])
                continue;
            if (res[s] == 2) {
                res[t] = 1;
                queue[qt++] = t;
            } else if (--cnt[t] == 0) {
                res[t] = 2;
                queue[qt++] = t;
            }
        }
    }
    for (v = 0; v < nv; v++) {
        unsigned lf, rf;
        /* Left to move: a won state means Left wins */
        lf = res[2 * v] == 1   ? SG_WIN_LEFT
             : res[2 * v] == 2 ? SG_WIN_RIGHT
                               : SG_WIN_NONE;
        rf = res[2 * v + 1] == 1   ? SG_WIN_RIGHT
             : res[2 * v + 1] == 2 ? SG_WIN_LEFT
                                   : SG_WIN_NONE;
        outcome[v] = SG_OUTCOME(lf, rf);
    }
out:
    reverse_free(&r);
    free(cnt);
    free(res);
    free(queue);
    return st;
}

const char *sg_outcome_name(uint8_t o)
{
    static const char *const names[16] = {
        /* index: left_first | right_first << 2 */
        [SG_OUTCOME(SG_WIN_LEFT, SG_WIN_RIGHT)] = "N",
        [SG_OUTCOME(SG_WIN_RIGHT, SG_WIN_LEFT)] = "P",
        [SG_OUTCOME(SG_WIN_LEFT, SG_WIN_LEFT)] = "L",
        [SG_OUTCOME(SG_WIN_RIGHT, SG_WIN_RIGHT)] = "R",
        [SG_OUTCOME(SG_WIN_NONE, SG_WIN_NONE)] = "D",
        [SG_OUTCOME(SG_WIN_LEFT, SG_WIN_NONE)] = "LD",
        [SG_OUTCOME(SG_WIN_RIGHT, SG_WIN_NONE)] = "RD",
        [SG_OUTCOME(SG_WIN_NONE, SG_WIN_LEFT)] = "DL",
        [SG_OUTCOME(SG_WIN_NONE, SG_WIN_RIGHT)] = "DR",
    };
    return o < 16 && names[o] ? names[o] : "?";
}

/* ------------------------------------------------------------------ */
/* Sums of tokens                                                       */
/* ------------------------------------------------------------------ */

sg_status sg_graph_position_analyse(sg_graph_position *out, const sg_graph *g,
                                    const sg_value *values,
                                    const sg_vertex *tokens, size_t ntokens,
                                    sg_error *err)
{
    size_t i;
    sg_value s = 0;

    memset(out, 0, sizeof *out);
    out->infinite_token = -1;
    out->move_token = -1;
    if (g->side)
        return sg_error_set(err, SG_E_INPUT, -1,
                            "the game is partizan: a sum of its tokens has no "
                            "nim-sum");
    for (i = 0; i < ntokens; i++) {
        sg_value x;
        if (tokens[i] >= g->nvertices)
            return sg_error_set(err, SG_E_INPUT, -1, "no vertex %lu",
                                (unsigned long)tokens[i]);
        x = values[tokens[i]];
        if (x == SG_VALUE_INFINITE) {
            if (out->ninfinite++ == 0)
                out->infinite_token = (long)i;
        } else {
            s ^= x;
        }
    }
    out->nim_sum = s;
    if (out->ninfinite == 0) {
        out->winner = s ? SG_WINNER_FIRST : SG_WINNER_SECOND;
        if (!s)
            return SG_OK;
        /* a token whose value drops under the nim-sum: move it to a
         * follower of value x ^ s, which the mex guarantees */
        for (i = 0; i < ntokens; i++) {
            sg_value x = values[tokens[i]], want = x ^ s;
            size_t e;
            sg_vertex v = tokens[i];
            if (want >= x)
                continue;
            for (e = g->first[v]; e < g->first[v + 1]; e++)
                if (values[g->to[e]] == want) {
                    out->move_token = (long)i;
                    out->move_to = g->to[e];
                    return SG_OK;
                }
        }
        return sg_error_set(err, SG_E_INPUT, -1,
                            "the values do not belong to this graph (no "
                            "winning move found)");
    }
    if (out->ninfinite == 1) {
        /* infinite with followers K ^ s: the first player wins by moving
         * the infinite token to a follower of value s, if there is one */
        sg_vertex v = tokens[out->infinite_token];
        size_t e;
        for (e = g->first[v]; e < g->first[v + 1]; e++)
            if (values[g->to[e]] == s) {
                out->winner = SG_WINNER_FIRST;
                out->move_token = out->infinite_token;
                out->move_to = g->to[e];
                return SG_OK;
            }
    }
    out->winner = SG_WINNER_DRAW;
    return SG_OK;
}
