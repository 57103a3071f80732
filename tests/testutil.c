/*
 * testutil.c - the helpers several cmocka test programs share, written
 * once (declared in testutil.h, linked into every unit test through
 * tests/libsgref.a): a deep run saved and loaded again.
 */
#define _DEFAULT_SOURCE
#include "testutil.h"

#include <string.h>

void tu_deep_round_trip(sg_deep *d, const sg_rule *r)
{
    void *blob;
    size_t len;
    sg_error err;
    sg_deep e;

    memset(&err, 0, sizeof err);
    if (sg_deep_save(d, r, &blob, &len, &err) != SG_OK)
        fail_msg("save: %s", err.msg);
    if (sg_deep_load(&e, r, blob, len, &err) != SG_OK)
        fail_msg("load of a fresh checkpoint: %s", err.msg);
    free(blob);
    sg_deep_clear(d);
    *d = e;
}
