/*
 * store_ckfile.c - a deep run's checkpoint as a file of its own, so that a
 * run longer than the life of one machine can be carried in a repository
 * (docs/DEEP.md, "Checkpoint files"; census_deep.sh -k) and resumed in
 * another cache.  The file is a short text header and the
 * cache's opaque state:
 *
 *     sgexplore deep checkpoint 1
 *     rule 0.764
 *     heaps 16777216
 *     bytes 11534393
 *     hash fnv1a64:0123456789abcdef
 *     <an empty line, then exactly `bytes` bytes of state>
 *
 * Reading checks everything it can: the hash covers the state, and the
 * state must load as a deep run of the header's rule at the header's heap
 * count (sg_deep_load checks every field), so a damaged, truncated or
 * mislabelled file is refused before anything is stored.  Held values
 * edited with the hash recomputed pass, as an edited cache does.
 */
#define _DEFAULT_SOURCE
#include "store_impl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CKFILE_MAGIC "sgexplore deep checkpoint 1"

/* The longest header line read (a rule text is far shorter). */
#define CKFILE_LINE 4096

static sg_status io_error(sg_error *err, const char *what, const char *path)
{
    return sg_error_set(err, SG_E_IO, -1, "%s '%s': %s", what, path,
                        errno ? strerror(errno) : "short write");
}

sg_status sg_store_checkpoint_export(sg_store *st, const char *rule,
                                     const char *path, uint64_t *heaps,
                                     sg_error *err)
{
    char hash[SG_FNV_TEXT], *tmp;
    void *blob = NULL;
    size_t len = 0;
    FILE *f;
    int ok;
    sg_status rc = sg_store_checkpoint_get(st, rule, heaps, &blob, &len, err);

    if (rc != SG_OK)
        return rc;
    if (!(tmp = malloc(strlen(path) + 32))) {
        free(blob);
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    }
    /* A new file renamed into place: an interrupted export leaves the old
     * file (a repository's copy) whole. */
    sprintf(tmp, "%s.tmp%ld", path, (long)getpid());
    sgi_fnv_format(hash, sgi_fnv1a(SG_FNV_OFFSET, blob, len));
    errno = 0;
    f = fopen(tmp, "wb");
    ok =
        f &&
        fprintf(f, CKFILE_MAGIC "\nrule %s\nheaps %llu\nbytes %zu\nhash %s\n\n",
                rule, (unsigned long long)*heaps, len, hash) > 0 &&
        fwrite(blob, 1, len, f) == len && fflush(f) == 0 &&
        fsync(fileno(f)) == 0;
    if (f && fclose(f) != 0)
        ok = 0;
    if (ok && rename(tmp, path) != 0)
        ok = 0;
    if (!ok) {
        rc = io_error(err, "cannot write the checkpoint file", path);
        remove(tmp);
    }
    free(tmp);
    free(blob);
    return rc;
}

/* One header line "KEY VALUE" into val (NUL-terminated, no newline). */
static int header_line(FILE *f, const char *key, char *val)
{
    size_t k = strlen(key), n;

    if (!fgets(val, CKFILE_LINE, f) || (n = strlen(val)) == 0 ||
        val[n - 1] != '\n' || strncmp(val, key, k) != 0 || val[k] != ' ')
        return -1;
    val[n - 1] = '\0';
    memmove(val, val + k + 1, n - k - 1);
    return 0;
}

/* A decimal count with nothing after it. */
static int parse_count(const char *s, uint64_t *out)
{
    char *end;

    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    *out = strtoull(s, &end, 10);
    return errno || *end ? -1 : 0;
}

/* The header and the state of a checkpoint file, checked against the
 * header's hash and length; the state's meaning is checked by the
 * caller. */
static sg_status read_file(FILE *f, const char *path, char **rule,
                           uint64_t *heaps, void **blob, size_t *len,
                           sg_error *err)
{
    char line[CKFILE_LINE], val[CKFILE_LINE];
    uint64_t want, bytes;
    int c;

    *rule = NULL;
    *blob = NULL;
    if (!fgets(line, sizeof line, f) || strcmp(line, CKFILE_MAGIC "\n") != 0)
        return sg_error_set(err, SG_E_IO, -1,
                            "'%s' is not a deep-run checkpoint file (its "
                            "first line is not '" CKFILE_MAGIC "')",
                            path);
    if (header_line(f, "rule", line) || header_line(f, "heaps", val) ||
        parse_count(val, heaps))
        return sg_error_set(err, SG_E_IO, -1,
                            "checkpoint file '%s': damaged header (rule, "
                            "heaps)",
                            path);
    if (header_line(f, "bytes", val) || parse_count(val, &bytes) ||
        bytes == 0 || bytes > (uint64_t)SIZE_MAX / 2)
        return sg_error_set(err, SG_E_IO, -1,
                            "checkpoint file '%s': damaged header (bytes)",
                            path);
    if (header_line(f, "hash", val) || !sgi_fnv_parse(&want, val) ||
        fgetc(f) != '\n')
        return sg_error_set(err, SG_E_IO, -1,
                            "checkpoint file '%s': damaged header (hash)",
                            path);
    *len = (size_t)bytes;
    if (!(*blob = malloc(*len)) || !(*rule = strdup(line))) {
        free(*blob);
        *blob = NULL;
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    }
    if (fread(*blob, 1, *len, f) != *len || (c = fgetc(f)) != EOF)
        return sg_error_set(err, SG_E_IO, -1,
                            "checkpoint file '%s': the state is not %zu "
                            "bytes long (truncated or extended)",
                            path, *len);
    if (sgi_fnv1a(SG_FNV_OFFSET, *blob, *len) != want)
        return sg_error_set(err, SG_E_IO, -1,
                            "checkpoint file '%s': the state does not match "
                            "its hash (damaged)",
                            path);
    return SG_OK;
}

/* That the state is a deep run of `rule` (canonical text) at `heaps`. */
static sg_status check_state(const char *path, const char *rule, uint64_t heaps,
                             const void *blob, size_t len, sg_error *err)
{
    sg_rule r;
    sg_deep d;
    char *canon = NULL;
    sg_status rc;

    sg_rule_init(&r);
    sg_deep_init(&d, SG_DEEP_MIN_WINDOW);
    rc = sg_rule_parse(&r, SG_SYNTAX_RULE, rule, err);
    if (rc == SG_OK &&
        (!(canon = sg_rule_canonical(&r)) || strcmp(canon, rule) != 0))
        rc = canon ? sg_error_set(err, SG_E_IO, -1,
                                  "checkpoint file '%s': rule '%s' is not "
                                  "in canonical form",
                                  path, rule)
                   : sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    if (rc == SG_OK && !sg_deep_applicable(&r))
        rc = sg_error_set(err, SG_E_IO, -1,
                          "checkpoint file '%s': '%s' has no deep runs", path,
                          rule);
    if (rc == SG_OK)
        rc = sg_deep_load(&d, &r, blob, len, err);
    if (rc == SG_OK && (uint64_t)d.seq.n != heaps)
        rc = sg_error_set(err, SG_E_IO, -1,
                          "checkpoint file '%s': the header says %llu heaps, "
                          "the state %zu",
                          path, (unsigned long long)heaps, d.seq.n);
    if (rc == SG_E_INPUT)
        rc = sg_error_set(err, SG_E_IO, -1,
                          "checkpoint file '%s': bad rule '%s'", path, rule);
    free(canon);
    sg_deep_clear(&d);
    sg_rule_clear(&r);
    return rc;
}

sg_status sg_store_checkpoint_import(sg_store *st, const char *path,
                                     char **rule, uint64_t *heaps,
                                     uint64_t *had, int *stored, sg_error *err)
{
    FILE *f;
    void *blob = NULL, *old = NULL;
    size_t len = 0, oldlen = 0;
    sg_status rc;

    *rule = NULL;
    *had = 0;
    *stored = 0;
    errno = 0;
    if (!(f = fopen(path, "rb")))
        return io_error(err, "cannot open the checkpoint file", path);
    rc = read_file(f, path, rule, heaps, &blob, &len, err);
    fclose(f);
    if (rc == SG_OK)
        rc = check_state(path, *rule, *heaps, blob, len, err);
    if (rc == SG_OK) {
        rc = sg_store_checkpoint_get(st, *rule, had, &old, &oldlen, err);
        free(old);
        if (rc == SG_E_UNKNOWN)
            rc = SG_OK, *had = 0;
        /* Never go back: a cache whose run is as far or further keeps
         * its own. */
        else if (rc == SG_OK && *had >= *heaps)
            goto out;
        if (rc == SG_OK)
            rc = sg_store_checkpoint_put(st, *rule, *heaps, blob, len, err);
        *stored = rc == SG_OK;
    }
out:
    free(blob);
    if (rc != SG_OK) {
        free(*rule);
        *rule = NULL;
    }
    return rc;
}
