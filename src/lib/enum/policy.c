/*
 * policy.c - the cost policy: how many values an analysis computes when
 * the user does not say, the budget of the method sg_enumerate picks for
 * the rule (a column of the table of methods, rules/method_rows.h, kept in
 * the rule's profile; rules/profile.c says why each is what it is).  A
 * run bounded by time instead (--seconds) has no such count, only the
 * memory its method needs (sg_time_max, from the table's bytes per
 * value).
 */
#include "sgexplore.h"
#include "internal.h"

size_t sg_default_max(const sg_rule *r)
{
    return sgi_rule_profile(r)->default_max;
}

/* The square root of x, rounded down (no floating point: exact for every
 * 64-bit x). */
static uint64_t isqrt(uint64_t x)
{
    uint64_t r = 0, bit = (uint64_t)1 << 62;

    while (bit > x)
        bit >>= 2;
    while (bit) {
        if (x >= r + bit) {
            x -= r + bit;
            r = (r >> 1) + bit;
        } else {
            r >>= 1;
        }
        bit >>= 2;
    }
    return r;
}

size_t sg_time_max(const sg_rule *r, uint64_t bytes, unsigned shares,
                   int *by_memory)
{
    uint64_t n;
    const sgi_profile *pr = sgi_rule_profile(r);

    if (by_memory)
        *by_memory = 0;
    /* No theorem can prove such a rule: more values would only cost
     * time, so the count keeps its default. */
    if (pr->proof == SGI_PROOF_NONE)
        return pr->default_max;
    if (!bytes)
        bytes = sgi_physical_memory() / 2;
    if (!bytes)
        bytes = (uint64_t)1 << 30;
    if (shares > 1)
        bytes /= shares;
    /* The bitset method keeps N^2 / 8 bytes of bit rows (enum_three.c,
     * bytes_per_value 0); every other method about a value and its
     * proof's bookkeeping, well under 8 bytes, per heap. */
    if (pr->bytes_per_value == 0)
        n = isqrt(bytes > UINT64_MAX / 4 ? UINT64_MAX : 4 * bytes);
    else
        n = bytes / pr->bytes_per_value;
    if (n < 128)
        n = 128;
    if (n > SIZE_MAX / 8)
        n = SIZE_MAX / 8;
    if (by_memory)
        *by_memory = 1;
    return (size_t)n;
}
