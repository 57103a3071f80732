/*
 * example.c - a program built against the installed libsgexplore
 * (docs/API.md): the prime game S = {2, 3, 5, 7, 11, 13} answering a heap
 * of 10^18 and a position with a winning move, then Kayles given as a
 * function of its options, its values G(0..N-1).  It prints the lines
 * `sgexplore --subtract 2,3,5,7,11,13 --heap 10^18 --position ... --quiet`
 * and `sgexplore 0.77 --values 0:N-1 --quiet` print, so that
 * tests/install/check_install.sh compares the two.
 *
 *   cc example.c $(pkg-config --cflags --libs sgexplore) -o example
 *   ./example [N]
 */
#include <sgexplore_api.h>

#include <stdio.h>
#include <stdlib.h>

/* Report a failed call with the library's one-line message. */
static int fail(const char *what, sg_status st)
{
    fprintf(stderr, "example: %s: %s (%s)\n", what, sg_last_error(),
            sg_status_name(st));
    return 1;
}

/* The prime game: G(10^18), then a position and its winning move. */
static int prime_game(void)
{
    const char *heaps[] = {"1000000000000000004", "10"};
    sg_game *g = NULL;
    sg_answer *a = NULL;
    char *v = NULL;
    sg_status st;
    size_t i;
    int rc = 1;

    if ((st = sg_game_new_form(&g, "subtract", "2,3,5,7,11,13")))
        return fail("rule", st);
    if ((st = sg_game_analyse(g))) {
        rc = fail("analyse", st);
        goto out;
    }
    if ((st = sg_game_heap(g, "1000000000000000000", &v))) {
        rc = fail("heap", st);
        goto out;
    }
    printf("G(1000000000000000000) = %s\n", v);
    if ((st = sg_game_position(&a, g, heaps, 2))) {
        rc = fail("position", st);
        goto out;
    }
    for (i = 0; i < sg_answer_heaps(a); i++)
        printf("G(%s) = %s\n", heaps[i], sg_answer_value(a, i));
    printf("nim-sum: %s\n", sg_answer_nim_sum(a));
    printf("winner: %s\n", sg_answer_first_wins(a) ? "first" : "second");
    if (sg_answer_move_heap(a) >= 0) {
        long h = sg_answer_move_heap(a);
        printf("move: heap #%ld (%s): take %s", h, heaps[h],
               sg_answer_move_take(a));
        for (i = 0; i < sg_answer_move_nleft(a); i++)
            printf("%s%s", i ? " and " : ", leaving ",
                   sg_answer_move_left(a, i));
        printf("\n");
    }
    rc = 0;
out:
    sg_free(v);
    sg_answer_free(a);
    sg_game_free(g);
    return rc;
}

/* Kayles by its options: a move takes one or two adjacent pins of a row
 * of n, leaving two rows a and b (a + b = n - 1 or n - 2); empty rows are
 * left out. */
static int64_t kayles_moves(void *ctx, uint64_t n, uint64_t *buf, size_t cap)
{
    size_t len = 0;
    uint64_t take, a;

    (void)ctx;
    for (take = 1; take <= 2 && take <= n; take++)
        for (a = 0; a <= (n - take) / 2; a++) {
            uint64_t b = n - take - a;
            size_t k = (a > 0) + (b > 0);
            if (len + 1 + k <= cap) {
                buf[len] = k;
                if (a > 0)
                    buf[len + 1] = a;
                if (b > 0)
                    buf[len + k] = b;
            }
            len += 1 + k;
        }
    return (int64_t)len; /* more than cap: called again with room */
}

static int kayles_by_function(uint64_t n)
{
    sg_game *g = NULL;
    uint32_t *v = malloc(n * sizeof *v);
    sg_status st;
    uint64_t i;
    int rc = 1;

    if (!v)
        return fail("values", SG_E_NOMEM);
    if ((st = sg_game_from_moves(&g, "kayles-example", "1", kayles_moves,
                                 NULL))) {
        free(v);
        return fail("game", st);
    }
    if ((st = sg_game_set_budget(g, n, 0)) || (st = sg_game_analyse(g)) ||
        (st = sg_game_values(g, 0, n, v))) {
        rc = fail("kayles", st);
        goto out;
    }
    for (i = 0; i < n; i++)
        printf("G(%llu) = %u\n", (unsigned long long)i, v[i]);
    rc = 0;
out:
    free(v);
    sg_game_free(g);
    return rc;
}

int main(int argc, char **argv)
{
    uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 100;

    if (n == 0)
        n = 100;
    if (prime_game())
        return 1;
    return kayles_by_function(n);
}
