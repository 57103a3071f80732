/*
 * deep_file.c - `sgexplore cache export-checkpoint RULE FILE` and
 * `cache import-checkpoint FILE`: a deep run's checkpoint taken out of
 * one cache and put into another, so that a run longer than a machine
 * lives (0.764 to 2^28 in the census) goes on elsewhere from where it
 * stopped.  The file's format and its checks are the library's
 * (store_ckfile.c); compressing it is left to xz.
 */
#define _DEFAULT_SOURCE
#include "cli.h"

#include <stdlib.h>
#include <string.h>

int cli_deep_export(const cli_args *a, int json)
{
    const char *text = cli_pos(a, 1), *file = cli_pos(a, 2);
    sg_store *db = NULL;
    sg_error err;
    cli_rule r;
    char *path = NULL;
    uint64_t heaps = 0;
    int rc;

    if (!text || !file || cli_npos(a) > 3) {
        cli_error("cache export-checkpoint: expected RULE FILE");
        return EXIT_USAGE;
    }
    cli_rule_init(&r);
    if ((rc = cli_rule_parse_text(&r, "cache export-checkpoint", text)))
        return rc;
    if ((rc = cli_cache_open(&db, &path, a, 1)) == EXIT_DONE && !db) {
        cli_error("cache export-checkpoint: no cache file %s",
                  path ? cli_quote(path) : "(no cache location)");
        rc = EXIT_RUNTIME;
    }
    if (!rc && sg_store_checkpoint_export(db, r.canon, file, &heaps, &err)) {
        rc = err.code == SG_E_UNKNOWN ? EXIT_UNKNOWN : EXIT_RUNTIME;
        if (err.code == SG_E_UNKNOWN)
            cli_error("cache export-checkpoint: '%s' has no deep-run "
                      "checkpoint in %s",
                      cli_quote(r.canon), cli_quote(path));
        else
            cli_report(NULL, NULL, &err);
    } else if (!rc) {
        cli_rec rec;
        cli_rec_begin(&rec, stdout, json);
        cli_rec_str(&rec, "rule", r.canon);
        cli_rec_uint(&rec, "heaps", heaps);
        cli_rec_str(&rec, "file", file);
        cli_rec_textf(&rec,
                      "wrote the deep-run checkpoint of %s (heap %llu) "
                      "to %s\n",
                      cli_quote(r.canon), (unsigned long long)heaps,
                      cli_quote(file));
        cli_rec_end(&rec);
    }
    sg_store_close(db);
    free(path);
    cli_rule_clear(&r);
    return rc;
}

int cli_deep_import(const cli_args *a, int json)
{
    const char *file = cli_pos(a, 1);
    sg_store *db = NULL;
    sg_error err;
    char *path = NULL, *rule = NULL;
    uint64_t heaps = 0, had = 0;
    int rc, stored = 0;

    if (!file || cli_npos(a) > 2) {
        cli_error("cache import-checkpoint: expected FILE");
        return EXIT_USAGE;
    }
    if ((rc = cli_cache_open(&db, &path, a, 0)) == EXIT_DONE && !db) {
        cli_error("cache import-checkpoint: no cache to import into");
        rc = EXIT_RUNTIME;
    }
    if (!rc && sg_store_checkpoint_import(db, file, &rule, &heaps, &had,
                                          &stored, &err)) {
        rc = cli_report(NULL, NULL, &err);
    } else if (!rc) {
        cli_rec rec;
        cli_rec_begin(&rec, stdout, json);
        cli_rec_str(&rec, "rule", rule);
        cli_rec_uint(&rec, "heaps", heaps);
        cli_rec_bool(&rec, "stored", stored);
        cli_rec_uint(&rec, "cache_heaps", had);
        cli_rec_str(&rec, "path", path);
        if (stored)
            cli_rec_textf(&rec,
                          "stored the deep-run checkpoint of %s (heap "
                          "%llu) in %s\n",
                          cli_quote(rule), (unsigned long long)heaps,
                          cli_quote(path));
        else
            cli_rec_textf(&rec,
                          "kept the checkpoint of %s in %s: it is at "
                          "heap %llu, the file's at %llu\n",
                          cli_quote(rule), cli_quote(path),
                          (unsigned long long)had, (unsigned long long)heaps);
        cli_rec_end(&rec);
    }
    sg_store_close(db);
    free(rule);
    free(path);
    return rc;
}
