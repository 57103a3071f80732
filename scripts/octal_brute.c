/*
 * octal_brute.c - an independent brute-force check of an octal code's
 * certificate (docs/CENSUS.md, "Checks"): G(0..B) straight from the
 * definition of the code, sharing no code with sgexplore, the FNV-1a 64
 * checksum of the text "G(0),G(1),...,G(B)" (docs/CERTIFICATES.md), and
 * whether G(n + p) = G(n) for every n0 <= n <= B - p.
 *
 * Build: cc -O2 -o octal_brute scripts/octal_brute.c
 * Usage: octal_brute CODE B [N0 P]
 *   CODE  an octal code d0.d1d2...: d0 is 0 or 4, each digit 0-7
 *         (bit 1: take the whole heap, 2: leave one heap, 4: leave two)
 * Prints "checksum fnv1a64:..." and, with N0 and P, "periodic from N0"
 * or "not periodic: G(n+P) != G(n) at n = ...".  Values must stay below
 * 65536.  Cost: O(B^2) per digit with bit 4 (4.406 to 588,284: minutes).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    const char *code, *dot;
    int digit[32], nd = 0, k;
    unsigned long long b, n, n0 = 0, p = 0, a, m;
    uint16_t *g;
    uint32_t *seen;
    uint64_t h = 14695981039346656037ULL;
    char buf[32];

    if (argc != 3 && argc != 5) {
        fprintf(stderr, "usage: octal_brute CODE B [N0 P]\n");
        return 2;
    }
    code = argv[1];
    dot = strchr(code, '.');
    if (!dot || dot - code != 1 || (code[0] != '0' && code[0] != '4')) {
        fprintf(stderr, "octal_brute: CODE must be 0.d... or 4.d...\n");
        return 2;
    }
    digit[nd++] = code[0] - '0';
    for (dot++; *dot; dot++) {
        if (*dot < '0' || *dot > '7' || nd == 31) {
            fprintf(stderr, "octal_brute: bad digit in %s\n", code);
            return 2;
        }
        digit[nd++] = *dot - '0';
    }
    b = strtoull(argv[2], NULL, 10);
    if (argc == 5) {
        n0 = strtoull(argv[3], NULL, 10);
        p = strtoull(argv[4], NULL, 10);
    }
    g = malloc((b + 1) * sizeof *g);
    seen = calloc(1u << 17, sizeof *seen);
    if (!g || !seen) {
        fprintf(stderr, "octal_brute: out of memory\n");
        return 1;
    }
    for (n = 0; n <= b; n++) {
        uint32_t stamp = (uint32_t)n + 1, v;
        for (k = 0; k < nd && (unsigned long long)k <= n; k++) {
            int d = digit[k];
            m = n - (unsigned long long)k;
            if ((d & 1) && m == 0)
                seen[0] = stamp;
            if ((d & 2) && m >= 1)
                seen[g[m]] = stamp;
            if ((d & 4) && m >= 2)
                for (a = 1; a <= m / 2; a++)
                    seen[g[a] ^ g[m - a]] = stamp;
        }
        for (v = 0; seen[v] == stamp; v++)
            ;
        if (v > 65535) {
            fprintf(stderr, "octal_brute: a value over 65535 at %llu\n", n);
            return 1;
        }
        g[n] = (uint16_t)v;
    }
    for (n = 0; n <= b; n++) {
        int len = snprintf(buf, sizeof buf, n ? ",%u" : "%u", g[n]);
        for (k = 0; k < len; k++) {
            h ^= (unsigned char)buf[k];
            h *= 1099511628211ULL;
        }
    }
    printf("checksum fnv1a64:%016llx\n", (unsigned long long)h);
    if (p) {
        for (n = n0; n + p <= b; n++)
            if (g[n + p] != g[n]) {
                printf("not periodic: G(n+%llu) != G(n) at n = %llu\n", p, n);
                return 1;
            }
        printf("periodic from %llu with period %llu up to %llu\n", n0, p, b);
    }
    return 0;
}
