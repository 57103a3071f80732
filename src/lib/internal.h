/*
 * internal.h - libsg's internal interface: what its modules promise each
 * other, and the tests and benchmarks may use, but the command-line front
 * end does not, so that sgexplore.h holds the contract only.  Its names
 * carry the prefix sgi_ (sg_ promises, as SQLite's sqlite3_ against
 * sqlite3Xxx): the enumeration methods below the dispatcher, the checksum
 * of deep runs, the theorem table, the parts of the figures.
 */
#ifndef SG_INTERNAL_H
#define SG_INTERNAL_H

#include "sgexplore.h"

/* A list of a subtraction set or all-but set may name at most this many
 * positions: the rule is stored one entry per position (rule.c's list
 * parser and rule_set.c's set rules share it, so that every canonical
 * text parses back).  The fuzz build (tests/fuzz/run.sh) sets a smaller
 * bound, so that the fuzzer explores the grammar rather than lists of
 * millions of numbers, which cost a tenth of a second each there; the
 * checks of the bound are the same. */
#ifndef SG_RULE_MAX_TERMS
#define SG_RULE_MAX_TERMS ((uint64_t)1 << 24)
#endif

/* ------------------------------------------------------------------ */
/* Enumeration methods below the dispatcher (enum.c picks them)        */
/* ------------------------------------------------------------------ */

/* The method for finite codes with three-heap moves (bit 8) and no '!':
 * two-heap option sets kept as bitsets, the heap's option set built one
 * word of values at a time up to the mex (enum_three.c). */
int sgi_three_applicable(const sg_rule *r);
sg_status sgi_enumerate_three(sg_seq *s, const sg_rule *r, size_t n,
                              const sg_enum_options *opt, sg_error *err);

/* The 64-bit word x with bit j moved to bit j ^ lo (lo < 64): one delta
 * swap of the halves of every 2^i-bit block for each bit i of lo.  The
 * three-heap method translates its value bitsets by xor with it, one
 * word at a time; here so that the tests can check it bit by bit. */
static inline uint64_t sgi_xor_translate(uint64_t x, unsigned lo)
{
    if (lo & 1)
        x = ((x & 0x5555555555555555u) << 1) | ((x >> 1) & 0x5555555555555555u);
    if (lo & 2)
        x = ((x & 0x3333333333333333u) << 2) | ((x >> 2) & 0x3333333333333333u);
    if (lo & 4)
        x = ((x & 0x0f0f0f0f0f0f0f0fu) << 4) | ((x >> 4) & 0x0f0f0f0f0f0f0f0fu);
    if (lo & 8)
        x = ((x & 0x00ff00ff00ff00ffu) << 8) | ((x >> 8) & 0x00ff00ff00ff00ffu);
    if (lo & 16)
        x = ((x & 0x0000ffff0000ffffu) << 16) |
            ((x >> 16) & 0x0000ffff0000ffffu);
    if (lo & 32)
        x = (x << 32) | (x >> 32);
    return x;
}

/* The direct method (enum_direct.c): finite rules without splits. */
int sgi_direct_applicable(const sg_rule *r);
sg_status sgi_enumerate_direct(sg_seq *s, const sg_rule *r, size_t n,
                               const sg_enum_options *opt, sg_error *err);

/* ------------------------------------------------------------------ */
/* Checksums, theorems, memory                                          */
/* ------------------------------------------------------------------ */

/* The same FNV-1a state h, computed over G(0..from-1), extended by
 * G(from..to-1) (kept values of s, sg_seq_kept): deep runs hash their
 * values before they leave memory. */
uint64_t sgi_checksum_extend(uint64_t h, const sg_seq *s, size_t from,
                             size_t to);

/* Find a theorem by its SG_THM_* identifier: returns the library's static
 * copy of the id (NULL when unknown) and sets *name to its description. */
const char *sgi_theorem_lookup(const char *id, const char **name);

/* The theorem that could certify r (static name and SG_THM_* id), or NULL
 * when none is implemented. */
const char *sgi_prove_theorem_id(const sg_rule *r);

/* Whether any implemented theorem can ever apply to r; when not, *why is
 * set to a static explanation. */
int sgi_prove_applicable(const sg_rule *r, const char **why);

/* The memo of agreement stretches a proof search keeps across the rounds
 * of an analysis (prove.c, "Cost"): the stretch of the best candidate p0,
 * from n0(p0) = i0 with saltus s0, exact for n values. */
typedef struct sgi_prove_memo {
    uint64_t p0;     /* 0 while empty */
    uint64_t i0;     /* n0(p0) at n values */
    uint64_t s0;     /* its saltus */
    uint64_t n;      /* the values (s->n) it is exact for */
    int with_saltus; /* saltus read off the end (tail rules) or 0 */
} sgi_prove_memo;

void sgi_prove_memo_init(sgi_prove_memo *m, const sg_rule *r);

/* One round of an analysis (sg_analyse): sg_prove with the memo kept
 * across rounds; res->observed only when `observing` (the rounds before
 * the last are dropped unresolved). */
sg_status sgi_prove_round(sg_result *res, const sg_rule *r, const sg_seq *s,
                          sgi_prove_memo *memo, int observing);

/* The unresolved result of values no rule describes (a game given by
 * a function, api/): the observed candidate alone, its saltus read off
 * the end, `needs` UINT64_MAX (no theorem applies). */
sg_status sgi_prove_observe(sg_result *res, const sg_seq *s);

/* The count of values the analysis's next round should reach: twice the
 * current, or less when a candidate would be certified sooner. */
size_t sgi_prove_next_count(const sg_rule *r, const sg_seq *s,
                            sgi_prove_memo *memo);

/* The kinds of proof (prove/theorems.c states each theorem): which one could
 * certify a rule is a fact of its profile. */
typedef enum sgi_proof_kind {
    SGI_PROOF_NONE,
    SGI_PROOF_WINDOW,
    SGI_PROOF_TWO,
    SGI_PROOF_TWO_UNEQUAL,
    SGI_PROOF_THREE,
    SGI_PROOF_TAIL3,
    SGI_PROOF_TAIL3_SPLIT,
    SGI_PROOF_TAIL_PERIODIC,
    SGI_PROOF_HEX_ARITH,
    SGI_PROOF_SET_RESIDUES
} sgi_proof_kind;

/* The enumeration methods, in the order the dispatcher prefers them: a
 * rule runs the first that applies (its profile's `method`).  One row each
 * in rules/method_rows.h, the one table of methods. */
typedef enum sgi_method_id {
    SGI_METHOD_SET,     /* a set expression: enum_set.c's methods */
    SGI_METHOD_GENERAL, /* CGSuite's whole notation: enum_tb.c */
    SGI_METHOD_SPARSE,  /* two-heap splits, no tail: sparse/ */
    SGI_METHOD_DIRECT,  /* finite, no splits: enum_direct.c */
    SGI_METHOD_THREE,   /* finite, three-heap moves, no '!': enum_three.c */
    SGI_METHOD_NAIVE,   /* everything: enum_naive.c */
    SGI_METHOD_COUNT
} sgi_method_id;

/*
 * What a rule can do, computed once when it is parsed (rules/profile.c)
 * and kept with it (r->profile, read through sgi_rule_profile): every
 * module reads these facts instead of re-deriving them from the digits,
 * so that a new kind of rule only has to fill them in.
 */
typedef struct sg_rule_profile {
    uint64_t max_take;    /* largest removal; UINT64_MAX with a tail */
    unsigned bits;        /* union of every digit's SG_BIT_* */
    unsigned prefix_bits; /* of the digits below the tail (all: finite) */
    unsigned tail_bits;   /* of the tail's digits (0: finite) */
    uint64_t tail_start;  /* first tail position (0: finite) */
    int has_tail;
    int tail3;            /* the tail is exactly [3], without '!' */
    int splits;           /* some digit may leave two heaps */
    int three;            /* some digit may leave three heaps */
    int unequal;          /* some digit carries '!' */
    const char *family;   /* sg_rule_family */
    uint64_t tail_len;    /* the tail's length (0: finite) */
    int set;              /* the rule holds a set expression (r->set): only
                           enum_set.c computes it; only the set-residues
                           theorem proves it (subtraction, heap-independent) */
    int set_allbut;       /* ... of an all-but game */
    int set_heap_dep;     /* ... whose members depend on the heap */
    int set_window;       /* ... a subtraction set that enum_set.c's window
                           or divisors method computes in O(N log N) */
    int tb;               /* the rule holds a general code (r->tb): only
                           enum_tb.c computes it, no theorem proves it */
    unsigned tb_heaps;    /* ... whose moves leave at most this many heaps */
    int tb_sets;          /* ... written over sets, moves{D@SET;...} */
    sgi_proof_kind proof; /* the theorem that could prove it */
    const char *why_unproven; /* static, when proof is SGI_PROOF_NONE */
    unsigned methods;         /* bit m: method m applies */
    sgi_method_id method;     /* the one sg_enumerate runs */
    size_t default_max;       /* sg_default_max: its method's budget */
    unsigned bytes_per_value; /* its method's memory per value (0: N^2/8
                                 bytes in all, the three-heap bit rows) */
    int deep;                 /* its method runs deep runs (sg_deep) */
} sgi_profile;

/* Whether the code r is a finite subtraction game (every digit 3, none
 * before the point) or an all-but game (the same, then the tail [3]):
 * its family and canonical text (rule.c) both ask. */
int sgi_rule_is_subtract(const sg_rule *r);
int sgi_rule_is_allbut(const sg_rule *r);

/* The profile of r, computed when r was parsed (never NULL for a parsed
 * rule). */
const sgi_profile *sgi_rule_profile(const sg_rule *r);

/* Compute r's profile and keep it with r (sg_rule_parse's last step;
 * SG_E_NOMEM when out of memory). */
sg_status sgi_rule_profile_build(sg_rule *r, sg_error *err);

/* For the tests only: how many profiles this process has computed (one
 * per parsed rule, whatever is asked of the rule afterwards). */
unsigned long sgi_rule_profile_computations(void);

/* The shapes of set expressions that enum_set.c's window method
 * (at-most-a/b, at-least-a/b) and divisors method (proper-divisors)
 * compute: a subtraction set of that one item. */
int sgi_set_window_shape(const struct sg_set_expr *set, int allbut);
int sgi_set_divisors_shape(const struct sg_set_expr *set, int allbut);

/* One enumeration method (enum/method.c's table, rows in
 * rules/method_rows.h): whether it applies to a profile, its budget, its
 * memory, whether it runs deep runs, and how it computes G(0..n-1) and
 * names itself. */
typedef struct sgi_method {
    sgi_method_id id;
    const char *name;
    int (*applies)(const sgi_profile *pr);
    size_t (*default_max)(const sgi_profile *pr);
    unsigned bytes_per_value; /* 0: the three-heap bit rows, N^2/8 bytes */
    int deep;
    sg_status (*run)(sg_seq *s, const sg_rule *r, size_t n,
                     const sg_enum_options *opt, sg_error *err);
    const char *(*name_for)(const sg_rule *r); /* NULL: `name` */
} sgi_method;

/* The rows' predicates and budgets (rules/profile.c). */
#define SGI_METHOD_ROW(id, name, applies, budget, bytes, deep, run, name_for)  \
    int applies(const sgi_profile *pr);                                        \
    size_t budget(const sgi_profile *pr);
#include "rules/method_rows.h"
#undef SGI_METHOD_ROW

/* The table, indexed by sgi_method_id (enum/method.c). */
extern const sgi_method sgi_methods[SGI_METHOD_COUNT];

/* The method sg_enumerate runs for r: a lookup of its profile. */
static inline const sgi_method *sgi_method_of(const sg_rule *r)
{
    return &sgi_methods[sgi_rule_profile(r)->method];
}

/* Whether method m applies to r (its profile's bit). */
static inline int sgi_method_applies(const sg_rule *r, sgi_method_id m)
{
    return (sgi_rule_profile(r)->methods >> m) & 1;
}

/* Rules over set expressions (rule_set.c, docs/SETS.md). */

/* Parse the set expression `text` (at offset `base` of the rule text,
 * for the messages) as the move set of a subtraction game (allbut 0) or
 * of an all-but game (allbut 1) into r (empty): a finite or cofinite set
 * becomes the list rule subtract{..} or all-but{..}, an eventually
 * periodic one the split-free code with a tail that plays the same game,
 * anything else a rule holding the set (r->set). */
sg_status sgi_rule_parse_set(sg_rule *r, const char *text, long base,
                             int allbut, sg_error *err);

/* The list rule subtract{v} (allbut 0) or all-but{v} (allbut 1) from the
 * ascending, duplicate-free numbers v[0..n-1] (n >= 1 for subtract; an
 * excluded number past 2^24 is SG_E_INPUT at `base`). */
sg_status sgi_rule_from_list(sg_rule *r, const uint64_t *v, size_t n,
                             int allbut, long base, sg_error *err);

/* The canonical text of a rule holding a set: subtract{SET} or
 * all-but{SET}, SET the set's canonical text (*text NULL for any other
 * rule).  SG_E_NOMEM when out of memory. */
sg_status sgi_rule_set_text(char **text, const sg_rule *r);

/* A move of heap h (h < s->n) of a rule holding a set to a heap of value
 * target: 1 and *take set, else 0. */
int sgi_rule_set_find_move(uint64_t *take, const sg_rule *r, const sg_seq *s,
                           uint64_t h, sg_value target);

/* Codes in CGSuite's whole notation (rule_tb.c, enum_tb.c, docs/THEORY.md
 * section 7.6): digits beyond F (moves that leave four or more heaps),
 * `&N;` digits and the constraints `?` and `=`, which the digit bits of
 * sg_term cannot hold. */
enum {
    SGI_TB_ANY = 0,      /* no constraint on the heaps a split leaves */
    SGI_TB_UNEQUAL = 1,  /* `!`: pairwise different */
    SGI_TB_SOMEUNEQ = 2, /* `?`: not all equal */
    SGI_TB_EQUAL = 3     /* `=`: all equal */
};

/* The most heaps a move of a general code may leave (`&N;` below 2^63). */
#define SGI_TB_MAX_HEAPS 62
/* The most digits a general code may have (before its tail and in it). */
#define SGI_TB_MAX_DIGITS 65536

/* One digit: bit j of mask allows leaving exactly j non-empty heaps. */
typedef struct sgi_tb_digit {
    uint64_t mask;
    unsigned char cons; /* SGI_TB_*, SGI_TB_ANY when no bit j >= 2 */
} sgi_tb_digit;

/* A digit allowed at every position of a set (rules `moves{D@SET;..}`,
 * docs/THEORY.md 7.6): k tokens may be removed as digit D says when k is
 * in the set (for the heap, when membership depends on it). */
typedef struct sgi_tb_entry {
    sgi_tb_digit digit;
    struct sg_set_expr *set; /* sgi_set, setexpr.h */
} sgi_tb_entry;

/* A normalised general code: digits d[0..len-1] at positions 0..len-1
 * (tokens removed), the last tail_len of them repeating forever, and the
 * digits of nent set entries on top (sorted by their canonical text, one
 * entry per digit).  The tag is the one sg_rule's opaque `tb` names in
 * sgexplore.h. */
typedef struct sg_general_code {
    size_t len, tail_len;
    sgi_tb_digit *d;
    size_t nent;
    sgi_tb_entry *ent;
} sgi_tb;

/* Whether the code text needs the general parser: it holds `?`, `=`,
 * `&`, `*`, `{` or a letter past F. */
int sgi_tb_text(const char *text);

/* Parse `text` (at offset `off` of the rule text, for the messages) in
 * CGSuite's notation.  A code that only uses digits 0-F and `!` after
 * normalisation (`0.4?` is `0.4!`) is an ordinary code: *plain receives
 * its text (to be parsed as one; r untouched).  Otherwise *plain is NULL
 * and r holds the code (r->tb).  SG_E_INPUT names what is refused. */
sg_status sgi_rule_parse_tb(sg_rule *r, const char *text, long off,
                            char **plain, sg_error *err);

/* Parse the inside of `moves{...}` (at offset `off` of the rule text):
 * entries D@SET separated by ';', D a digit of CGSuite's notation with its
 * constraint, SET a set expression or 0 (the digit before the point).
 * Rules that a code or a set rule can write become that rule (`7@1-2` is
 * 0.77, `3@primes` is subtract{primes}, `3@1+1k;4@0` is Lasker's Nim
 * 4.[3]): a code comes back as its text in *code (to be parsed as a
 * code, r untouched), a set rule is parsed into r; the others are held as
 * r->tb with its entries (*code NULL). */
sg_status sgi_rule_parse_moves(sg_rule *r, const char *inner, long off,
                               char **code, sg_error *err);

/* The canonical text of a rule holding a general code, or NULL when out
 * of memory. */
char *sgi_tb_canonical(const sgi_tb *tb);

/* The digit of a general code at position k. */
sgi_tb_digit sgi_tb_digit_at(const sgi_tb *tb, uint64_t k);

/* The most heaps a move may leave, over every digit. */
unsigned sgi_tb_max_heaps(const sgi_tb *tb);

void sgi_tb_free(sgi_tb *tb);

/* G(0..n-1) of a rule holding a general code (enum_tb.c), computed afresh
 * (s's earlier values are replaced); a stopped run keeps what it has. */
sg_status sgi_enumerate_tb(sg_seq *s, const sgi_tb *tb, size_t n,
                           const sg_enum_options *opt, sg_error *err);

/* A move of heap h (h < s->n, the values of a general code) to a
 * position of value v: its take and the heaps it leaves (part[], room
 * for SGI_TB_MAX_HEAPS, ascending).  SG_E_UNKNOWN when there is none,
 * SG_E_NOMEM when the tables do not fit. */
sg_status sgi_tb_find_move(const sgi_tb *tb, const sg_seq *s, size_t h,
                           sg_value v, uint64_t *take, size_t *part,
                           unsigned *nparts);

/* Bytes of physical memory on this machine (0 when unknown). */
uint64_t sgi_physical_memory(void);

/* Parse the non-negative decimal integer text[0..len-1], which must fit
 * in 63 bits; an error's position counts from pos, text's own (error.c,
 * for the parsers of rules, sets and certificates). */
sg_status sgi_parse_u63(uint64_t *out, const char *text, size_t len, long pos,
                        sg_error *err);

/* ------------------------------------------------------------------ */
/* The figures' parts (plot_data.c, plot.c), tested on their own       */
/* ------------------------------------------------------------------ */

/* Rare values in the sense of sparse spaces: heap n of value G is rare
 * when popcount(G & mask) + parity * ((n + parity_shift) mod 2) is even
 * (parity = 0: G & mask has an even number of one bits), except heap 0,
 * which never is (sg_sparse_space counts heaps h >= 1, and so does the
 * legend).  mask is 0 when nothing is to be marked. */
typedef struct sgi_plot_rare {
    uint64_t mask;
    int parity;       /* 1: the heap's parity is part of the class, as in
                         the sparse space of sg_sparse_space_find_rule */
    int parity_shift; /* 0 or 1, see above */
    uint64_t count;   /* positions holding a rare value */
    uint64_t total;   /* positions looked at */
} sgi_plot_rare;

/* Find the rare values of G(from..to), so that a figure can make those
 * positions stand out.  When r (may be NULL) has a sparse space over the
 * heap's parity in the computed values, the one the reports show
 * (sg_sparse_space_find_rule on G(0..s->n-1)), the rare values are those
 * of that space, so that figure and report agree; mask is then 0 when
 * none of them lies in from..to.  Otherwise the plain mask (below 2^16)
 * under which the fewest of G(from..to) are rare, or 0 when no mask makes
 * that class rare (at most 1 in 10 positions, among at least 100).
 * Values past s->n come from the proven period of res (res may be NULL);
 * SG_E_INPUT when some are neither computed nor proven. */
sg_status sgi_plot_find_rare(sgi_plot_rare *out, const sg_seq *s,
                             const sg_rule *r, const sg_result *res,
                             uint64_t from, uint64_t to, sg_error *err);

/* What sgi_plot_write_sequence wrote. */
typedef struct sgi_plot_data {
    uint64_t step; /* positions per row */
    uint64_t rows;
    uint64_t vmin, vmax; /* smallest and largest value of G(from..to) */
    uint64_t xbase;      /* the rows hold n - xbase ... */
    uint64_t ybase;      /* ... and G - ybase */
} sgi_plot_data;

/* Write the data file that gnuplot draws for G(from..to), to `path`:
 * rows "n max min rare" for buckets of `step` positions from `from` on
 * (step 1 when the range has at most max_rows positions, else the least
 * step that keeps within max_rows rows; 0 means SG_PLOT_MAX_ROWS), with
 * the largest and smallest value of the bucket and its largest value that
 * is rare under `rare` (NULL or mask 0: none), or "-".  Values as for
 * sgi_plot_find_rare.
 * gnuplot reads numbers as doubles, exact only below 2^53, so numbers of
 * more than 7 digits are written as offsets from a round base (out->xbase
 * for n, out->ybase for G; 0 otherwise): for n = 10^18..10^18+100 the
 * rows hold 0..100 and xbase is 10^18.  The rows are kept in memory until
 * the last is known (40 bytes each). */
sg_status sgi_plot_write_sequence(const char *path, sgi_plot_data *out,
                                  const sg_seq *s, const sg_result *res,
                                  uint64_t from, uint64_t to, size_t max_rows,
                                  const sgi_plot_rare *rare, sg_error *err);

/* What sgi_plot_write_results counted. */
typedef struct sgi_plot_summary {
    uint64_t periodic, arith, unresolved;
    uint64_t max_preperiod, max_period;
    uint64_t max_point; /* most rules sharing one (n0, p) */
    uint64_t max_count; /* most rules sharing one period */
} sgi_plot_summary;

/* Write the data file of the results figure to `path` (its blocks are
 * described in plots/results.gp): proven rules aggregated by (pre-period,
 * period), the number of rules per period, the extreme rules by name.
 * Unresolved rules are only counted. */
sg_status sgi_plot_write_results(const char *path, sgi_plot_summary *out,
                                 const sg_plot_result *items, size_t n,
                                 sg_error *err);

/* What sgi_plot_write_misere wrote. */
typedef struct sgi_plot_misere {
    uint64_t vmax;  /* largest G(n) or G-(n) of the heaps */
    uint64_t nwild; /* heaps whose genus is not tame */
} sgi_plot_misere;

/* Write the data file of the misère figure to `path`: one row per heap
 * of m, "n G G- wild \"genus\"" (wild 1 when the heap's own genus is not
 * tame), G(n) taken from the genus (m->normal may be empty: read from the
 * cache).  The heaps are few (the exact computation's), so none is
 * thinned and no offsets are needed. */
sg_status sgi_plot_write_misere(const char *path, sgi_plot_misere *out,
                                const sg_misere *m, sg_error *err);

/* The built-in text of the template "sequence", "results" or "misere"
 * (the files of plots/), or NULL. */
const char *sgi_plot_template(const char *name);

/* misere_quot.c: sg_misere_quotient_from with test flags: MONOID_FIRST
 * tries the candidates built as monoids first at every heap, before the
 * learning; MONOID_CORRUPT flips one P bit of every such candidate
 * before Theorem Q's check, which must then refuse it.  *monoid_heaps
 * (when not NULL): how many heaps that rung proved. */
#define SGI_MQUOT_MONOID_FIRST 1u
#define SGI_MQUOT_MONOID_CORRUPT 2u
sg_status sgi_misere_quotient_test(sg_mquot *m, const sg_rule *r, size_t n,
                                   size_t max_order, size_t budget,
                                   const sg_mquot *from,
                                   volatile sig_atomic_t *cancel,
                                   unsigned flags, size_t *monoid_heaps,
                                   sg_error *err);

/* misere_quot.c: Theorem Q's check (docs/MISERE.md) of a candidate
 * quotient of heaps 1..k of rule r: states 0..nq-1 (0 the empty sum),
 * trans[u * k + h - 1] the state of u plus heap h, label[u] = 1 for the
 * P-portion.  0 when it is the misère quotient (the heaps commute,
 * Lemma Q's walk passes, (Q, P) is reduced, every state is reached),
 * 1 when a check fails, -1 on failure (err).  For the tests: the proof
 * sg_misere_quotient runs on every quotient it returns. */
int sgi_mquot_verify(const sg_rule *r, size_t k, size_t nq,
                     const uint32_t *trans, const unsigned char *label,
                     size_t budget, sg_error *err);

/* misere_quot.c: complete a quotient of which only heaps, order, trans,
 * p and orders are set (as the cache stores it, store_misere.c): the
 * heaps' elements, the product table and the presentation.  SG_E_INPUT
 * when those do not describe a commutative monoid generated by the heaps
 * (a damaged copy). */
sg_status sgi_mquot_complete(sg_mquot *q, sg_error *err);

#endif /* SG_INTERNAL_H */
