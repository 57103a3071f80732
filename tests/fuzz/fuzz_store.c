/*
 * fuzz_store.c - fuzz targets of the cache reader: the input is written
 * as a cache file (the seeds are genuine caches, so the mutations are
 * damaged bytes and pages of real ones).  Target `store` reads it through
 * sg_store_open (read-only), sg_store_list and sg_store_get of every
 * listed rule; target `store_write` (fuzz_store_write.c, this file with
 * SG_FUZZ_STORE_WRITE) opens it read-write, reads it, stores one row,
 * drops one and reads it again.  Two targets, because each input costs a
 * file and SQLite connections (a few hundred inputs a second): the read
 * path gets its own executions.  A damaged file must be an error, never a
 * crash, and values handed back must be exactly the row's stored count.
 */
#include "fuzz.h"
#include "sgexplore.h"

#include <stdio.h>
#include <unistd.h>

#define MAX_RULES 8

/* The scratch directory of this process, made once. */
static char dir[4096], path[4200];

/* Remove the cache file and its WAL companions. */
static void scratch_clean(void)
{
    char p[4300];

    snprintf(p, sizeof p, "%s-wal", path);
    unlink(p);
    snprintf(p, sizeof p, "%s-shm", path);
    unlink(p);
    unlink(path);
}

static void scratch_remove(void)
{
    scratch_clean();
    rmdir(dir);
}

static int scratch_init(void)
{
    const char *base = getenv("TMPDIR");

    if (dir[0])
        return 0;
    snprintf(dir, sizeof dir, "%s/sgfuzz-store.XXXXXX",
             base && *base ? base : "/tmp");
    if (!mkdtemp(dir))
        return -1;
    snprintf(path, sizeof path, "%s/c.db", dir);
    atexit(scratch_remove);
    return 0;
}

struct names {
    char *rule[MAX_RULES];
    int n;
};

static int visit(const sg_store_entry *e, void *arg)
{
    struct names *nm = arg;

    SG_FUZZ_CHECK(e->rule != NULL);
    if (nm->n < MAX_RULES && (nm->rule[nm->n] = strdup(e->rule)))
        nm->n++;
    return 0;
}

/* Every listed rule read back with its values. */
static void read_all(sg_store *db)
{
    struct names nm;
    sg_error err;
    int i;

    nm.n = 0;
    if (sg_store_list(db, NULL, NULL, visit, &nm, &err) == SG_OK) {
        for (i = 0; i < nm.n; i++) {
            sg_store_entry e;
            sg_seq s;
            int found = 0;
            sg_store_entry_init(&e);
            sg_seq_init(&s);
            if (sg_store_get(db, nm.rule[i], &e, &s, &found, &err) == SG_OK &&
                found) {
                SG_FUZZ_CHECK(e.rule && strcmp(e.rule, nm.rule[i]) == 0);
                SG_FUZZ_CHECK(s.n == (e.res.status == SG_UNRESOLVED
                                          ? e.stored
                                          : e.res.computed));
            }
            sg_seq_clear(&s);
            sg_store_entry_clear(&e);
        }
    }
    for (i = 0; i < nm.n; i++)
        free(nm.rule[i]);
}

/* The input as the scratch cache file; non-zero when it could not be
 * written. */
static int scratch_write(const uint8_t *data, size_t size)
{
    FILE *f;

    if (scratch_init())
        return -1;
    scratch_clean();
    if (!(f = fopen(path, "wb")))
        return -1;
    if (size && fwrite(data, 1, size, f) != size) {
        fclose(f);
        return -1;
    }
    return fclose(f) != 0;
}

#ifndef SG_FUZZ_STORE_WRITE
SG_FUZZ_TARGET(store)
{
    sg_store *db;
    sg_error err;

    if (scratch_write(data, size))
        return 0;
    if (sg_store_open(&db, path, SG_STORE_READONLY, &err) == SG_OK) {
        read_all(db);
        sg_store_close(db);
    }
    return 0;
}
#else
SG_FUZZ_TARGET(store_write)
{
    sg_store *db;
    sg_error err;

    if (scratch_write(data, size))
        return 0;
    if (sg_store_open(&db, path, 0, &err) == SG_OK) {
        read_all(db);
        if (!sg_store_readonly(db, NULL)) {
            sg_seq s;
            sg_result res;
            int found, i;
            sg_seq_init(&s);
            for (i = 0; i < 50; i++)
                if (sg_seq_append(&s, (sg_value)(i % 4), NULL) != SG_OK)
                    break;
            memset(&res, 0, sizeof res);
            res.status = SG_UNRESOLVED;
            res.computed = s.n;
            res.note = "fuzz";
            (void)sg_store_put(db, "subtract{1,3,4}", "subtract", &res, &s,
                               "naive", 0.0, &err);
            (void)sg_store_drop(db, "0.07", &found, &err);
            read_all(db);
            sg_seq_clear(&s);
        }
        sg_store_close(db);
    }
    return 0;
}
#endif
