/*
 * fuzz_deep.c - fuzz target of the deep runs' checkpoint reader
 * (sg_deep_load, src/lib/enum/deep_run.c): the input is a checkpoint's state, the
 * bytes a cache hands back after checking only their hash, so a crafted
 * cache reaches this parser with any bytes it likes.  The seeds are real
 * states of three rules (tests/fuzz/corpus/deep/: before and after the
 * window fills).  A state that loads must save again to bytes that load
 * to the same bytes (the loader keeps nothing it does not check), and the
 * run must go on from it for a few heaps without a crash: each value an
 * exact answer or the run's honest stop (SG_E_UNKNOWN).
 */
#include "fuzz.h"
#include "sgexplore.h"

/* The rules of the seeds; a state names its rule, and is tried with the
 * one whose canonical text it holds. */
static const char *const rule_texts[] = {"0.6", "0.054", "4!.0"};
#define NRULES (sizeof rule_texts / sizeof rule_texts[0])

/* Heaps the run is extended by after a load. */
#define MORE 64

/* The largest window tried.  A state's window may be up to 2^34 values,
 * and a run holds 3 W of them from its load on (a genuine early
 * checkpoint of a large window has few values but the same room), so a
 * crafted state of a few bytes asks for gigabytes, which is an honest
 * "out of memory" for the program but a failure for libFuzzer's memory
 * limit.  States with larger windows are skipped. */
#define MAX_WINDOW ((uint64_t)1 << 20)

/* The little-endian 8 bytes at p. */
static uint64_t u64_at(const uint8_t *p)
{
    uint64_t v = 0;
    int k;

    for (k = 7; k >= 0; k--)
        v = v << 8 | p[k];
    return v;
}

/* The window a state names (docs/DEEP.md: the magic, the rule text's
 * length and bytes, N, W), or 0 when it is too short to name one. */
static uint64_t window_of(const uint8_t *data, size_t size)
{
    uint64_t tl;

    if (size < 16)
        return 0;
    tl = u64_at(data + 8);
    if (tl > size || size - tl < 32)
        return 0;
    return u64_at(data + 16 + tl + 8);
}

static sg_rule rules[NRULES];
static int parsed;

static int rules_init(void)
{
    sg_error err;
    size_t i;

    if (parsed)
        return parsed > 0;
    parsed = 1;
    for (i = 0; i < NRULES; i++) {
        sg_rule_init(&rules[i]);
        if (sg_rule_parse(&rules[i], SG_SYNTAX_RULE, rule_texts[i], &err) !=
            SG_OK)
            parsed = -1;
    }
    return parsed > 0;
}

SG_FUZZ_TARGET(deep)
{
    sg_deep d, e;
    sg_error err;
    void *b1 = NULL, *b2 = NULL;
    size_t n1 = 0, n2 = 0, i;
    sg_status st;

    if (!rules_init() || window_of(data, size) > MAX_WINDOW)
        return 0;
    for (i = 0; i < NRULES; i++) {
        const sg_rule *r = &rules[i];
        st = sg_deep_load(&d, r, data, size, &err);
        if (st != SG_OK) {
            /* Refused: one line, and nothing to clear but the run. */
            SG_FUZZ_CHECK(err.msg[0] != '\0' && !strchr(err.msg, '\n'));
            sg_deep_clear(&d);
            continue;
        }
        if (sg_deep_save(&d, r, &b1, &n1, &err) == SG_OK) {
            SG_FUZZ_CHECK(sg_deep_load(&e, r, b1, n1, &err) == SG_OK);
            if (sg_deep_save(&e, r, &b2, &n2, &err) == SG_OK)
                SG_FUZZ_CHECK(n1 == n2 && memcmp(b1, b2, n1) == 0);
            sg_deep_clear(&e);
            free(b1);
            free(b2);
            b1 = b2 = NULL;
        }
        /* A state may claim any count of heaps; the run goes on only
         * from counts it could have reached. */
        if (d.seq.n < ((size_t)1 << 40)) {
            size_t want = d.seq.n + MORE;
            st = sg_deep_extend(&d, r, want, NULL, &err);
            SG_FUZZ_CHECK(st == SG_OK || st == SG_E_UNKNOWN ||
                          st == SG_E_NOMEM);
            if (st == SG_OK)
                SG_FUZZ_CHECK(d.seq.n == want);
        }
        sg_deep_clear(&d);
    }
    return 0;
}
