/*
 * fuzz_setexpr.c - fuzz target of the set-expression parser
 * (sgi_set_parse, src/lib/rules/setexpr.c).  Besides not crashing, hanging or
 * leaking: an accepted set's canonical text parses to a set with the same
 * canonical text (the cache relies on it), membership agrees between the
 * two, and a refusal is one line with a position inside the text.
 */
#include "fuzz.h"
#include "rules/setexpr.h"

SG_FUZZ_TARGET(setexpr)
{
    sgi_set s, back;
    sg_error err;
    char *text, *canon, *canon2;
    uint64_t k, p, o, mx;

    if (!(text = sg_fuzz_text(data, size)))
        return 0;
    sgi_set_init(&s);
    sgi_set_init(&back);
    if (sgi_set_parse(&s, text, &err) == SG_OK) {
        canon = sgi_set_canonical(&s);
        SG_FUZZ_CHECK(canon != NULL);
        SG_FUZZ_CHECK(sgi_set_parse(&back, canon, &err) == SG_OK);
        canon2 = sgi_set_canonical(&back);
        SG_FUZZ_CHECK(canon2 && strcmp(canon, canon2) == 0);
        for (k = 1; k <= 64; k++)
            SG_FUZZ_CHECK(sgi_set_contains(&s, k, 100) ==
                          sgi_set_contains(&back, k, 100));
        (void)sgi_set_finite(&s, &mx);
        (void)sgi_set_cofinite(&s, &mx);
        (void)sgi_set_periodic(&s, &p, &o);
        if (!sgi_set_heap_dependent(&s)) {
            uint64_t *m = NULL;
            size_t n = 0, cap = 0, i;
            SG_FUZZ_CHECK(sgi_set_members(&m, &n, &cap, &s, 200, &err) ==
                          SG_OK);
            for (i = 0; i < n; i++)
                SG_FUZZ_CHECK(m[i] >= 1 && m[i] <= 200 &&
                              (i == 0 || m[i] > m[i - 1]) &&
                              sgi_set_contains(&s, m[i], 0));
            free(m);
        } else {
            uint64_t *m = NULL, heap;
            size_t n = 0, cap = 0, i;
            for (heap = 0; heap <= 40; heap++) {
                SG_FUZZ_CHECK(
                    sgi_set_members_at(&m, &n, &cap, &s, heap, &err) == SG_OK);
                for (i = 0; i < n; i++)
                    SG_FUZZ_CHECK(m[i] >= 1 && m[i] <= heap &&
                                  (i == 0 || m[i] > m[i - 1]) &&
                                  sgi_set_contains(&s, m[i], heap));
            }
            free(m);
        }
        free(canon2);
        free(canon);
    } else {
        SG_FUZZ_CHECK(err.code != SG_OK && err.msg[0] != '\0');
        SG_FUZZ_CHECK(strchr(err.msg, '\n') == NULL);
        SG_FUZZ_CHECK(err.pos >= -1 && err.pos <= (long)strlen(text));
    }
    sgi_set_clear(&s);
    sgi_set_clear(&back);
    free(text);
    return 0;
}
