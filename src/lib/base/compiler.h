/*
 * compiler.h - internal to libsg: compiler-specific attributes, kept in
 * one place.
 *
 * The naive and the direct enumerators spend all their time in one or two
 * short loops, whose speed moved by a sixth to a quarter with where the
 * loops happened to fall in the code (a loop straddling a 32-byte window;
 * docs/BENCHMARKS.md, "Comparing two builds").  These attributes pin that
 * layout down; each is the setting measured best for its function.  The
 * sparse method keeps gcc's default layout, under which its loops were
 * tuned.
 */
#ifndef SG_COMPILER_H
#define SG_COMPILER_H

/* Start the function on a cache line, so that its loops keep their
 * offsets whatever code comes before it (gcc and clang). */
#define SG_ALIGN_FN __attribute__((aligned(64)))

/* SG_LAYOUT("align-loops=N", ...): gcc places the function's loops on
 * N-byte boundaries; nothing for other compilers. */
#if defined(__GNUC__) && !defined(__clang__)
#define SG_LAYOUT(...) __attribute__((optimize(__VA_ARGS__)))
#else
#define SG_LAYOUT(...)
#endif

#endif /* SG_COMPILER_H */
