/*
 * replay.c - replays, with the normal build, every saved fuzzing input
 * through its target (part of `make check`): the seed corpora of
 * tests/fuzz/corpus/TARGET/ and the inputs that once crashed or hung a
 * target, kept in tests/fuzz/regress/TARGET/.  One TAP line per target
 * and directory; a crash fails the whole program (the log names the file
 * being replayed), a property failure aborts likewise.
 *
 * The source tree is $abs_top_srcdir (set by make check), else the first
 * argument, else ".".
 */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sg_fuzz_rule(const uint8_t *data, size_t size);
int sg_fuzz_number(const uint8_t *data, size_t size);
int sg_fuzz_positions(const uint8_t *data, size_t size);
int sg_fuzz_cert(const uint8_t *data, size_t size);
int sg_fuzz_store(const uint8_t *data, size_t size);
int sg_fuzz_setexpr(const uint8_t *data, size_t size);
int sg_fuzz_store_write(const uint8_t *data, size_t size);
int sg_fuzz_graph(const uint8_t *data, size_t size);
int sg_fuzz_rules(const uint8_t *data, size_t size);
int sg_fuzz_deep(const uint8_t *data, size_t size);

/* Each target and the folder of its inputs (store_write shares the
 * cache files of store). */
static const struct target {
    const char *name, *dir;
    int (*run)(const uint8_t *, size_t);
} targets[] = {
    {"rule", "rule", sg_fuzz_rule},
    {"number", "number", sg_fuzz_number},
    {"positions", "positions", sg_fuzz_positions},
    {"cert", "cert", sg_fuzz_cert},
    {"store", "store", sg_fuzz_store},
    {"store_write", "store", sg_fuzz_store_write},
    {"setexpr", "setexpr", sg_fuzz_setexpr},
    {"graph", "graph", sg_fuzz_graph},
    {"rules", "rules", sg_fuzz_rules},
    {"deep", "deep", sg_fuzz_deep},
};

/* The whole file, or NULL. */
static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    long len;

    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 &&
        fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)len + 1)) &&
        fread(buf, 1, (size_t)len, f) == (size_t)len) {
        *n = (size_t)len;
    } else {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    return buf;
}

/* Replay every file of dir through t; returns the number replayed, or -1
 * when a file cannot be read.  A missing directory replays nothing. */
static long replay_dir(const struct target *t, const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    long count = 0;

    if (!d)
        return 0;
    while ((e = readdir(d))) {
        char path[4400];
        uint8_t *buf;
        size_t n = 0;
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        /* Named before it runs, so that a crash's log says which. */
        printf("# %s: %s\n", t->name, path);
        fflush(stdout);
        if (!(buf = slurp(path, &n))) {
            closedir(d);
            return -1;
        }
        t->run(buf, n);
        free(buf);
        count++;
    }
    closedir(d);
    return count;
}

int main(int argc, char **argv)
{
    const char *src = getenv("abs_top_srcdir");
    static const char *const kinds[] = {"corpus", "regress"};
    size_t i, k;
    int n = 0, failed = 0;

    if (!src || !*src)
        src = argc > 1 ? argv[1] : ".";
    /* The targets' refusals are one line each on stderr: not wanted in
     * the test log. */
    if (!freopen("/dev/null", "w", stderr))
        return 99;
    printf("1..%zu\n", 2 * sizeof targets / sizeof targets[0]);
    for (i = 0; i < sizeof targets / sizeof targets[0]; i++)
        for (k = 0; k < 2; k++) {
            char dir[4096];
            long c;
            snprintf(dir, sizeof dir, "%s/tests/fuzz/%s/%s", src, kinds[k],
                     targets[i].dir);
            c = replay_dir(&targets[i], dir);
            n++;
            if (c < 0) {
                failed = 1;
                printf("not ok %d - %s %s: a file cannot be read\n", n,
                       targets[i].name, kinds[k]);
            } else {
                printf("ok %d - %s %s: %ld inputs replayed without a crash\n",
                       n, targets[i].name, kinds[k], c);
            }
        }
    return failed;
}
