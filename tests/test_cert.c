/*
 * test_cert.c - unit tests of the certificate text (src/lib/prove/cert.c), which
 * reads untrusted files, and of sg_certificate_check on hostile field
 * values: the text written for published results matches the format of
 * docs/CERTIFICATES.md built here independently (checksum from reference
 * values), round trips, every malformed field, numbers at and beyond
 * 2^63-1, lines of any length, missing and duplicate keys; and claims with
 * huge numbers in every field refuted without overflow.
 */
#include "testutil.h"

#include <inttypes.h>
#include <string.h>

#include "sgexplore.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                              */
/* ------------------------------------------------------------------ */

/* Reference values G(0..n-1) of a code, as a sequence. */
static uint32_t *ref_seq(sg_seq *s, const char *code, size_t n)
{
    static ref_rule ref;
    uint32_t *g = malloc(n * sizeof *g);
    sg_error err;

    assert_non_null(g);
    assert_int_equal(ref_rule_from_code(&ref, code), 0);
    ref_values(g, n, &ref);
    sg_seq_init(s);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(sg_seq_append(s, g[i], &err), SG_OK);
    }
    return g;
}

/* The text of a certificate, field by field as docs/CERTIFICATES.md
 * lists them. */
static char *cert_text(const char *rule, const char *status, uint64_t pre,
                       uint64_t per, uint64_t sal, const char *thm, uint64_t a,
                       uint64_t p, uint64_t s, uint64_t bound, uint64_t sum)
{
    size_t cap = strlen(rule) + 512;
    char *t = malloc(cap);

    assert_non_null(t);
    snprintf(t, cap,
             "format: sgexplore-certificate 1\nrule: %s\nstatus: %s\n"
             "preperiod: %" PRIu64 "\nperiod: %" PRIu64 "\nsaltus: %" PRIu64
             "\ntheorem: %s\nproof_start: %" PRIu64 "\nproof_period: %" PRIu64
             "\nproof_saltus: %" PRIu64 "\nbound: %" PRIu64
             "\nchecksum: fnv1a64:%016" PRIx64 "\n",
             rule, status, pre, per, sal, thm, a, p, s, bound, sum);
    return t;
}

/* Kayles' certificate (p 12, n0 71, Guy-Smith from 71, bound
 * 2*71 + 2*12 + 2 - 1 = 167; THEORY.md section 10), checksum from the
 * reference values. */
static char *kayles_text(void)
{
    static ref_rule ref;
    uint32_t g[168];

    assert_int_equal(ref_rule_from_code(&ref, "0.77"), 0);
    ref_values(g, 168, &ref);
    return cert_text("0.77", "periodic", 71, 12, 0, "guy-smith", 71, 12, 0, 167,
                     tu_fnv_text(g, 168));
}

/* Text with the line starting "key: " replaced by `line` (NULL: removed). */
static char *replace_line(const char *text, const char *key, const char *line)
{
    size_t cap = strlen(text) + (line ? strlen(line) : 0) + 2,
           klen = strlen(key);
    char *out = malloc(cap), *o = out;
    const char *p = text;

    assert_non_null(out);
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p + 1) : strlen(p);
        if (strncmp(p, key, klen) == 0 && p[klen] == ':') {
            if (line) {
                o += sprintf(o, "%s\n", line);
            }
        } else {
            memcpy(o, p, n);
            o += n;
        }
        p += n;
    }
    *o = '\0';
    return out;
}

/* Parse text that must be refused: SG_E_INPUT, a message containing
 * `want`, and no rule left behind. */
static void expect_bad(const char *text, const char *want, const char *what)
{
    char *rule = (char *)"unset";
    sg_result res;
    sg_error err;
    sg_status st;

    err.msg[0] = '\0';
    st = sg_certificate_parse(&rule, &res, text, &err);
    if (st != SG_E_INPUT) {
        fail_msg("%s: status %d, want SG_E_INPUT", what, (int)st);
    }
    if (strstr(err.msg, want) == NULL) {
        fail_msg("%s: message '%s' lacks '%s'", what, err.msg, want);
    }
    assert_null(rule);
}

/* ------------------------------------------------------------------ */
/* Writing and reading                                                  */
/* ------------------------------------------------------------------ */

/* What sg_certificate_format writes for proven results is exactly the
 * documented text, and reads back to the same fields. */
static void test_round_trip(void **state)
{
    static const char *const rules[] = {"0.77",     "0.07", "0.[3]",
                                        "0.303[3]", "0.F",  "0.0303"};
    char *want = kayles_text();
    (void)state;

    for (size_t i = 0; i < sizeof rules / sizeof *rules; i++) {
        sg_rule r;
        sg_seq s;
        sg_result res, back;
        sg_error err;
        char *text, *canon, *rule = NULL;

        parse_or_fail(&r, SG_SYNTAX_RULE, rules[i]);
        sg_seq_init(&s);
        assert_int_equal(sg_analyse(&res, &s, &r, 5000, NULL, &err), SG_OK);
        assert_int_not_equal(res.status, SG_UNRESOLVED);
        canon = sg_rule_canonical(&r);
        assert_non_null(canon);
        text = sg_certificate_format(canon, &res);
        assert_non_null(text);
        if (i == 0) {
            assert_string_equal(text, want);
        }
        assert_int_equal(sg_certificate_parse(&rule, &back, text, &err), SG_OK);
        assert_string_equal(rule, canon);
        assert_int_equal(back.status, res.status);
        assert_true(back.preperiod == res.preperiod);
        assert_true(back.period == res.period);
        assert_true(back.saltus == res.saltus);
        assert_string_equal(back.theorem_id, res.theorem_id);
        assert_string_equal(back.theorem, res.theorem);
        assert_true(back.proof_start == res.proof_start);
        assert_true(back.proof_period == res.proof_period);
        assert_true(back.proof_saltus == res.proof_saltus);
        assert_true(back.certified_to == res.certified_to);
        assert_true(back.checksum == res.checksum);
        assert_true(back.computed == res.certified_to + 1);
        free(rule);
        free(text);
        free(canon);
        sg_seq_clear(&s);

        /* Nothing to certify for an unresolved result. */
        memset(&res, 0, sizeof res);
        assert_null(sg_certificate_format(rules[i], &res));
        sg_rule_clear(&r);
    }
    free(want);
}

/* Comments, blank lines, unknown keys, CRLF, any order, no final newline:
 * all read as the same certificate. */
static void test_layout(void **state)
{
    char *base = kayles_text(), *text, *rule = NULL, *lines[16], *save;
    size_t cap = 2 * strlen(base) + 200, n = 0;
    sg_result res;
    sg_error err;
    char *o, *copy = strdup(base);

    (void)state;
    assert_non_null(copy);
    text = malloc(cap);
    assert_non_null(text);
    for (char *l = strtok_r(copy, "\n", &save); l && n < 16;
         l = strtok_r(NULL, "\n", &save)) {
        lines[n++] = l;
    }
    assert_int_equal(n, 12);
    o = text;
    o += sprintf(o, "# a comment\r\n\r\nnote: a key from a later version\r\n");
    /* Lines in reverse order, CRLF, the last one without a newline. */
    while (n-- > 0) {
        o += sprintf(o, "%s%s", lines[n], n ? "\r\n" : "");
    }
    free(copy);
    assert_int_equal(sg_certificate_parse(&rule, &res, text, &err), SG_OK);
    assert_string_equal(rule, "0.77");
    assert_true(res.preperiod == 71 && res.period == 12 &&
                res.certified_to == 167 && res.status == SG_PERIODIC);
    free(rule);
    free(text);
    free(base);
}

/* Every field with every kind of bad value. */
static void test_malformed_fields(void **state)
{
    static const char *const numbers[] = {
        "preperiod",    "period",       "saltus", "proof_start",
        "proof_period", "proof_saltus", "bound"};
    static const char *const bad_numbers[] = {
        "",
        "-1",
        "+1",
        " 1",
        "1 ",
        "0x10",
        "1e3",
        "12a",
        "1.0",
        "9223372036854775808",
        "18446744073709551616",
        "99999999999999999999999999999999"};
    static const struct {
        const char *key, *value;
    } bad[] = {
        {"format", "sgexplore-certificate 2"},
        {"format", "sgexplore-certificate 1 "},
        {"format", ""},
        {"rule", ""},
        {"status", "Periodic"},
        {"status", "unresolved"},
        {"status", "periodic "},
        {"status", ""},
        {"theorem", "guy_smith"},
        {"theorem", "guy-smith "},
        {"theorem", "a-theorem-name-much-longer-than-any-real-one"},
        {"theorem", ""},
        {"checksum", "fnv1a64:7E2B52195B60B29D"},
        {"checksum", "fnv1a64:7e2b52195b60b29"},
        {"checksum", "fnv1a64:7e2b52195b60b29d0"},
        {"checksum", "fnv1a32:7e2b52195b60b29d"},
        {"checksum", "fnv1a64:-e2b52195b60b29d"},
        {"checksum", "fnv1a64: 7e2b52195b60b29"},
        {"checksum", "7e2b52195b60b29d"},
    };
    char *base = kayles_text(), line[256], what[320], want[64];

    (void)state;
    for (size_t i = 0; i < sizeof numbers / sizeof *numbers; i++) {
        for (size_t j = 0; j < sizeof bad_numbers / sizeof *bad_numbers; j++) {
            char *t;
            snprintf(line, sizeof line, "%s: %s", numbers[i], bad_numbers[j]);
            snprintf(want, sizeof want, "bad value for '%s'", numbers[i]);
            snprintf(what, sizeof what, "'%s'", line);
            t = replace_line(base, numbers[i], line);
            expect_bad(t, want, what);
            free(t);
        }
    }
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char *t;
        snprintf(line, sizeof line, "%s: %s", bad[i].key, bad[i].value);
        snprintf(want, sizeof want, "bad value for '%s'", bad[i].key);
        snprintf(what, sizeof what, "'%s'", line);
        t = replace_line(base, bad[i].key, line);
        expect_bad(t, want, what);
        free(t);
    }
    /* Lines that are not "key: value". */
    {
        char *t = replace_line(base, "period", "period:12");
        expect_bad(t, "line 5: expected 'key: value'", "no space");
        free(t);
        t = replace_line(base, "period", "period 12");
        expect_bad(t, "line 5: expected 'key: value'", "no colon");
        free(t);
        t = replace_line(base, "period", "period:");
        expect_bad(t, "line 5: expected 'key: value'", "colon at the end");
        free(t);
    }
    expect_bad("", "lacks the 'format' line", "empty text");
    free(base);
}

/* Numbers up to 2^63-1 are read exactly in every numeric field. */
static void test_huge_numbers(void **state)
{
    static const char *const keys[] = {
        "preperiod",    "period",       "saltus", "proof_start",
        "proof_period", "proof_saltus", "bound"};
    char *base = kayles_text();

    (void)state;
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        char line[64], *t, *rule = NULL;
        sg_result res;
        sg_error err;
        uint64_t got;

        snprintf(line, sizeof line, "%s: 0009223372036854775807", keys[i]);
        t = replace_line(base, keys[i], line);
        assert_int_equal(sg_certificate_parse(&rule, &res, t, &err), SG_OK);
        got = i == 0   ? res.preperiod
              : i == 1 ? res.period
              : i == 2 ? res.saltus
              : i == 3 ? res.proof_start
              : i == 4 ? res.proof_period
              : i == 5 ? res.proof_saltus
                       : res.certified_to;
        assert_true(got == (uint64_t)INT64_MAX);
        free(rule);
        free(t);
    }
    free(base);
}

/* Lines of any length: a rule line of 200000 characters and a comment of
 * a megabyte. */
static void test_long_lines(void **state)
{
    size_t n = 200000;
    char *rule_line = malloc(n + 16), *base = kayles_text(), *t, *rule = NULL;
    char *comment = malloc((1u << 20) + 4);
    sg_result res;
    sg_error err;

    (void)state;
    assert_non_null(rule_line);
    assert_non_null(comment);
    strcpy(rule_line, "rule: 0.");
    memset(rule_line + 8, '7', n - 8);
    rule_line[n] = '\0';
    t = replace_line(base, "rule", rule_line);
    assert_int_equal(sg_certificate_parse(&rule, &res, t, &err), SG_OK);
    assert_int_equal(strlen(rule), n - 6);
    assert_memory_equal(rule, rule_line + 6, n - 6);
    free(rule);
    free(t);

    comment[0] = '#';
    memset(comment + 1, 'x', 1u << 20);
    comment[(1u << 20) + 1] = '\0';
    t = replace_line(base, "saltus", comment);
    /* The saltus line is gone, so the comment was skipped as a whole. */
    expect_bad(t, "lacks the 'saltus' line", "a megabyte comment");
    free(t);
    free(comment);
    free(rule_line);
    free(base);
}

/* Each key missing, and each key twice. */
static void test_missing_and_duplicate(void **state)
{
    static const char *const keys[] = {
        "format",       "rule",         "status",  "preperiod",
        "period",       "saltus",       "theorem", "proof_start",
        "proof_period", "proof_saltus", "bound",   "checksum"};
    char *base = kayles_text();

    (void)state;
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        char want[64], *t;
        size_t len = strlen(base);

        snprintf(want, sizeof want, "lacks the '%s' line", keys[i]);
        t = replace_line(base, keys[i], NULL);
        expect_bad(t, want, want);
        free(t);

        /* The same line again at the end: line 13. */
        t = malloc(2 * len + 1);
        assert_non_null(t);
        strcpy(t, base);
        {
            const char *p = base;
            while (strncmp(p, keys[i], strlen(keys[i])) != 0 ||
                   p[strlen(keys[i])] != ':') {
                p = strchr(p, '\n') + 1;
            }
            strncat(t, p, (size_t)(strchr(p, '\n') - p + 1));
        }
        snprintf(want, sizeof want, "line 13: a second '%s' line", keys[i]);
        expect_bad(t, want, want);
        free(t);
    }
    free(base);
}

/* ------------------------------------------------------------------ */
/* Checking hostile claims                                              */
/* ------------------------------------------------------------------ */

/* Kayles' claim with one field replaced by each of the largest numbers a
 * certificate can hold (and a few that make the theorem's bound wrap
 * around in 64 bits): always refuted, with a reason, never read out of
 * range (the sanitizer and valgrind builds check that). */
static void test_check_huge(void **state)
{
    static const uint64_t huge[] = {
        (uint64_t)INT64_MAX,         (uint64_t)INT64_MAX - 1,
        UINT64_C(1) << 62,           (UINT64_C(1) << 62) + 1,
        UINT64_C(1) << 32,           (uint64_t)INT64_MAX / 2,
        (uint64_t)INT64_MAX / 3 + 1, UINT32_MAX};
    char *text = kayles_text(), *rule = NULL;
    sg_result good, c;
    sg_rule r;
    sg_seq s;
    sg_error err;
    uint64_t fail_n;
    uint32_t *g;

    (void)state;
    assert_int_equal(sg_certificate_parse(&rule, &good, text, &err), SG_OK);
    parse_or_fail(&r, SG_SYNTAX_RULE, rule);
    g = ref_seq(&s, "0.77", 168);
    assert_int_equal(sg_certificate_check(&r, &good, &s, &fail_n, &err), 1);
    for (size_t i = 0; i < sizeof huge / sizeof *huge; i++) {
        for (int field = 0; field < 7; field++) {
            uint64_t *f[] = {&c.preperiod,   &c.period,       &c.saltus,
                             &c.proof_start, &c.proof_period, &c.proof_saltus,
                             &c.certified_to};
            c = good;
            *f[field] = huge[i];
            err.msg[0] = '\0';
            if (sg_certificate_check(&r, &c, &s, &fail_n, &err)) {
                fail_msg("field %d = %llu accepted", field,
                         (unsigned long long)huge[i]);
            }
            assert_true(err.msg[0] != '\0');
            /* Both proof fields huge at once. */
            c.proof_period = huge[i];
            c.proof_start = huge[(i + 1) % 8];
            assert_int_equal(sg_certificate_check(&r, &c, &s, &fail_n, &err),
                             0);
        }
    }
    /* The crafted certificate of issue 12: start 2^63-1 used to wrap
     * 2a + p + t to 12 and pass the bound check. */
    c = good;
    c.proof_start = (uint64_t)INT64_MAX;
    assert_int_equal(sg_certificate_check(&r, &c, &s, &fail_n, &err), 0);
    assert_non_null(strstr(err.msg, "bound"));
    free(g);
    free(rule);
    free(text);
    sg_seq_clear(&s);
    sg_rule_clear(&r);
}

/* The reasons name the numbers: a multiple of the least period is a
 * period, but not the least; the status must match the saltus. */
static void test_check_reasons(void **state)
{
    char *text = kayles_text(), *rule = NULL;
    sg_result good, c;
    sg_rule r, nim;
    sg_seq s, ns;
    sg_error err;
    uint64_t fail_n;
    uint32_t *g, *ng;

    (void)state;
    assert_int_equal(sg_certificate_parse(&rule, &good, text, &err), SG_OK);
    parse_or_fail(&r, SG_SYNTAX_RULE, rule);
    g = ref_seq(&s, "0.77", 168);
    c = good;
    c.period = 24;
    assert_int_equal(sg_certificate_check(&r, &c, &s, &fail_n, &err), 0);
    assert_string_equal(err.msg, "the claimed period 24 is a period, but not "
                                 "the least one (the least is 12)");
    assert_true(fail_n == UINT64_MAX);
    c.period = 36;
    c.proof_period = 12;
    assert_int_equal(sg_certificate_check(&r, &c, &s, &fail_n, &err), 0);
    assert_non_null(strstr(err.msg, "period 36 is a period, but not the "
                                    "least one (the least is 12)"));
    c.period = 8;
    assert_int_equal(sg_certificate_check(&r, &c, &s, &fail_n, &err), 0);
    assert_non_null(strstr(err.msg, "period 8 with saltus 0 is not a period"));
    c = good;
    c.status = SG_ARITH_PERIODIC;
    assert_int_equal(sg_certificate_check(&r, &c, &s, &fail_n, &err), 0);
    assert_non_null(strstr(err.msg, "contradicts the saltus 0"));
    c = good;
    c.theorem_id = SG_THM_TAIL_ARITH;
    assert_int_equal(sg_certificate_check(&r, &c, &s, &fail_n, &err), 0);
    assert_non_null(strstr(err.msg, "only guy-smith does"));

    /* Nim (G(n) = n): p 1, saltus 1, from 0, bound 1; relabelled
     * periodic it is refuted. */
    parse_or_fail(&nim, SG_SYNTAX_RULE, "0.[3]");
    ng = ref_seq(&ns, "0.[3]", 2);
    memset(&c, 0, sizeof c);
    c.status = SG_ARITH_PERIODIC;
    c.period = c.saltus = c.proof_period = c.proof_saltus = 1;
    c.certified_to = 1;
    c.theorem_id = SG_THM_TAIL_ARITH;
    c.checksum = tu_fnv_text(ng, 2);
    assert_int_equal(sg_certificate_check(&nim, &c, &ns, &fail_n, &err), 1);
    c.status = SG_PERIODIC;
    assert_int_equal(sg_certificate_check(&nim, &c, &ns, &fail_n, &err), 0);
    assert_non_null(strstr(err.msg, "'periodic' contradicts the saltus 1"));
    free(ng);
    free(g);
    free(rule);
    free(text);
    sg_seq_clear(&s);
    sg_seq_clear(&ns);
    sg_rule_clear(&r);
    sg_rule_clear(&nim);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_layout),
        cmocka_unit_test(test_malformed_fields),
        cmocka_unit_test(test_huge_numbers),
        cmocka_unit_test(test_long_lines),
        cmocka_unit_test(test_missing_and_duplicate),
        cmocka_unit_test(test_check_huge),
        cmocka_unit_test(test_check_reasons),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
