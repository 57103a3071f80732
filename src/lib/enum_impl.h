/*
 * enum_impl.h - internal to libsg: what the enumerator's methods (enum.c,
 * enum_sparse.c) share.
 */
#ifndef SG_ENUM_IMPL_H
#define SG_ENUM_IMPL_H

#include "sgexplore.h"
#include "seq_impl.h"

/* Heaps between two looks at the cancel flag and the progress hook. */
#define SG_ENUM_POLL 256

/* Let the sparse method use the CPU's vector instructions (the default)
 * or not; the tests use this to check the portable code on any machine. */
void sg_sparse_allow_simd(int allow);

/* Let the sparse method use a second thread (the default) or not. */
void sg_sparse_allow_threads(int allow);

/* For tests: with pinned non-zero the sparse method gives every eligible
 * superblock to its helper thread (no timing trials) with the work
 * balance fixed at `balance` (see BALANCE_STEP in enum_sparse.c: extra
 * pairs when positive, far rares left to the main thread when negative);
 * pinned 0 restores the default. */
void sg_sparse_pin_helper(int pinned, long balance);

/* Report progress to the installed hook, if any. */
void sg_enum_progress(size_t done, size_t target, size_t rare);

#endif /* SG_ENUM_IMPL_H */
