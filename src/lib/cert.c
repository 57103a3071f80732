/*
 * cert.c - the text form of a certificate: what a proven result claims and
 * how a theorem certified it, in plain "key: value" lines simple enough
 * that a short script in any language can re-check it (docs/CERTIFICATES.md
 * documents the format and the check).
 */
#define _DEFAULT_SOURCE
#include "sgexplore.h"
#include "fnv.h"

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

/* Parse one unsigned field value. */
static int field_u64(uint64_t *out, const char *v)
{
    sg_error e;
    return sg_parse_u63(out, v, strlen(v), 0, &e) == SG_OK;
}

sg_status sg_certificate_parse(char **rule, sg_result *res, const char *text,
                               sg_error *err)
{
    const char *p = text;
    long line = 0;
    unsigned seen = 0;
    enum {
        F_FORMAT = 1,
        F_RULE = 2,
        F_STATUS = 4,
        F_PRE = 8,
        F_PER = 16,
        F_SAL = 32,
        F_THM = 64,
        F_START = 128,
        F_PPER = 256,
        F_PSAL = 512,
        F_BOUND = 1024,
        F_SUM = 2048,
        F_ALL = 4095
    };

    *rule = NULL;
    memset(res, 0, sizeof *res);
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        char buf[512], *key, *val, *colon;
        unsigned bit = 0;
        int ok = 1;

        line++;
        if (n >= sizeof buf)
            return sg_error_set(err, SG_E_INPUT, -1,
                                "certificate line %ld is too long", line);
        memcpy(buf, p, n);
        buf[n] = '\0';
        if (n && buf[n - 1] == '\r')
            buf[n - 1] = '\0';
        p += n + (eol ? 1 : 0);
        if (buf[0] == '\0' || buf[0] == '#')
            continue;
        colon = strstr(buf, ": ");
        if (!colon)
            return sg_error_set(err, SG_E_INPUT, -1,
                                "certificate line %ld: expected 'key: value'",
                                line);
        *colon = '\0';
        key = buf;
        val = colon + 2;
        if (strcmp(key, "format") == 0) {
            bit = F_FORMAT;
            ok = strcmp(val, CERT_MAGIC) == 0;
        } else if (strcmp(key, "rule") == 0) {
            bit = F_RULE;
            free(*rule);
            *rule = strdup(val);
            ok = *rule != NULL;
        } else if (strcmp(key, "status") == 0) {
            bit = F_STATUS;
            /* a certificate is of a proven result */
            ok = sg_period_status_parse(&res->status, val) &&
                 res->status != SG_UNRESOLVED;
        } else if (strcmp(key, "preperiod") == 0) {
            bit = F_PRE;
            ok = field_u64(&res->preperiod, val);
        } else if (strcmp(key, "period") == 0) {
            bit = F_PER;
            ok = field_u64(&res->period, val);
        } else if (strcmp(key, "saltus") == 0) {
            bit = F_SAL;
            ok = field_u64(&res->saltus, val);
        } else if (strcmp(key, "theorem") == 0) {
            bit = F_THM;
            res->theorem_id = sg_theorem_lookup(val, &res->theorem);
            ok = res->theorem_id != NULL;
        } else if (strcmp(key, "proof_start") == 0) {
            bit = F_START;
            ok = field_u64(&res->proof_start, val);
        } else if (strcmp(key, "proof_period") == 0) {
            bit = F_PPER;
            ok = field_u64(&res->proof_period, val);
        } else if (strcmp(key, "proof_saltus") == 0) {
            bit = F_PSAL;
            ok = field_u64(&res->proof_saltus, val);
        } else if (strcmp(key, "bound") == 0) {
            bit = F_BOUND;
            ok = field_u64(&res->certified_to, val);
        } else if (strcmp(key, "checksum") == 0) {
            bit = F_SUM;
            ok = sg_fnv_parse(&res->checksum, val);
        } else {
            /* Unknown keys are allowed, for forward compatibility. */
            continue;
        }
        if (!ok) {
            free(*rule);
            *rule = NULL;
            return sg_error_set(err, SG_E_INPUT, -1,
                                "certificate line %ld: bad value for '%s'",
                                line, key);
        }
        seen |= bit;
    }
    if (seen != F_ALL) {
        static const char *names[] = {
            "format",       "rule",         "status",  "preperiod",
            "period",       "saltus",       "theorem", "proof_start",
            "proof_period", "proof_saltus", "bound",   "checksum"};
        int i;
        for (i = 0; i < 12; i++)
            if (!(seen & (1u << i)))
                break;
        free(*rule);
        *rule = NULL;
        return sg_error_set(err, SG_E_INPUT, -1,
                            "certificate lacks the '%s' line", names[i]);
    }
    res->computed = res->certified_to + 1;
    return SG_OK;
}
