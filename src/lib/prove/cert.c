/*
 * cert.c - the text form of a certificate: what a proven result claims and
 * how a theorem certified it, in plain "key: value" lines simple enough
 * that a short script in any language can re-check it (docs/CERTIFICATES.md
 * documents the format and the check).
 */
#define _DEFAULT_SOURCE
#include "sgexplore.h"
#include "internal.h"
#include "base/fnv.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CERT_MAGIC "sgexplore-certificate 1"

char *sg_certificate_format(const char *rule, const sg_result *res)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f;

    if (res->status == SG_UNRESOLVED || !res->theorem_id)
        return NULL;
    f = open_memstream(&out, &len);
    if (!f)
        return NULL;
    fprintf(f,
            "format: " CERT_MAGIC "\n"
            "rule: %s\n"
            "status: %s\n"
            "preperiod: %" PRIu64 "\n"
            "period: %" PRIu64 "\n"
            "saltus: %" PRIu64 "\n"
            "theorem: %s\n"
            "proof_start: %" PRIu64 "\n"
            "proof_period: %" PRIu64 "\n"
            "proof_saltus: %" PRIu64 "\n"
            "bound: %" PRIu64 "\n"
            "checksum: " SG_FNV_TAG "%016" PRIx64 "\n",
            rule, sg_period_status_name(res->status), res->preperiod,
            res->period, res->saltus, res->theorem_id, res->proof_start,
            res->proof_period, res->proof_saltus, res->certified_to,
            res->checksum);
    if (fclose(f) != 0) {
        free(out);
        return NULL;
    }
    return out;
}

int sg_period_status_parse(sg_period_status *out, const char *word)
{
    static const sg_period_status all[] = {SG_UNRESOLVED, SG_PERIODIC,
                                           SG_ARITH_PERIODIC};
    size_t i;

    for (i = 0; word && i < sizeof all / sizeof *all; i++)
        if (strcmp(word, sg_period_status_name(all[i])) == 0) {
            *out = all[i];
            return 1;
        }
    return 0;
}

/* Parse one unsigned field value: decimal digits only, at most 2^63-1. */
static int field_u64(uint64_t *out, const char *v, size_t len)
{
    return sgi_parse_u63(out, v, len, 0, NULL) == SG_OK;
}

/* Whether key[0..klen-1] is the NUL-terminated word w. */
static int key_is(const char *key, size_t klen, const char *w)
{
    return strlen(w) == klen && memcmp(key, w, klen) == 0;
}

/* The checksum field: "fnv1a64:" and exactly 16 lower-case hex digits
 * (what sg_certificate_format writes; the Python checker is as strict). */
static int field_checksum(uint64_t *out, const char *v, size_t len)
{
    uint64_t h = 0;
    size_t i;

    if (len != 24 || memcmp(v, "fnv1a64:", 8) != 0)
        return 0;
    for (i = 8; i < 24; i++) {
        char c = v[i];
        unsigned x;
        if (c >= '0' && c <= '9')
            x = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            x = (unsigned)(c - 'a' + 10);
        else
            return 0;
        h = h << 4 | x;
    }
    *out = h;
    return 1;
}

static const char *const field_names[] = {
    "format",       "rule",         "status",  "preperiod",
    "period",       "saltus",       "theorem", "proof_start",
    "proof_period", "proof_saltus", "bound",   "checksum"};
#define NFIELDS (sizeof field_names / sizeof *field_names)

/* Lines are read in place, of any length (a subtraction set of hundreds of
 * numbers makes a long rule line); the only limit is the caller's, on the
 * whole text.  Each known key must appear exactly once: a second `period:`
 * line would make the claim ambiguous, so it is an error. */
sg_status sg_certificate_parse(char **rule, sg_result *res, const char *text,
                               sg_error *err)
{
    const char *p = text;
    long line = 0;
    unsigned seen = 0;
    size_t i;

    *rule = NULL;
    memset(res, 0, sizeof *res);
    while (*p) {
        const char *eol = strchr(p, '\n'), *key = p, *val, *colon;
        size_t n = eol ? (size_t)(eol - p) : strlen(p), klen, vlen;
        int ok = 1;

        line++;
        p += n + (eol ? 1 : 0);
        if (n && key[n - 1] == '\r')
            n--;
        if (n == 0 || key[0] == '#')
            continue;
        colon = memchr(key, ':', n);
        if (!colon || (size_t)(colon - key) + 1 >= n || colon[1] != ' ') {
            free(*rule);
            *rule = NULL;
            return sg_error_set(err, SG_E_INPUT, -1,
                                "certificate line %ld: expected 'key: value'",
                                line);
        }
        klen = (size_t)(colon - key);
        val = colon + 2;
        vlen = n - klen - 2;
        for (i = 0; i < NFIELDS; i++)
            if (key_is(key, klen, field_names[i]))
                break;
        if (i == NFIELDS)
            continue; /* unknown keys: allowed, for later versions */
        if (seen & (1u << i)) {
            free(*rule);
            *rule = NULL;
            return sg_error_set(err, SG_E_INPUT, -1,
                                "certificate line %ld: a second '%s' line",
                                line, field_names[i]);
        }
        if (memchr(val, '\0', vlen))
            ok = 0;
        switch (i) {
        case 0:
            ok = ok && vlen == strlen(CERT_MAGIC) &&
                 memcmp(val, CERT_MAGIC, vlen) == 0;
            break;
        case 1:
            *rule = ok && vlen ? strndup(val, vlen) : NULL;
            if (ok && vlen && !*rule)
                return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
            ok = *rule != NULL;
            break;
        case 2:
            if (vlen == 8 && memcmp(val, "periodic", 8) == 0)
                res->status = SG_PERIODIC;
            else if (vlen == 19 && memcmp(val, "arithmetic-periodic", 19) == 0)
                res->status = SG_ARITH_PERIODIC;
            else
                ok = 0;
            break;
        case 3:
            ok = ok && field_u64(&res->preperiod, val, vlen);
            break;
        case 4:
            ok = ok && field_u64(&res->period, val, vlen);
            break;
        case 5:
            ok = ok && field_u64(&res->saltus, val, vlen);
            break;
        case 6: {
            char id[32];
            ok = ok && vlen < sizeof id;
            if (ok) {
                memcpy(id, val, vlen);
                id[vlen] = '\0';
                res->theorem_id = sgi_theorem_lookup(id, &res->theorem);
                ok = res->theorem_id != NULL;
            }
            break;
        }
        case 7:
            ok = ok && field_u64(&res->proof_start, val, vlen);
            break;
        case 8:
            ok = ok && field_u64(&res->proof_period, val, vlen);
            break;
        case 9:
            ok = ok && field_u64(&res->proof_saltus, val, vlen);
            break;
        case 10:
            ok = ok && field_u64(&res->certified_to, val, vlen);
            break;
        default:
            ok = ok && field_checksum(&res->checksum, val, vlen);
            break;
        }
        if (!ok) {
            free(*rule);
            *rule = NULL;
            return sg_error_set(err, SG_E_INPUT, -1,
                                "certificate line %ld: bad value for '%s'",
                                line, field_names[i]);
        }
        seen |= 1u << i;
    }
    for (i = 0; i < NFIELDS; i++)
        if (!(seen & (1u << i))) {
            free(*rule);
            *rule = NULL;
            return sg_error_set(err, SG_E_INPUT, -1,
                                "certificate lacks the '%s' line",
                                field_names[i]);
        }
    res->computed = res->certified_to + 1;
    return SG_OK;
}
