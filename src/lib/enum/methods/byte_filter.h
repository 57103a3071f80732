/*
 * byte_filter.h - internal to libsg: the 256-bit byte filter that the
 * sparse method's step 3 (sparse/x86.inc) and the full scans
 * (enum_scan.c) test 32 bytes against at once; one copy, so that the two
 * cannot read the table differently.  The set is two 16-byte tables,
 * each in both lanes of a register: ta for bytes below 128, tb for the
 * others, byte b being bit (b >> 4) & 7 of entry b & 15.  Only for
 * x86-64 compilers that take the target attribute.
 */
#ifndef SG_BYTE_FILTER_H
#define SG_BYTE_FILTER_H

#include <immintrin.h>

/* Lanes of x (bytes) whose value is in the set (ta, tb), as a bit mask. */
__attribute__((target("avx2"))) static inline unsigned
sgi_avx2_member(__m256i x, __m256i ta, __m256i tb)
{
    const __m256i nib = _mm256_set1_epi8(0x0F);
    const __m256i bit = _mm256_setr_epi8(
        1, 2, 4, 8, 16, 32, 64, (char)128, 1, 2, 4, 8, 16, 32, 64, (char)128, 1,
        2, 4, 8, 16, 32, 64, (char)128, 1, 2, 4, 8, 16, 32, 64, (char)128);
    __m256i lo = _mm256_and_si256(x, nib);
    __m256i hi = _mm256_and_si256(_mm256_srli_epi16(x, 4), nib);
    __m256i row = _mm256_blendv_epi8(_mm256_shuffle_epi8(ta, lo),
                                     _mm256_shuffle_epi8(tb, lo), x);
    __m256i hit = _mm256_and_si256(row, _mm256_shuffle_epi8(bit, hi));
    __m256i none = _mm256_cmpeq_epi8(hit, _mm256_setzero_si256());

    return ~(unsigned)_mm256_movemask_epi8(none);
}

#endif /* SG_BYTE_FILTER_H */
