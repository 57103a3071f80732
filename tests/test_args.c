/*
 * test_args.c - unit tests of the option scanner's one promise about
 * names (src/cli/args.c): cli_get, cli_count and cli_get_nth answer only
 * for options the command's table declares; asking for any other name is
 * a bug in the program, which must be caught here and by
 * tests/cli/options.sh, not by a crash at a user: the answer is "not
 * given", the name is kept for cli_undeclared, and one line says so.
 */
#define _DEFAULT_SOURCE
#include "testutil.h"

#include <string.h>

#include "cli.h"

static const cli_opt toy_opts[] = {
    {"--max", NULL, "N", "a declared option with a value"},
    {"--output", "-o", "FILE", "one with an alias"},
    {"--loud", NULL, NULL, "a flag"},
    {NULL, NULL, NULL, NULL},
};

static int toy_run(const cli_command *self, cli_args *a)
{
    (void)self;
    (void)a;
    return 0;
}

static const cli_command toy = {
    "toy",
    "toy [--max N]",
    "A command for the tests.",
    CLI_CMD_CACHE | CLI_CMD_NOCACHE_OPT,
    toy_opts,
    toy_run,
};

static cli_args *scan(int argc, char **argv)
{
    int rc;
    cli_args *a = cli_args_scan(&toy, argc, argv, 1, &rc);

    assert_non_null(a);
    assert_int_equal(rc, 0);
    return a;
}

/* Declared names are answered, whichever group declares them. */
static void test_declared(void **state)
{
    char *argv[] = {"toy",    "--max", "7",    "-o",     "f.png", "--max=9",
                    "--loud", "--db",  "c.db", "--json", NULL};
    cli_args *a = scan(10, argv);

    (void)state;
    assert_string_equal(cli_get(a, "--max"), "9");
    assert_int_equal(cli_count(a, "--max"), 2);
    assert_string_equal(cli_get_nth(a, "--max", 0), "7");
    assert_string_equal(cli_get(a, "--output"), "f.png");
    assert_string_equal(cli_get(a, "--loud"), "");
    assert_string_equal(cli_get(a, "--db"), "c.db");
    assert_true(cli_json(a));
    /* --no-cache is refused on the command line but its group is in the
     * table, so shared code may ask (cli_cache_open does). */
    assert_null(cli_get(a, "--no-cache"));
    assert_true(cli_declares(a, "--no-cache"));
    assert_false(cli_declares(a, "--heap"));
    assert_null(cli_undeclared());
    cli_args_free(a);
}

/* An undeclared name: "not given", remembered, and no crash; even when
 * the user typed something that looks like it. */
static void test_undeclared(void **state)
{
    char *argv[] = {"toy", "--max", "7", NULL};
    cli_args *a = scan(3, argv);

    (void)state;
    assert_null(cli_get(a, "--heap"));
    assert_string_equal(cli_undeclared(), "--heap");
    assert_int_equal(cli_count(a, "--values"), 0);
    assert_null(cli_get_nth(a, "--position", 0));
    assert_string_equal(cli_undeclared(), "--heap"); /* the first one */
    assert_string_equal(cli_get(a, "--max"), "7");   /* the rest works */
    cli_args_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_declared),
        cmocka_unit_test(test_undeclared),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
