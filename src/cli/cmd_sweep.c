/*
 * cmd_sweep.c - `sgexplore sweep FAMILY`: analyse every rule of a family
 * (the generators of family.c, or a file of rules) on every core, through
 * the cache, printing one row per rule as it finishes and a summary.
 *
 * Design (docs/SWEEPS.md has the user's side):
 *  - Everything the user typed is checked before anything is computed or
 *    written: family, sizes, shard, format, budgets, every rule of a
 *    rules file (with its line number).
 *  - The parent forks --jobs workers.  Each worker has a task pipe (the
 *    parent writes the index of the next rule) and a result pipe (the
 *    worker writes back one finished row: a fixed header, then the row's
 *    JSON object, the rule's one record (cli_view_write)).  The parent
 *    alone prints, so rows never interleave.  Each worker runs the cached
 *    analysis of the program (cli_flow_run_rule) with its own connection
 *    to the cache, which is WAL SQLite and safe for concurrent writers.
 *  - SIGINT/SIGTERM: the parent forwards SIGTERM to the workers; each one
 *    stops its enumeration, stores the computed prefix (the flow does that
 *    in one transaction) and exits.  A finished rule is stored before its
 *    row is sent, so a rerun reports it from the cache and extends the
 *    interrupted ones.
 *  - Rules with equal canonical forms are the same game (docs/THEORY.md,
 *    "Equal canonical forms"): they are analysed once and shown as a
 *    group.  Nothing else is grouped.
 */
#define _DEFAULT_SOURCE
#include "sweep.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Families larger than this need --yes. */
#define SWEEP_CONFIRM 10000

static const cli_opt sweep_opts[] = {
    {"--size", NULL, "K", "set size, or a range A-B (subtract, all-but)"},
    {"--max-element", NULL, "M",
     "largest element of a set (subtract, "
     "all-but)"},
    {"--digits", NULL, "D", "digits after the point (octal, hex)"},
    {"--prefix", NULL, "P.",
     "the digit before the point: 0. (default) or "
     "4. (octal, hex)"},
    {"--max", NULL, "N", "compute at most N values per rule"},
    {"--seconds", NULL, "S",
     "stop computing a rule after S seconds (no default --max then)"},
    {"--escalate", NULL, "R",
     "R rounds: budgets 10^(R-1) times smaller first, then 10x each "
     "round for the unresolved rules"},
    {"--jobs", "-j", "N", "N workers at once (default: every core)"},
    {"--format", NULL, "FMT", "table (default), csv or json"},
    {"--shard", NULL, "K/N", "only every N-th rule, from the K-th on"},
    {"--plot", NULL, "FILE", "draw periods and pre-periods of the sweep"},
    {"--yes", NULL, NULL, "sweep a family of more than 10,000 rules"},
    {"--misere", NULL, NULL,
     "also the misere genus of heaps 0..39: tame_to per rule"},
    {"--misere-max", NULL, "N", "with --misere: heaps 0..N-1 (default 40)"},
    {"--quotient", NULL, NULL,
     "with --misere: the misere quotient of heaps 1..N-1, its order"},
    {"--max-order", NULL, "M",
     "with --quotient: stop past M elements (default 1024)"},
    {NULL, NULL, NULL, NULL},
};

static int sweep_run(const cli_command *self, cli_args *a);

const cli_command cli_cmd_sweep = {
    "sweep",
    "sweep subtract|all-but --size K[-K2] --max-element M [options]\n"
    "sweep octal|hex --digits D [--prefix P.] [options]\n"
    "sweep progressions --max-element M [options]\n"
    "sweep rules FILE|- [options]",
    "Analyse every rule of a family on every core.  One row per rule as\n"
    "it finishes (rule, status, pre-period, period, saltus, values\n"
    "computed, seconds, source), then a summary.  Rules already in the\n"
    "cache are not recomputed; an interrupted sweep run again continues\n"
    "where it stopped.",
    CLI_CMD_CACHE,
    sweep_opts,
    sweep_run,
};

/* ------------------------------------------------------------------ */
/* The rules of the sweep                                               */
/* ------------------------------------------------------------------ */

static void sweep_clear(sweep *s)
{
    size_t i, j;

    for (i = 0; i < s->n; i++) {
        for (j = 0; j < s->items[i].ngiven; j++)
            free(s->items[i].given[j]);
        free(s->items[i].given);
        free(s->items[i].form);
        free(s->items[i].canon);
        free(s->items[i].json);
    }
    free(s->items);
    free(s->slots);
    free(s->todo);
}

/* FNV-1a of a canonical form, for the table of distinct rules. */
static size_t hash_text(const char *t)
{
    uint64_t h = 1469598103934665603ULL;

    for (; *t; t++)
        h = (h ^ (unsigned char)*t) * 1099511628211ULL;
    return (size_t)h;
}

/* The slot of canon: where it is, or the empty slot where it would go. */
static size_t *find_slot(const sweep *s, const char *canon)
{
    size_t k = hash_text(canon) & (s->nslots - 1);

    while (s->slots[k] && strcmp(s->items[s->slots[k] - 1].canon, canon))
        k = (k + 1) & (s->nslots - 1);
    return &s->slots[k];
}

/* Keep the table at most half full (rebuilt when it grows); -1 when out
 * of memory. */
static int grow_slots(sweep *s)
{
    size_t i, old = s->nslots, *was = s->slots;

    if (2 * (s->n + 1) <= s->nslots)
        return 0;
    s->nslots = old ? 2 * old : 1024;
    if (!(s->slots = calloc(s->nslots, sizeof *s->slots))) {
        s->slots = was;
        s->nslots = old;
        return -1;
    }
    for (i = 0; i < s->n; i++)
        *find_slot(s, s->items[i].canon) = i + 1;
    free(was);
    return 0;
}

/* Add one rule text (from: where it was read, for messages); rules with
 * the canonical form of an earlier one join its group.  keep_given: show
 * the text as given when it differs from the canonical form (a code such
 * as 0.33 for subtract{1,2}); a generated set is only another notation of
 * its canonical form (subtract{1,2,3} for subtract{1-3}). */
static int sweep_add(sweep *s, const char *from, const char *text,
                     int keep_given)
{
    cli_rule r;
    size_t *slot;
    item *it = NULL;
    int rc;

    cli_rule_init(&r);
    if ((rc = cli_rule_parse_line(&r, from, text))) {
        cli_rule_clear(&r);
        return rc;
    }
    s->listed++;
    if (grow_slots(s))
        goto nomem;
    slot = find_slot(s, r.canon);
    if (*slot)
        it = &s->items[*slot - 1];
    if (!it) {
        if (sg_grow(&s->items, &s->cap, s->n + 1, sizeof *s->items))
            goto nomem;
        it = &s->items[s->n++];
        memset(it, 0, sizeof *it);
        it->canon = r.canon;
        r.canon = NULL;
        *slot = s->n;
    }
    if (!it->form && r.rule.given && !(it->form = strdup(r.rule.given)))
        goto nomem;
    {
        /* The same text twice is one name of the rule. */
        const char *name = keep_given ? text : it->canon;
        size_t j;
        for (j = 0; j < it->ngiven; j++)
            if (strcmp(it->given[j], name) == 0) {
                cli_rule_clear(&r);
                return EXIT_DONE;
            }
    }
    if (sg_grow(&it->given, &it->capgiven, it->ngiven + 1, sizeof *it->given) ||
        !(it->given[it->ngiven] = strdup(keep_given ? text : it->canon)))
        goto nomem;
    it->ngiven++;
    cli_rule_clear(&r);
    return EXIT_DONE;
nomem:
    cli_rule_clear(&r);
    cli_error("out of memory");
    return EXIT_RUNTIME;
}

/* Whether rule number i (0-based, family order) belongs to this shard. */
static int in_shard(const sweep *s, uint64_t i)
{
    return i % s->shard_n == s->shard_k - 1;
}

/* A small natural number option ("--digits 3"). */
static int parse_small(unsigned *out, const char *opt, const char *text,
                       unsigned lo, unsigned hi)
{
    char *end;
    unsigned long v;

    errno = 0;
    v = strtoul(text, &end, 10);
    if (!*text || *text == '-' || *text == '+' || *end || errno || v < lo ||
        v > hi) {
        cli_error("%s '%s': expected a whole number from %u to %u", opt,
                  cli_quote(text), lo, hi);
        return EXIT_USAGE;
    }
    *out = (unsigned)v;
    return EXIT_DONE;
}

/* --size K or A-B. */
static int parse_size(sg_family *f, const char *text)
{
    const char *dash = strchr(text, '-');
    char buf[32];
    int rc;

    if (!dash) {
        rc = parse_small(&f->size_lo, "--size", text, 0, 100000);
        f->size_hi = f->size_lo;
        return rc;
    }
    if ((size_t)(dash - text) >= sizeof buf) {
        cli_error("--size '%s': expected K or a range A-B", cli_quote(text));
        return EXIT_USAGE;
    }
    memcpy(buf, text, (size_t)(dash - text));
    buf[dash - text] = '\0';
    if ((rc = parse_small(&f->size_lo, "--size", buf, 0, 100000)) ||
        (rc = parse_small(&f->size_hi, "--size", dash + 1, 0, 100000)))
        return rc;
    if (f->size_lo > f->size_hi) {
        cli_error("--size '%s': the range must not be empty", cli_quote(text));
        return EXIT_USAGE;
    }
    return EXIT_DONE;
}

/* The options that only some families take: refuse them elsewhere. */
static int refuse(const cli_args *a, const char *family,
                  const char *const *opts)
{
    for (; *opts; opts++)
        if (cli_get(a, *opts)) {
            cli_error("sweep %s does not take %s", family, *opts);
            return EXIT_USAGE;
        }
    return EXIT_DONE;
}

static int too_large(uint64_t total, const cli_args *a)
{
    if (total > SWEEP_CONFIRM && !cli_get(a, "--yes")) {
        cli_error("the family has %llu rules, more than %d: add --yes to "
                  "sweep them all (or --shard K/N to sweep a slice)",
                  (unsigned long long)total, SWEEP_CONFIRM);
        return EXIT_USAGE;
    }
    return EXIT_DONE;
}

/* A built-in family: its parameters, then this shard's rules. */
static int load_family(sweep *s, const cli_args *a, const char *name)
{
    static const char *const set_only[] = {"--digits", "--prefix", NULL};
    static const char *const code_only[] = {"--size", "--max-element", NULL};
    sg_family f;
    sg_error err;
    uint64_t i;
    unsigned me;
    int rc;

    memset(&f, 0, sizeof f);
    if (strcmp(name, "progressions") == 0) {
        static const char *const no[] = {"--digits", "--prefix", "--size",
                                         NULL};
        const char *m = cli_get(a, "--max-element");
        f.kind = SG_FAMILY_PROGRESSION;
        if ((rc = refuse(a, name, no)))
            return rc;
        if (!m) {
            cli_error("sweep progressions needs --max-element M");
            return EXIT_USAGE;
        }
        if ((rc = parse_small(&me, "--max-element", m, 1, 1000000)))
            return rc;
        f.max_element = me;
    } else if (strcmp(name, "subtract") == 0 || strcmp(name, "all-but") == 0) {
        const char *size = cli_get(a, "--size"),
                   *m = cli_get(a, "--max-element");
        f.kind = name[0] == 's' ? SG_FAMILY_SUBTRACT : SG_FAMILY_ALLBUT;
        if ((rc = refuse(a, name, set_only)))
            return rc;
        if (!size || !m) {
            cli_error("sweep %s needs --size K and --max-element M", name);
            return EXIT_USAGE;
        }
        if ((rc = parse_size(&f, size)))
            return rc;
        if ((rc = parse_small(&me, "--max-element", m, 1, 1000000)))
            return rc;
        f.max_element = me;
    } else {
        const char *d = cli_get(a, "--digits"), *p = cli_get(a, "--prefix");
        f.kind = name[0] == 'o' ? SG_FAMILY_OCTAL : SG_FAMILY_HEX;
        if ((rc = refuse(a, name, code_only)))
            return rc;
        if (!d) {
            cli_error("sweep %s needs --digits D", name);
            return EXIT_USAGE;
        }
        if ((rc = parse_small(&f.digits, "--digits", d, 1, 20)))
            return rc;
        if (p) {
            /* "4." or "4": one digit before the point. */
            static const char hexd[] = "0123456789ABCDEF";
            const char *h;
            if (!p[0] || (p[1] && strcmp(p + 1, ".") != 0) ||
                !(h = strchr(hexd, p[0] >= 'a' && p[0] <= 'f' ? p[0] - 'a' + 'A'
                                                              : p[0]))) {
                cli_error("--prefix '%s': expected one digit and a point, "
                          "such as 4.",
                          cli_quote(p));
                return EXIT_USAGE;
            }
            f.prefix = (unsigned)(h - hexd);
        }
    }
    if (sg_family_count(&s->family_total, &f, &err))
        return cli_report(NULL, NULL, &err);
    if ((rc = too_large(s->family_total, a)))
        return rc;
    for (i = 0; i < s->family_total; i++) {
        char *text;
        if (!in_shard(s, i))
            continue;
        if (sg_family_rule(&text, &f, i, &err))
            return cli_report(NULL, NULL, &err);
        rc = sweep_add(s, "family rule", text,
                       f.kind == SG_FAMILY_OCTAL || f.kind == SG_FAMILY_HEX);
        free(text);
        if (rc)
            return rc;
    }
    return EXIT_DONE;
}

/* `sweep rules FILE|-`: one rule per line, `#` comments, blank lines
 * (cli_rules_read). */
static int load_rules(sweep *s, const cli_args *a, const char *path)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    char from[64];
    uint64_t k = 0;
    int rc;
    /* The rules are parsed twice: once to count them (--yes) and check
     * them all before anything runs, then into this shard. */
    char **texts = NULL;
    size_t ntexts = 0, i;
    unsigned long *lines = NULL;

    if (!f) {
        cli_error("cannot open the rules file '%s': %s", cli_quote(path),
                  strerror(errno));
        return EXIT_RUNTIME;
    }
    rc = cli_rules_read(&texts, &lines, &ntexts, f, path);
    if (f != stdin)
        fclose(f);
    if (rc)
        return rc;
    s->family_total = ntexts;
    if ((rc = too_large(ntexts, a))) {
        cli_rules_free(texts, lines, ntexts);
        return rc;
    }
    /* Every bad line is named, one error line each, and the exit status
     * is the first's (issue 50: only the first was named). */
    for (i = 0; rc != EXIT_RUNTIME && i < ntexts; i++) {
        cli_rule r;
        int k1;
        snprintf(from, sizeof from, "%s line %lu",
                 strcmp(path, "-") == 0 ? "stdin" : "rules file", lines[i]);
        if (!in_shard(s, k++)) {
            /* Still checked: a bad rule is found by every shard. */
            cli_rule_init(&r);
            k1 = cli_rule_parse_line(&r, from, texts[i]);
            cli_rule_clear(&r);
        } else {
            k1 = sweep_add(s, from, texts[i], 1);
        }
        if (k1 && !rc)
            rc = k1;
    }
    cli_rules_free(texts, lines, ntexts);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Workers                                                              */
/* ------------------------------------------------------------------ */

/* The fixed part of a row sent back by a worker; `json_len` bytes of its
 * JSON object follow. */
typedef struct wire_row {
    uint64_t index;
    int32_t rc; /* the flow's exit status; 0: a result follows */
    int32_t status;
    uint64_t preperiod, period, saltus, computed;
    double seconds;
    char source[12];
    uint64_t digest, digest_len;
    sweep_budget b; /* the budget of this round and how it ended */
    sweep_misere mis;
    uint64_t json_len;
} wire_row;

/* Write all of buf (the pipe may take it in pieces); -1 on failure. */
static int write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;

    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Read exactly n bytes: 1 done, 0 end of file before any byte, -1 error
 * or a short message.  Signals do not cut a message in half. */
static int read_all(int fd, void *buf, size_t n)
{
    char *p = buf;
    size_t got = 0;

    while (got < n) {
        ssize_t r = read(fd, p + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            return got == 0 ? 0 : -1;
        got += (size_t)r;
    }
    return 1;
}

/* Values compared between the rules of a sweep (see digest()). */
#define SWEEP_DIGEST_VALUES 4096

/* The FNV-1a hash of G(0..L-1), L = SWEEP_DIGEST_VALUES or fewer when
 * fewer are known: values past the computed ones follow from a proven
 * period.  Rules with equal digests over equal lengths are noted as
 * agreeing there, never as equal (docs/THEORY.md, section 13). */
static void digest(uint64_t *h, uint64_t *len, const sg_result *res,
                   const sg_seq *seq)
{
    uint64_t n = SWEEP_DIGEST_VALUES, i, x = 1469598103934665603ULL;
    int proven = res->status != SG_UNRESOLVED && res->period > 0 &&
                 seq->n >= res->preperiod + res->period;

    if (!proven && seq->n < n)
        n = seq->n;
    for (i = 0; i < n; i++) {
        uint64_t k = i, v, j;
        if (k >= seq->n) /* proven: back into the first period */
            k = res->preperiod + (k - res->preperiod) % res->period;
        v = sg_seq_get(seq, (size_t)k);
        if (proven && k != i && res->saltus)
            v += (i - k) / res->period * res->saltus;
        for (j = 0; j < 8; j++) {
            x = (x ^ (v & 0xff)) * 1099511628211ULL;
            v >>= 8;
        }
    }
    *h = x;
    *len = n;
}

/* The budget of rule fl in this round: the final one (--max, --seconds,
 * else the default count) divided by the round's divisor.  With
 * --seconds the time is divided and an explicit --max stays a cap;
 * without, the count is.  *scaled_default: the count is the rule's
 * default, divided. */
static void round_budget(const sweep *s, const cli_flow *fl, uint64_t *max,
                         double *seconds, int *scaled_default)
{
    uint64_t div = s->round_info[s->round].div;

    *max = s->max;
    *seconds = s->seconds;
    *scaled_default = 0;
    if (div <= 1)
        return;
    if (*seconds > 0) {
        *seconds /= (double)div;
    } else {
        if (!*max) {
            *max = sg_default_max(&fl->r.rule);
            *scaled_default = 1;
        }
        *max /= div;
        if (*max < 1)
            *max = 1;
    }
}

/* One budget as a JSON object. */
static void budget_write(cli_rec *r, const sweep_budget *b)
{
    cli_rec_obj(r, NULL);
    cli_rec_uint(r, "max", b->max);
    cli_rec_str(r, "max_is", b->max_is);
    if (b->seconds > 0)
        cli_rec_real(r, "seconds", b->seconds);
    else
        cli_rec_null(r, "seconds");
    cli_rec_uint(r, "from", b->from);
    cli_rec_uint(r, "computed", b->computed);
    cli_rec_str(r, "source", b->source);
    cli_rec_str(r, "stopped", b->stopped);
    cli_rec_close(r);
}

/* The keys a sweep row adds to a rule's result: why the run stopped, the
 * texts that named the rule, its wall time, and every budget the rule
 * got, the earlier rounds' first (docs/JSON.md); the csv has the same. */
static void budgets_write(cli_rec *r, const item *it, const sweep_budget *b,
                          double seconds)
{
    unsigned k;

    cli_rec_str(r, "stopped", b->stopped);
    cli_rec_arr(r, "given");
    for (k = 0; k < it->ngiven; k++)
        if (strcmp(it->given[k], it->canon) != 0)
            cli_rec_str(r, NULL, it->given[k]);
    cli_rec_close(r);
    /* over every round, as the csv's column: the parent forks a round's
     * workers after adding up the rounds before */
    cli_rec_real(r, "seconds", it->seconds + seconds);
    cli_rec_arr(r, "budgets");
    for (k = 0; k < it->nbudgets; k++)
        budget_write(r, &it->budgets[k]);
    budget_write(r, b);
    cli_rec_close(r);
}

/* One rule in a worker: the cached analysis, then its row. */
static int work_one(const sweep *s, const cli_args *a, uint64_t index, int out)
{
    cli_misere x;
    cli_flow fl;
    wire_row w;
    cli_view view;
    char *json = NULL;
    size_t json_len = 0;
    FILE *mem;
    double t0 = now(), seconds;
    uint64_t max;
    int rc, sent, scaled_default = 0;

    memset(&w, 0, sizeof w);
    w.index = index;
    cli_flow_init(&fl);
    fl.shares = s->shares;
    rc = cli_rule_parse_text(&fl.r, "rule",
                             s->items[index].form ? s->items[index].form
                                                  : s->items[index].canon);
    round_budget(s, &fl, &max, &seconds, &scaled_default);
    if (!rc)
        rc = cli_flow_run_rule(&fl, a, max, seconds, 0);
    rc = cli_flow_finish(&fl, rc);
    if (rc && cli_cancel == 1) {
        /* Interrupted: the flow stored the prefix and said so. */
        cli_flow_clear(&fl);
        return -1;
    }
    w.rc = rc;
    w.seconds = now() - t0;
    if (!rc) {
        w.status = (int32_t)fl.res.status;
        w.preperiod = fl.res.preperiod;
        w.period = fl.res.period;
        w.saltus = fl.res.saltus;
        w.computed = fl.seq.n;
        digest(&w.digest, &w.digest_len, &fl.res, &fl.seq);
        snprintf(w.source, sizeof w.source, "%s", fl.source);
        w.b.max = fl.max;
        w.b.seconds = seconds;
        w.b.from = fl.row.found ? fl.row.loaded : 0;
        w.b.computed = fl.seq.n;
        snprintf(w.b.max_is, sizeof w.b.max_is, "%s",
                 scaled_default ? "default" : fl.max_is);
        snprintf(w.b.stopped, sizeof w.b.stopped, "%s", fl.stopped);
        snprintf(w.b.source, sizeof w.b.source, "%s", fl.source);
    }
    cli_misere_init(&x);
    if (!rc && s->misere) {
        if (cli_cancel == 2) /* a --seconds alarm of the flow, not a signal */
            cli_cancel = 0;
        rc = cli_misere_compute(&x, &fl, s->mis_heaps, s->quotient,
                                s->max_order);
        if (rc && cli_cancel == 1) {
            cli_misere_clear(&x);
            cli_flow_clear(&fl);
            return -1;
        }
        if (!rc)
            rc = x.store_rc;
        w.rc = rc;
        w.seconds = now() - t0;
        if (!rc) {
            w.mis.on = 1;
            w.mis.heaps = x.m.n;
            w.mis.tame_to = x.m.tame_to;
            w.mis.quotient = s->quotient;
            w.mis.q_heaps = x.quot.heaps;
            w.mis.q_order = x.quot.order;
            w.mis.q_stopped_at = x.qstopped ? x.quot.stopped_at : 0;
        }
    }
    if (!rc) {
        if (s->fmt == FMT_JSON) {
            cli_flow_view(&view, &fl);
            if (cli_view_prepare(&view) ||
                !(mem = open_memstream(&json, &json_len))) {
                cli_misere_clear(&x);
                cli_flow_clear(&fl);
                return -1;
            }
            /* the row's record, without its newline (print_row adds it) */
            {
                cli_rec rec;
                cli_rec_begin(&rec, mem, 1);
                cli_view_write(&rec, &view);
                cli_view_values(&rec, &view);
                if (w.mis.on) {
                    cli_misere_write(&rec, &x.m, s->mis_heaps, x.stopped,
                                     x.gsource);
                    if (s->quotient)
                        cli_mquot_write(&rec, &x.quot, x.qstopped, x.qsource);
                }
                budgets_write(&rec, &s->items[index], &w.b, w.seconds);
                cli_rec_end(&rec);
            }
            fclose(mem);
            if (json_len && json[json_len - 1] == '\n')
                json_len--;
            w.json_len = json_len;
        }
    }
    cli_misere_clear(&x);
    cli_flow_clear(&fl);
    sent = write_all(out, &w, sizeof w) == 0 &&
           (!json_len || write_all(out, json, json_len) == 0);
    free(json);
    return sent ? 0 : -1;
}

/* A worker's life: read indices until the parent closes the pipe or a
 * signal stops the sweep. */
static void worker(const sweep *s, const cli_args *a, int in, int out)
{
    uint64_t index;

    cli_progress_forbid();
    for (;;) {
        int r;
        /* A --seconds alarm that fired just after the previous rule
         * finished leaves 2 behind; only a signal (1) stops the worker. */
        if (cli_cancel == 2)
            cli_cancel = 0;
        if (cli_cancel)
            break;
        r = read_all(in, &index, sizeof index);
        if (cli_cancel == 2)
            cli_cancel = 0;
        if (r <= 0 || cli_cancel || index >= s->n)
            break;
        if (work_one(s, a, index, out))
            break;
    }
    close(in);
    close(out);
}

typedef struct slot {
    pid_t pid;
    int task, result; /* parent's ends */
    int busy;         /* analysing items[rule] */
    int reported;     /* its unasked end has been reported */
    size_t rule;
} slot;

/* write_all to a worker's task pipe without SIGPIPE: a worker that died
 * between two rules must not take the sweep down with it (the sweep's
 * own stdout keeps the default, so `sweep | head` still ends quietly). */
static int write_task(int fd, const void *buf, size_t n)
{
    sigset_t pipe_set, old;
    int r, err;

    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    sigprocmask(SIG_BLOCK, &pipe_set, &old);
    r = write_all(fd, buf, n);
    err = errno;
    if (r < 0 && err == EPIPE) {
        /* consume the SIGPIPE the write raised, unless one was already
         * pending before we blocked it */
        if (!sigismember(&old, SIGPIPE)) {
            struct timespec zero = {0, 0};
            while (sigtimedwait(&pipe_set, NULL, &zero) < 0 && errno == EINTR)
                ;
        }
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    errno = err;
    return r;
}

/* Give a worker the next rule of the round, or, when there is none (or
 * `go` is 0), close its task pipe so that it ends. */
static void feed(slot *w, size_t *next, const sweep *s, int go)
{
    if (go && *next < s->ntodo) {
        uint64_t idx = s->todo[*next];
        if (write_task(w->task, &idx, sizeof idx) == 0) {
            w->busy = 1;
            w->rule = (size_t)idx;
            (*next)++;
            return;
        }
    }
    close(w->task);
    w->task = -1;
}

/* ------------------------------------------------------------------ */
/* The command                                                          */
/* ------------------------------------------------------------------ */

static int parse_options(sweep *s, const cli_args *a)
{
    const char *fmt = cli_get(a, "--format"), *shard = cli_get(a, "--shard");
    const char *jobs = cli_get(a, "--jobs"), *plot = cli_get(a, "--plot");
    int rc;

    s->fmt = FMT_TABLE;
    if (fmt) {
        if (strcmp(fmt, "table") == 0)
            s->fmt = FMT_TABLE;
        else if (strcmp(fmt, "csv") == 0)
            s->fmt = FMT_CSV;
        else if (strcmp(fmt, "json") == 0)
            s->fmt = FMT_JSON;
        else {
            cli_error("--format '%s': expected table, csv or json",
                      cli_quote(fmt));
            return EXIT_USAGE;
        }
    }
    if (cli_json(a))
        s->fmt = FMT_JSON;
    s->shard_k = s->shard_n = 1;
    if (shard) {
        unsigned long k, n;
        char *e1, *e2;
        errno = 0;
        k = strtoul(shard, &e1, 10);
        if (e1 == shard || *e1 != '/' || shard[0] == '-' || shard[0] == '+' ||
            e1[1] == '-' || e1[1] == '+' ||
            ((n = strtoul(e1 + 1, &e2, 10)), *e2 || e2 == e1 + 1) || errno ||
            n < 1 || n > 100000 || k < 1 || k > n) {
            cli_error("--shard '%s': expected K/N with 1 <= K <= N <= 100000",
                      cli_quote(shard));
            return EXIT_USAGE;
        }
        s->shard_k = (unsigned)k;
        s->shard_n = (unsigned)n;
    }
    s->jobs = sysconf(_SC_NPROCESSORS_ONLN);
    if (s->jobs < 1)
        s->jobs = 1;
    if (jobs) {
        unsigned j;
        if ((rc = parse_small(&j, "--jobs", jobs, 1, 1024)))
            return rc;
        s->jobs = j;
    }
    if (cli_get(a, "--max") &&
        (rc = cli_parse_count(&s->max, "--max", cli_get(a, "--max"))))
        return rc;
    if (cli_get(a, "--seconds") &&
        (rc = cli_parse_seconds(&s->seconds, "--seconds",
                                cli_get(a, "--seconds"))))
        return rc;
    s->rounds = 1;
    if (cli_get(a, "--escalate")) {
        if ((rc = parse_small(&s->rounds, "--escalate",
                              cli_get(a, "--escalate"), 1, SWEEP_ROUNDS_MAX)))
            return rc;
        /* Each round extends the prefixes the one before stored. */
        if (s->rounds > 1 && cli_get(a, "--no-cache")) {
            cli_error("--escalate needs the cache (each round extends the "
                      "values the previous one stored): drop --no-cache");
            return EXIT_USAGE;
        }
    }
    s->mis_heaps = CLI_MISERE_HEAPS;
    s->max_order = CLI_MISERE_MAX_ORDER;
    s->misere = cli_get(a, "--misere") != NULL;
    s->quotient = cli_get(a, "--quotient") != NULL;
    if (!s->misere && (s->quotient || cli_get(a, "--misere-max"))) {
        cli_error("%s goes with --misere",
                  s->quotient ? "--quotient" : "--misere-max");
        return EXIT_USAGE;
    }
    if (!s->quotient && cli_get(a, "--max-order")) {
        cli_error("--max-order goes with --quotient");
        return EXIT_USAGE;
    }
    if (cli_get(a, "--misere-max")) {
        unsigned v;
        if ((rc = parse_small(&v, "--misere-max", cli_get(a, "--misere-max"), 1,
                              1u << 20)))
            return rc;
        s->mis_heaps = v;
    }
    if (cli_get(a, "--max-order")) {
        unsigned v;
        if ((rc = parse_small(&v, "--max-order", cli_get(a, "--max-order"), 1,
                              1u << 16)))
            return rc;
        s->max_order = v;
    }
    if (plot && sg_plot_format_of(plot) == SG_PLOT_UNKNOWN) {
        cli_error("--plot '%s': the file name must end in .png, .svg or .pdf",
                  cli_quote(plot));
        return EXIT_USAGE;
    }
    if (plot && (rc = cli_check_folder("--plot", plot)))
        return rc;
    return EXIT_DONE;
}

/* Fork up to nw workers, each with its task and result pipes; returns
 * how many started (*rc set when one could not). */
static size_t spawn_workers(const sweep *s, const cli_args *a, slot *w,
                            size_t nw, int *rc)
{
    size_t i, k, live = 0;

    fflush(stdout);
    fflush(stderr);
    for (i = 0; i < nw; i++) {
        int tp[2], rp[2];
        if (pipe(tp) || pipe(rp)) {
            cli_error("cannot create a pipe: %s", strerror(errno));
            *rc = EXIT_RUNTIME;
            break;
        }
        w[i].pid = fork();
        if (w[i].pid < 0) {
            cli_error("cannot start a worker: %s", strerror(errno));
            close(tp[0]), close(tp[1]), close(rp[0]), close(rp[1]);
            *rc = EXIT_RUNTIME;
            break;
        }
        if (w[i].pid == 0) {
            /* The worker keeps only its own two ends. */
            for (k = 0; k < i; k++) {
                close(w[k].task);
                close(w[k].result);
            }
            close(tp[1]);
            close(rp[0]);
            worker(s, a, tp[0], rp[1]);
            _exit(0);
        }
        close(tp[0]);
        close(rp[1]);
        w[i].task = tp[1];
        w[i].result = rp[0];
        live++;
    }
    return live;
}

/* Ctrl-C or SIGTERM: every worker stores what it has and ends. */
static void stop_workers(slot *w, size_t nw)
{
    size_t i;

    for (i = 0; i < nw; i++) {
        if (w[i].pid > 0)
            kill(w[i].pid, SIGTERM);
        if (w[i].task >= 0) {
            close(w[i].task);
            w[i].task = -1;
        }
    }
}

/* A worker's pipe has ended: one that dies in the middle of a rule,
 * unasked, is a failure.  Returns the exit status. */
static int worker_ended(sweep *s, slot *w, int stopping)
{
    int rc = EXIT_DONE;

    if (w->busy && !stopping && !cli_cancel) {
        cli_error("a worker stopped while analysing %s",
                  cli_quote(s->items[w->rule].canon));
        s->items[w->rule].failed = 1;
        w->reported = 1;
        rc = EXIT_RUNTIME;
    }
    w->busy = 0;
    close(w->result);
    w->result = -1;
    if (w->task >= 0) {
        close(w->task);
        w->task = -1;
    }
    return rc;
}

/* Whether an unresolved rule stopped within a budget that the next round
 * raises: its time (--seconds), or its count when the count is what
 * grows (no --seconds).  Not a given --max under --seconds, a rule no
 * theorem proves (the default count), or memory. */
static int again(const sweep *s, const item *it)
{
    const char *why = it->budgets[it->nbudgets - 1].stopped;

    if (it->status != SG_UNRESOLVED)
        return 0;
    if (strcmp(why, "time") == 0)
        return 1;
    return strcmp(why, "max") == 0 && s->seconds <= 0;
}

/* Take one row from worker w and print it.  Returns 0 when the worker
 * ended (its pipe closed), 1 when a row came (*rc set on a failure). */
static int take_row(sweep *s, slot *w, int stopping, int *rc)
{
    wire_row row;
    item *it;
    char *json = NULL;
    int got = read_all(w->result, &row, sizeof row);

    if (got <= 0 || row.index >= s->n || row.json_len > (1u << 30)) {
        if (worker_ended(s, w, stopping))
            *rc = EXIT_RUNTIME;
        return 0;
    }
    if (row.json_len) {
        json = malloc((size_t)row.json_len);
        if (!json || read_all(w->result, json, (size_t)row.json_len) != 1) {
            cli_error("a worker's row was cut short");
            *rc = EXIT_RUNTIME;
            row.rc = EXIT_RUNTIME;
        }
    }
    it = &s->items[row.index];
    if (row.rc) {
        it->failed = 1;
        *rc = EXIT_RUNTIME;
    } else {
        if (it->nbudgets < SWEEP_ROUNDS_MAX)
            it->budgets[it->nbudgets++] = row.b;
        if (row.status != SG_UNRESOLVED)
            s->round_info[s->round].proven++;
        it->status = (sg_period_status)row.status;
        it->preperiod = row.preperiod;
        it->period = row.period;
        it->saltus = row.saltus;
        it->computed = row.computed;
        it->seconds += row.seconds; /* over every round */
        memcpy(it->source, row.source, sizeof it->source);
        it->digest = row.digest;
        it->digest_len = row.digest_len;
        it->mis = row.mis;
        it->source[sizeof it->source - 1] = '\0';
        /* A rule that a larger budget may still prove waits for the next
         * round; its row is the last round's. */
        it->again = s->round + 1 < s->rounds && again(s, it);
        free(it->json);
        it->json = NULL;
        if (!it->again) {
            it->done = 1;
            sweep_progress_clear();
            sweep_print_row(s, it, json, (size_t)row.json_len);
            fflush(stdout);
        } else {
            /* kept, should the sweep end before the next round */
            it->json = json;
            it->json_len = (size_t)row.json_len;
            json = NULL;
        }
    }
    free(json);
    w->busy = 0;
    return 1;
}

/* Wait for every worker; one killed between two rules (its row in, its
 * next task not yet read) lost nothing, but it did not end because it
 * was asked to: that is still a failure.  Returns the exit status. */
static int reap_workers(slot *w, size_t nw, int stopping)
{
    size_t i;
    int rc = EXIT_DONE;

    for (i = 0; i < nw; i++) {
        int st = 0;
        pid_t got;
        if (w[i].task >= 0)
            close(w[i].task);
        if (w[i].result >= 0)
            close(w[i].result);
        while ((got = waitpid(w[i].pid, &st, 0)) < 0 && errno == EINTR)
            ;
        if (got > 0 && !w[i].reported && !stopping && !cli_cancel &&
            WIFSIGNALED(st)) {
            cli_error("a worker stopped between rules (signal %d)",
                      WTERMSIG(st));
            rc = EXIT_RUNTIME;
        }
    }
    return rc;
}

/* Start the workers and hand out the rules; returns the exit status. */
static int run_workers(sweep *s, const cli_args *a, int *interrupted)
{
    size_t nw = (size_t)s->jobs < s->ntodo ? (size_t)s->jobs : s->ntodo;
    size_t next = 0, done = 0, live, i;
    slot *w = calloc(nw ? nw : 1, sizeof *w);
    struct pollfd *pf = calloc(nw ? nw : 1, sizeof *pf);
    int rc = EXIT_DONE, stopping = 0;

    if (!w || !pf) {
        free(w);
        free(pf);
        cli_error("out of memory");
        return EXIT_RUNTIME;
    }
    s->shares = (unsigned)nw;
    nw = live = spawn_workers(s, a, w, nw, &rc);
    /* Feed one rule to each worker; more as rows come back. */
    for (i = 0; i < nw; i++)
        feed(&w[i], &next, s, !rc);
    sweep_progress_start();
    sweep_progress(0, s->ntodo, 1);
    while (live) {
        int r;
        if (cli_cancel && !stopping) {
            stopping = 1;
            *interrupted = 1;
            stop_workers(w, nw);
        }
        for (i = 0; i < nw; i++) {
            pf[i].fd = w[i].result;
            pf[i].events = POLLIN;
            pf[i].revents = 0;
        }
        r = poll(pf, nw, 500);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            cli_error("poll: %s", strerror(errno));
            rc = EXIT_RUNTIME;
            break;
        }
        for (i = 0; i < nw; i++) {
            if (pf[i].fd < 0 || !(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            if (!take_row(s, &w[i], stopping, &rc)) {
                live--;
                continue;
            }
            done++;
            sweep_progress(done, s->ntodo, 0);
            if (w[i].task >= 0)
                feed(&w[i], &next, s, !stopping);
        }
    }
    sweep_progress_clear();
    if (!rc && !stopping && !cli_cancel && done < s->ntodo) {
        /* Every worker is gone with rules left: none could be started,
         * or all of them died. */
        cli_error("%zu rules were not analysed: the workers stopped",
                  s->ntodo - done);
        rc = EXIT_RUNTIME;
    }
    if (reap_workers(w, nw, stopping))
        rc = EXIT_RUNTIME;
    if (cli_cancel)
        *interrupted = 1;
    free(w);
    free(pf);
    return rc;
}

/* The rounds of the sweep: every rule in the first, then, with
 * --escalate R, the rules that stopped within a budget a larger one may
 * beat, each round with 10 times the budget of the one before and the
 * last with the budget given.  Every round extends the prefixes the
 * previous one stored (through the cache). */
static int run_rounds(sweep *s, const cli_args *a, int *interrupted)
{
    uint64_t div = 1;
    size_t i;
    unsigned k;
    int rc = EXIT_DONE;

    if (!(s->todo = malloc(s->n * sizeof *s->todo))) {
        cli_error("out of memory");
        return EXIT_RUNTIME;
    }
    for (k = 1; k < s->rounds; k++)
        div *= 10;
    for (k = 0; k < s->rounds && !*interrupted; k++, div /= 10) {
        int r;
        sweep_round *ri = &s->round_info[k];
        s->ntodo = 0;
        for (i = 0; i < s->n; i++)
            if (k == 0 || s->items[i].again)
                s->todo[s->ntodo++] = i;
        if (!s->ntodo)
            break;
        s->round = k;
        ri->div = div;
        ri->seconds = s->seconds > 0 ? s->seconds / (double)div : 0;
        ri->max = s->seconds > 0 ? s->max : s->max / div;
        if (s->seconds <= 0 && s->max && !ri->max)
            ri->max = 1;
        ri->rules = s->ntodo;
        /* a failed rule fails the sweep, but the other rules go on */
        r = run_workers(s, a, interrupted);
        if (!rc)
            rc = r;
    }
    /* Interrupted before their next round: the rows of their last one. */
    for (i = 0; i < s->n; i++) {
        item *it = &s->items[i];
        if (it->again && !it->done && !it->failed) {
            it->again = 0;
            it->done = 1;
            sweep_print_row(s, it, it->json, it->json_len);
        }
    }
    fflush(stdout);
    return rc;
}

static int sweep_run(const cli_command *self, cli_args *a)
{
    static const char *const families[] = {
        "subtract", "all-but", "octal", "hex", "progressions", "rules", NULL};
    const char *family = cli_pos(a, 0);
    sweep s;
    sg_store *db = NULL;
    char *path = NULL;
    double t0 = now();
    int rc, interrupted = 0, cached = 0;
    size_t k;

    (void)self;
    memset(&s, 0, sizeof s);
    if (!family) {
        cli_error("sweep: which family? subtract, all-but, octal, hex, "
                  "progressions or rules (sgexplore sweep --help)");
        return EXIT_USAGE;
    }
    for (k = 0; families[k]; k++)
        if (strcmp(family, families[k]) == 0)
            break;
    if (!families[k]) {
        cli_error("sweep: unknown family '%s' (families: subtract, all-but, "
                  "octal, hex, progressions, rules)",
                  cli_quote(family));
        return EXIT_USAGE;
    }
    if (cli_npos(a) > (strcmp(family, "rules") == 0 ? 2u : 1u)) {
        cli_error("sweep %s: unexpected argument '%s'", family,
                  cli_quote(cli_pos(a, cli_npos(a) - 1)));
        return EXIT_USAGE;
    }
    if ((rc = parse_options(&s, a)))
        goto out;
    if (strcmp(family, "rules") == 0) {
        static const char *const no[] = {"--size", "--max-element", "--digits",
                                         "--prefix", NULL};
        if ((rc = refuse(a, family, no)))
            goto out;
        if (!cli_pos(a, 1)) {
            cli_error("sweep rules needs a FILE (or - for standard input)");
            rc = EXIT_USAGE;
            goto out;
        }
        rc = load_rules(&s, a, cli_pos(a, 1));
    } else {
        rc = load_family(&s, a, family);
    }
    if (rc)
        goto out;
    /* The cache is checked (and created) once, before any worker starts,
     * so that a bad --db is one message, not one per worker. */
    if ((rc = cli_cache_open(&db, &path, a, 0)))
        goto out;
    cached = db != NULL;
    sg_store_close(db);
    free(path);
    sweep_progress_enable(isatty(STDERR_FILENO));
    sweep_print_header(&s);
    if (s.n)
        rc = run_rounds(&s, a, &interrupted);
    sweep_print_summary(&s, now() - t0, interrupted);
    if (interrupted) {
        size_t d = 0;
        for (k = 0; k < s.n; k++)
            d += s.items[k].done;
        if (cached)
            cli_error("sweep interrupted: %zu of %zu rules finished and "
                      "stored; run the same command again to continue",
                      d, s.n);
        else
            cli_error("sweep interrupted: %zu of %zu rules finished "
                      "(nothing stored: no cache)",
                      d, s.n);
        rc = EXIT_RUNTIME;
    }
    if (!interrupted && cli_get(a, "--plot")) {
        int prc = sweep_draw(&s, cli_get(a, "--plot"), family);
        if (!rc)
            rc = prc;
    }
out:
    sweep_clear(&s);
    return rc;
}
