/*
 * cmd_merge.c - `sgexplore merge OUT.db IN.db...`: combine the caches that
 * the shards of a sweep wrote (docs/SWEEPS.md).  For every rule the best
 * row wins: a proven result beats an unresolved one, a longer computed
 * prefix beats a shorter one.  Nothing from an input is trusted blindly:
 * every incoming proven row is re-checked against its certificate (the
 * values G(0..certified_to) are recomputed with sg_enumerate and
 * sg_certificate_check re-checks every hypothesis of the theorem) before
 * it is accepted, and two proven results that disagree stop the merge.
 * Everything is checked before anything is written, and the writing is
 * atomic: into an existing OUT as one transaction (sg_store_batch_begin),
 * into a new OUT as a new file in a temporary folder beside it, linked to
 * OUT's name at the end.  So a refused, failed (full disk), interrupted
 * or killed merge leaves OUT as it was: its rows unchanged, or no OUT.
 */
#define _DEFAULT_SOURCE
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const cli_opt merge_opts[] = {
    {NULL, NULL, NULL, NULL},
};

static int merge_run(const cli_command *self, cli_args *a);

const cli_command cli_cmd_merge = {
    "merge",
    "merge OUT.db IN.db...",
    "Combine the caches of a sweep's shards into one.  OUT.db is created\n"
    "when missing.  A proven result beats an unresolved one, a\n"
    "longer computed range beats a shorter one; every incoming proven\n"
    "result is re-checked against its certificate first, and two proven\n"
    "results that disagree stop the merge (OUT.db is then unchanged).",
    0,
    merge_opts,
    merge_run,
};

/* One row of one cache, as listed. */
typedef struct row {
    char *rule, *family;
    char *given; /* the row's given form (sg_store_entry.given), or NULL */
    size_t src;  /* 0: OUT as it was, k: the k-th input */
    sg_result res;
    int verified; /* an incoming proven row passed its certificate */
} row;

typedef struct rows {
    row *v;
    size_t n, cap;
    size_t src;
    int nomem;
} rows;

static int collect(const sg_store_entry *e, void *arg)
{
    rows *r = arg;
    row *x;

    if (sg_grow(&r->v, &r->cap, r->n + 1, sizeof *r->v)) {
        r->nomem = 1;
        return 1;
    }
    x = &r->v[r->n];
    memset(x, 0, sizeof *x);
    x->rule = strdup(e->rule);
    x->family = strdup(e->family ? e->family : "");
    x->given = e->given ? strdup(e->given) : NULL;
    if (!x->rule || !x->family || (e->given && !x->given)) {
        free(x->rule);
        free(x->family);
        free(x->given);
        r->nomem = 1;
        return 1;
    }
    x->src = r->src;
    x->res = e->res;
    /* The strings of e die with it; proven rows are re-read for their
     * theorem when checked. */
    x->res.theorem = x->res.theorem_id = x->res.note = NULL;
    r->n++;
    return 0;
}

static int by_rule_then_src(const void *p, const void *q)
{
    const row *a = p, *b = q;
    int c = strcmp(a->rule, b->rule);

    if (c)
        return c;
    return (a->src > b->src) - (a->src < b->src);
}

/* Open one cache read-only for the check: a file that cannot be read is
 * an I/O error (1), one that is not an sgexplore cache bad input (2). */
static int open_input(sg_store **db, const char *path)
{
    struct stat sb;
    FILE *f;
    sg_error err;

    *db = NULL;
    if (!(f = fopen(path, "rb"))) {
        cli_error("merge: cannot open '%s': %s", cli_quote(path),
                  strerror(errno));
        return EXIT_RUNTIME;
    }
    fclose(f);
    if (stat(path, &sb) == 0 && (sb.st_size == 0 || !S_ISREG(sb.st_mode))) {
        cli_error("merge: '%s' is not an sgexplore cache", cli_quote(path));
        return EXIT_USAGE;
    }
    if (sg_store_open(db, path, SG_STORE_READONLY, &err)) {
        cli_error("merge: %s", err.msg);
        *db = NULL;
        return EXIT_USAGE;
    }
    return EXIT_DONE;
}

/* Re-check an incoming proven row against its certificate, from values
 * recomputed here.  Exit status after one error line. */
static int recheck(sg_store *db, const char *path, row *x)
{
    sg_store_entry e;
    cli_rule r;
    sg_seq seq;
    sg_error err;
    sg_enum_options eo;
    uint64_t fail_n;
    int found, rc = EXIT_DONE;

    sg_store_entry_init(&e);
    sg_seq_init(&seq);
    cli_rule_init(&r);
    memset(&eo, 0, sizeof eo);
    eo.cancel = &cli_cancel;
    if (sg_store_get(db, x->rule, &e, NULL, &found, &err)) {
        rc = cli_report(cli_quote(path), NULL, &err);
        goto out;
    }
    if (!found || e.res.status == SG_UNRESOLVED) {
        cli_error("merge: '%s' changed while it was read", cli_quote(path));
        rc = EXIT_RUNTIME;
        goto out;
    }
    if ((rc = cli_rule_parse_text(&r, "cached rule", x->rule)))
        goto out;
    if (e.res.certified_to >= SIZE_MAX - 1 ||
        sg_seq_check_size((size_t)e.res.certified_to + 1, &err) ||
        sg_enumerate(&seq, &r.rule, (size_t)e.res.certified_to + 1, &eo,
                     &err)) {
        if (e.res.certified_to >= SIZE_MAX - 1)
            sg_error_set(&err, SG_E_INPUT, -1, "the bound %llu is too large",
                         (unsigned long long)e.res.certified_to);
        cli_error("merge: %s in '%s': %s", cli_quote(x->rule), cli_quote(path),
                  err.msg);
        rc = cli_status_exit(err.code);
        goto out;
    }
    if (!sg_certificate_check(&r.rule, &e.res, &seq, &fail_n, &err)) {
        cli_error("merge: the proof of %s in '%s' does not hold (%s); "
                  "nothing was merged",
                  cli_quote(x->rule), cli_quote(path), err.msg);
        rc = EXIT_RUNTIME;
        goto out;
    }
    x->verified = 1;
out:
    cli_rule_clear(&r);
    sg_seq_clear(&seq);
    sg_store_entry_clear(&e);
    return rc;
}

static int same_claim(const sg_result *a, const sg_result *b)
{
    return a->status == b->status && a->preperiod == b->preperiod &&
           a->period == b->period && a->saltus == b->saltus;
}

static const char *claim_text(const sg_result *r, char *buf, size_t n)
{
    snprintf(buf, n, "%s with pre-period %llu, period %llu, saltus %llu",
             sg_period_status_name(r->status), (unsigned long long)r->preperiod,
             (unsigned long long)r->period, (unsigned long long)r->saltus);
    return buf;
}

/* Whether row b knows more than row a. */
static int better(const row *a, const row *b)
{
    int pa = a->res.status != SG_UNRESOLVED,
        pb = b->res.status != SG_UNRESOLVED;

    if (pa != pb)
        return pb;
    return !pa && b->res.computed > a->res.computed;
}

/* What a merge found and did, for its record. */
typedef struct merge_count {
    size_t rows, added, improved, rechecked;
} merge_count;

/* Per rule: check every incoming proven row, refuse disagreements, and
 * choose the winner; win[] receives the rows to write.  Exit status. */
static int choose(rows *all, sg_store **in, const cli_args *a, size_t *win,
                  size_t *nwin, merge_count *c)
{
    size_t i, j;
    int rc;

    for (i = 0; i < all->n; i = j) {
        size_t best = i, proven = SIZE_MAX;
        for (j = i; j < all->n && strcmp(all->v[j].rule, all->v[i].rule) == 0;
             j++) {
            row *x = &all->v[j];
            if (x->res.status == SG_UNRESOLVED) {
                if (better(&all->v[best], x))
                    best = j;
                continue;
            }
            if (proven != SIZE_MAX &&
                !same_claim(&all->v[proven].res, &x->res)) {
                char b1[128], b2[128];
                cli_error("merge: two proofs of %s disagree: '%s' says %s, "
                          "'%s' says %s; nothing was merged",
                          cli_quote(x->rule),
                          cli_quote(cli_pos(a, all->v[proven].src)),
                          claim_text(&all->v[proven].res, b1, sizeof b1),
                          cli_quote(cli_pos(a, x->src)),
                          claim_text(&x->res, b2, sizeof b2));
                return EXIT_RUNTIME;
            }
            if (x->src != 0) {
                if ((rc = recheck(in[x->src], cli_pos(a, x->src), x)))
                    return rc;
                c->rechecked++;
            }
            if (proven == SIZE_MAX)
                proven = j;
        }
        /* The first proven row (OUT's own when it has one: rows are in
         * source order) beats every unresolved one. */
        if (proven != SIZE_MAX)
            best = proven;
        if (all->v[best].src != 0) {
            win[(*nwin)++] = best;
            if (all->v[i].src == 0)
                c->improved++;
            else
                c->added++;
        }
    }
    return EXIT_DONE;
}

/* Whether `given`, a form read from a cache that may have travelled, is
 * a form of `rule`: it parses, and to that canonical text. */
static int given_names(const char *given, const char *rule)
{
    sg_rule r;
    char *canon = NULL;
    int same;

    sg_rule_init(&r);
    if (sg_rule_parse(&r, SG_SYNTAX_RULE, given, NULL) == SG_OK)
        canon = sg_rule_canonical(&r);
    same = canon && strcmp(canon, rule) == 0;
    free(canon);
    sg_rule_clear(&r);
    return same;
}

/* The given forms of the inputs' rows (winners or not), into the
 * batch: OUT keeps its own, else the first input's in order
 * (sg_store_given keeps the first).  A form that is not one of its rule
 * is left out with a warning. */
static int write_given(sg_store *out, const rows *all, const cli_args *a)
{
    sg_error err;
    size_t i;

    for (i = 0; i < all->n; i++) {
        const row *x = &all->v[i];
        if (x->src == 0 || !x->given)
            continue;
        if (!given_names(x->given, x->rule)) {
            cli_error("warning: merge: the given form %s of %s in '%s' is "
                      "not a form of that rule; left out",
                      cli_quote(x->given), cli_quote(x->rule),
                      cli_quote(cli_pos(a, x->src)));
            continue;
        }
        if (sg_store_given(out, x->rule, x->given, &err))
            return cli_report(NULL, NULL, &err);
    }
    return EXIT_DONE;
}

/* Write the winning rows into OUT as one batch: all of them or none. */
static int write_rows(sg_store *out, sg_store **in, const rows *all,
                      const size_t *win, size_t nwin, const cli_args *a,
                      const char *what)
{
    sg_error err;
    size_t k;
    int rc = EXIT_DONE;

    if (sg_store_batch_begin(out, &err))
        return cli_report(what, NULL, &err);
    for (k = 0; k < nwin && rc == EXIT_DONE; k++) {
        const row *x = &all->v[win[k]];
        sg_store_entry e;
        sg_seq seq;
        int found = 0;
        sg_store_entry_init(&e);
        sg_seq_init(&seq);
        if (cli_cancel) {
            cli_error("merge: interrupted; nothing was merged");
            rc = EXIT_RUNTIME;
        } else if (sg_store_get(in[x->src], x->rule, &e, &seq, &found, &err) ||
                   !found ||
                   sg_store_put(out, x->rule, e.family, &e.res, &seq,
                                e.algorithm, e.elapsed, &err)) {
            if (!found)
                sg_error_set(&err, SG_E_IO, -1,
                             "merge: '%s' changed while it was read; "
                             "nothing was merged",
                             cli_pos(a, x->src));
            rc = cli_report(found ? what : NULL, NULL, &err);
        }
        sg_store_entry_clear(&e);
        sg_seq_clear(&seq);
    }
    if (rc == EXIT_DONE)
        rc = write_given(out, all, a);
    if (rc == EXIT_DONE && cli_cancel) {
        cli_error("merge: interrupted; nothing was merged");
        rc = EXIT_RUNTIME;
    }
    if (sg_store_batch_end(out, rc == EXIT_DONE, &err) && rc == EXIT_DONE)
        rc = cli_report(what, NULL, &err);
    return rc;
}

/* Remove the temporary folder of a new OUT and what SQLite left in it. */
static void remove_tmp(const char *dir, char *file, size_t n)
{
    static const char *const tails[] = {"", "-wal", "-shm", "-journal"};
    size_t i;

    for (i = 0; i < sizeof tails / sizeof *tails; i++) {
        snprintf(file, n, "%s/cache.db%s", dir, tails[i]);
        unlink(file);
    }
    rmdir(dir);
}

/* Make the finished cache `file` (closed, its WAL folded in) OUT: flushed
 * to the disk, then linked to OUT's name, which fails rather than replace
 * a file that appeared meanwhile.  Exit status after one error line. */
static int publish(const char *file, const char *out_path)
{
    char wal[4200];
    struct stat sb;
    int fd, ok;

    snprintf(wal, sizeof wal, "%s-wal", file);
    if (lstat(wal, &sb) == 0) {
        cli_error("merge: could not finish writing '%s' (its write-ahead log "
                  "remains); nothing was merged",
                  cli_quote(out_path));
        return EXIT_RUNTIME;
    }
    fd = open(file, O_RDONLY);
    ok = fd >= 0 && fsync(fd) == 0;
    if (fd >= 0)
        close(fd);
    if (!ok) {
        cli_error("merge: cannot write '%s': %s; nothing was merged",
                  cli_quote(out_path), strerror(errno));
        return EXIT_RUNTIME;
    }
    if (link(file, out_path) != 0) {
        if (errno == EEXIST)
            cli_error("merge: '%s' was created by another program during "
                      "the merge; nothing was merged (merge again)",
                      cli_quote(out_path));
        else
            cli_error("merge: cannot create '%s': %s; nothing was merged",
                      cli_quote(out_path), strerror(errno));
        return EXIT_RUNTIME;
    }
    return EXIT_DONE;
}

/* Open OUT for writing (its read-only connection in[0] closed first) or,
 * when OUT does not exist, a new cache in the temporary folder tmp (its
 * path in file); write the rows; publish a new OUT.  Exit status. */
static int write_out(sg_store **in, const rows *all, const size_t *win,
                     size_t nwin, const cli_args *a, int out_exists)
{
    const char *out_path = cli_pos(a, 0);
    sg_store *out = NULL;
    sg_error err;
    char *tmp = NULL, *file = NULL, *what = NULL;
    size_t n = strlen(out_path) + 32;
    int rc;

    if (in[0]) {
        sg_store_close(in[0]);
        in[0] = NULL;
    }
    if (!out_exists) {
        if (!(tmp = malloc(n)) || !(file = malloc(n + 16))) {
            free(tmp);
            cli_error("out of memory");
            return EXIT_RUNTIME;
        }
        snprintf(tmp, n, "%s.merge-XXXXXX", out_path);
        if (!mkdtemp(tmp)) {
            cli_error("merge: cannot create a temporary folder beside '%s': "
                      "%s; nothing was merged",
                      cli_quote(out_path), strerror(errno));
            free(tmp);
            free(file);
            return EXIT_RUNTIME;
        }
        snprintf(file, n + 16, "%s/cache.db", tmp);
        /* Errors about the temporary file name OUT first. */
        if ((what = malloc(n + 40)))
            snprintf(what, n + 40, "merge: '%s' not created",
                     cli_quote(out_path));
    }
    if (sg_store_open(&out, file ? file : out_path, 0, &err)) {
        rc = cli_report(what, NULL, &err);
        goto done;
    }
    {
        const char *why;
        if (sg_store_readonly(out, &why)) {
            cli_error("merge: %s", why);
            rc = EXIT_RUNTIME;
            goto done;
        }
    }
    rc = write_rows(out, in, all, win, nwin, a, what);
    sg_store_close(out);
    out = NULL;
    if (rc == EXIT_DONE && file)
        rc = publish(file, out_path);
done:
    sg_store_close(out);
    if (tmp)
        remove_tmp(tmp, file, n + 16);
    free(tmp);
    free(file);
    free(what);
    return rc;
}

/* The merge's record: a line of text or one JSON object. */
static void merge_write(const cli_args *a, size_t nin, const merge_count *c)
{
    cli_rec rec;
    const char *out_path = cli_pos(a, 0);

    cli_rec_begin(&rec, stdout, cli_json(a));
    cli_rec_str(&rec, "output", out_path);
    cli_rec_uint(&rec, "inputs", nin - 1);
    cli_rec_uint(&rec, "rows", c->rows);
    cli_rec_uint(&rec, "added", c->added);
    cli_rec_uint(&rec, "improved", c->improved);
    cli_rec_uint(&rec, "rechecked", c->rechecked);
    cli_rec_textf(&rec,
                  "merged %zu cache%s into %s: %zu rows read, %zu "
                  "rules added, %zu improved, %zu proofs re-checked\n",
                  nin - 1, nin - 1 == 1 ? "" : "s", out_path, c->rows, c->added,
                  c->improved, c->rechecked);
    cli_rec_end(&rec);
}

static int merge_run(const cli_command *self, cli_args *a)
{
    size_t nin = cli_npos(a), k, i, nwin = 0;
    const char *out_path = cli_pos(a, 0);
    sg_store **in = NULL;
    rows all;
    size_t *win = NULL;
    struct stat sb;
    sg_error err;
    merge_count count;
    int rc = EXIT_DONE, out_exists;

    (void)self;
    memset(&all, 0, sizeof all);
    memset(&count, 0, sizeof count);
    if (nin < 2) {
        cli_error("merge: expected OUT.db and at least one IN.db "
                  "(sgexplore merge --help)");
        return EXIT_USAGE;
    }
    if ((rc = cli_check_folder("merge: OUT", out_path)))
        return rc;
    if (!(in = calloc(nin, sizeof *in))) {
        cli_error("out of memory");
        return EXIT_RUNTIME;
    }
    for (k = 1; k < nin; k++) {
        struct stat so;
        if (stat(out_path, &so) == 0 && stat(cli_pos(a, k), &sb) == 0 &&
            so.st_dev == sb.st_dev && so.st_ino == sb.st_ino) {
            cli_error("merge: '%s' is both the output and an input",
                      cli_quote(cli_pos(a, k)));
            rc = EXIT_USAGE;
            goto out;
        }
    }
    /* Open everything read-only: OUT (when it exists) as source 0. */
    out_exists = stat(out_path, &sb) == 0;
    if (out_exists && (rc = open_input(&in[0], out_path)))
        goto out;
    for (k = 1; k < nin; k++)
        if ((rc = open_input(&in[k], cli_pos(a, k))))
            goto out;
    for (k = 0; k < nin; k++) {
        if (!in[k])
            continue;
        all.src = k;
        if (sg_store_list(in[k], NULL, NULL, collect, &all, &err)) {
            rc =
                cli_report(cli_quote(k ? cli_pos(a, k) : out_path), NULL, &err);
            goto out;
        }
        if (all.nomem) {
            cli_error("out of memory");
            rc = EXIT_RUNTIME;
            goto out;
        }
    }
    if (all.n)
        qsort(all.v, all.n, sizeof *all.v, by_rule_then_src);
    if (!(win = malloc((all.n ? all.n : 1) * sizeof *win))) {
        cli_error("out of memory");
        rc = EXIT_RUNTIME;
        goto out;
    }
    count.rows = all.n;
    if ((rc = choose(&all, in, a, win, &nwin, &count)))
        goto out;
    if (cli_cancel) {
        cli_error("merge: interrupted; nothing was merged");
        rc = EXIT_RUNTIME;
        goto out;
    }
    /* Everything checked: now write, all rows or none. */
    if ((rc = write_out(in, &all, win, nwin, a, out_exists)))
        goto out;
    merge_write(a, nin, &count);
out:
    for (k = 0; k < nin; k++)
        sg_store_close(in[k]);
    free(in);
    for (i = 0; i < all.n; i++) {
        free(all.v[i].rule);
        free(all.v[i].family);
        free(all.v[i].given);
    }
    free(all.v);
    free(win);
    return rc;
}
