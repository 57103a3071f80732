/*
 * misere_impl.h - internal to libsg, shared by misere.c and the
 * quotient's files (misere_quot_impl.h): the exact misère search over
 * multisets of heaps (misere.c) as an object the quotient computation
 * (misere_quot.c, misere_learn.c) asks for true outcomes, with a hook for
 * outcomes it already knows.
 */
#ifndef SG_MISERE_IMPL_H
#define SG_MISERE_IMPL_H

#include "sgexplore.h"

#include <signal.h>
#include <stdint.h>

/* The outcome of the sorted non-empty heaps x[0..len-1] when already
 * known: 1 (the player to move wins), 0 (loses), -1 (not known). */
typedef int (*sgi_mis_known_fn)(void *arg, const uint32_t *x, size_t len);

typedef struct sgi_mis_search sgi_mis_search;

/* SG_OK when misère play is implemented for r, else SG_E_INPUT naming
 * why (codes in CGSuite's whole notation, whose moves may leave up to 62
 * heaps). */
sg_status sgi_misere_refuse(const sg_rule *r, sg_error *err);

/* A search of rule r (g: G(0..) past every heap asked, as moves.h
 * needs) within `budget` bytes of memo; NULL when out of memory.
 * `known` (or NULL) is asked before a position is searched.  Heaps with
 * no move (the game 0) are dropped from every sum before it is looked up
 * or searched.  A non-zero *cancel (when cancel is not NULL) stops the
 * search with SG_E_INTERRUPTED. */
sgi_mis_search *sgi_mis_search_new(const sg_rule *r, const sg_seq *g,
                                   size_t budget, sgi_mis_known_fn known,
                                   void *known_arg,
                                   volatile sig_atomic_t *cancel,
                                   sg_error *err);

/* 1 when the player to move wins the sum x[0..len-1] (sorted, no 0) in
 * misère play, 0 when not, -1 on failure (sgi_mis_search_status: too
 * large, out of memory; err filled). */
int sgi_mis_search_outcome(sgi_mis_search *s, const uint32_t *x, size_t len);

/* Positions in the memo. */
size_t sgi_mis_search_positions(const sgi_mis_search *s);

/* The first failure, SG_OK when none. */
sg_status sgi_mis_search_status(const sgi_mis_search *s);

void sgi_mis_search_free(sgi_mis_search *s);

#endif /* SG_MISERE_IMPL_H */
