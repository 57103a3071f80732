/*
 * fuzz_cert.c - fuzz target of the certificate reader
 * (sg_certificate_parse), which reads files from anyone.  Crashes, hangs
 * and leaks only: what the fields must satisfy is the checker's business
 * (sg_certificate_check and its tests).
 */
#include "fuzz.h"
#include "sgexplore.h"

SG_FUZZ_TARGET(cert)
{
    char *text = sg_fuzz_text(data, size), *rule = NULL;
    sg_result res;
    sg_error err;

    if (!text)
        return 0;
    memset(&res, 0, sizeof res);
    if (sg_certificate_parse(&rule, &res, text, &err) == SG_OK) {
        char *again;
        SG_FUZZ_CHECK(rule != NULL);
        /* What was read can be written out again. */
        again = sg_certificate_format(rule, &res);
        free(again);
    }
    free(rule);
    free(text);
    return 0;
}
