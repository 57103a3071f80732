/*
 * compat.h - TEMPORARY: the enumerator options API of the library
 * restructuring (branch lib), mapped onto the old calls until it lands.
 */
#ifndef SGEXPLORE_CLI_COMPAT_H
#define SGEXPLORE_CLI_COMPAT_H
#include "sgexplore.h"
typedef struct sg_enum_options {
    volatile sig_atomic_t *cancel;
    sg_progress_fn progress;
    void *progress_ctx;
    int no_simd, no_threads, pin_helper;
    long pin_balance;
} sg_enum_options;
static inline sg_status compat_enumerate(sg_seq *s, const sg_rule *r,
                                         size_t n, const sg_enum_options *o,
                                         sg_error *e)
{
    sg_status st;
    sg_enumerate_set_progress(o->progress, o->progress_ctx);
    st = (sg_enumerate)(s, r, n, o->cancel, e);
    sg_enumerate_set_progress(NULL, NULL);
    return st;
}
static inline sg_status compat_naive(sg_seq *s, const sg_rule *r, size_t n,
                                     const sg_enum_options *o, sg_error *e)
{
    return (sg_enumerate_naive)(s, r, n, o ? o->cancel : NULL, e);
}
static inline sg_status compat_analyse(sg_result *res, sg_seq *s,
                                       const sg_rule *r, size_t max,
                                       const sg_enum_options *o, sg_error *e)
{
    sg_status st;
    sg_enumerate_set_progress(o->progress, o->progress_ctx);
    st = (sg_analyse)(res, s, r, max, o->cancel, e);
    sg_enumerate_set_progress(NULL, NULL);
    return st;
}
#define sg_enumerate compat_enumerate
#define sg_enumerate_naive compat_naive
#define sg_analyse compat_analyse
static inline size_t sg_default_max(const sg_rule *r)
{
    unsigned bits = sg_rule_bits(r);
    if (r->tail_len && (bits & (SG_BIT_TWO | SG_BIT_THREE)))
        return 1000;
    if (bits & SG_BIT_THREE)
        return sg_three_applicable(r) ? 4000 : 2000;
    if (r->tail_len)
        return 10000;
    if (sg_sparse_applicable(r))
        return 1000000;
    return 10000000;
}
#endif
