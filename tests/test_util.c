/*
 * test_util.c - unit tests of the small helpers every module shares
 * (error.c): the one growth rule for arrays, sg_grow, checked against
 * what it promises (room for `need`, amortised doubling, nothing changed
 * on overflow); the one escape of untrusted text, sg_escape, against
 * written-out cases and a decoder of its own (random texts read back
 * whole, no control byte let through); and sg_error_set's messages.
 */
#define _DEFAULT_SOURCE
#include "testutil.h"

#include <stdint.h>
#include <string.h>

#include "sgexplore.h"

/* Appending n elements one at a time keeps every earlier element and
 * reallocates only O(log n) times. */
static void test_grow_appends(void **state)
{
    uint32_t *v = NULL;
    size_t cap = 0, i, moves = 0, last = 0;

    (void)state;
    for (i = 0; i < 100000; i++) {
        assert_int_equal(sg_grow(&v, &cap, i + 1, sizeof *v), 0);
        assert_true(cap >= i + 1);
        if (cap != last)
            moves++;
        last = cap;
        v[i] = (uint32_t)(i * 2654435761u);
    }
    for (i = 0; i < 100000; i++)
        assert_int_equal(v[i], (uint32_t)(i * 2654435761u));
    assert_true(moves <= 14); /* 16 << 13 > 100000 */
    free(v);
}

/* A need the array already meets changes nothing. */
static void test_grow_enough(void **state)
{
    char *v = malloc(40);
    char *before = v;
    size_t cap = 40;

    (void)state;
    assert_non_null(v);
    assert_int_equal(sg_grow(&v, &cap, 40, 1), 0);
    assert_ptr_equal(v, before);
    assert_int_equal(cap, 40);
    free(v);
}

/* Sizes whose byte count overflows fail and leave the array alone. */
static void test_grow_overflow(void **state)
{
    uint64_t *v = malloc(16 * sizeof *v);
    uint64_t *before = v;
    size_t cap = 16;

    (void)state;
    assert_non_null(v);
    v[3] = 77;
    assert_int_equal(sg_grow(&v, &cap, SIZE_MAX / 4, sizeof *v), -1);
    assert_int_equal(sg_grow(&v, &cap, SIZE_MAX, 1), -1);
    assert_int_equal(sg_grow(&v, &cap, 17, 0), -1);
    assert_ptr_equal(v, before);
    assert_int_equal(cap, 16);
    assert_int_equal(v[3], 77);
    free(v);
}

/* sg_escape of text with the whole room: the escaped text, checked
 * against the return value. */
static const char *esc(const char *text, unsigned flags)
{
    static char buf[4096];
    size_t n = sg_escape(buf, sizeof buf, text, flags);

    assert_int_equal(n, strlen(buf));
    return buf;
}

/* The written-out cases: what is kept, what becomes which escape. */
static void test_escape_cases(void **state)
{
    (void)state;
    assert_string_equal(esc("", 0), "");
    assert_string_equal(esc("0.07", 0), "0.07");
    assert_string_equal(esc("mis\xc3\xa8re \xe2\x82\xac \xf0\x9f\x82\xa1", 0),
                        "mis\xc3\xa8re \xe2\x82\xac \xf0\x9f\x82\xa1");
    assert_string_equal(esc("a\x1b[31mb", 0), "a\\x1B[31mb");
    assert_string_equal(esc("x\ny\rz\t", 0), "x\\ny\\rz\\t");
    assert_string_equal(esc("\x01\x1f\x7f", 0), "\\x01\\x1F\\x7F");
    /* invalid UTF-8: a lone byte, a cut character, an overlong form, a
     * surrogate; each byte on its own */
    assert_string_equal(esc("\xff", 0), "\\xFF");
    assert_string_equal(esc("a\xc3", 0), "a\\xC3");
    assert_string_equal(esc("\xc0\xaf", 0), "\\xC0\\xAF");
    assert_string_equal(esc("\xed\xa0\x80", 0), "\\xED\\xA0\\x80");
    /* C1 controls, valid UTF-8 that terminals may obey (U+009B is CSI);
     * U+00A0 is the first character kept */
    assert_string_equal(esc("\xc2\x9b"
                            "2J\xc2\x80\xc2\xa0",
                            0),
                        "\\xC2\\x9B2J\\xC2\\x80\xc2\xa0");
    /* backslashes: doubled only where they would read as an escape */
    assert_string_equal(esc("subtract{primes\\2}", 0), "subtract{primes\\2}");
    assert_string_equal(esc("a\\nb\\x1B\\r\\t", 0), "a\\\\nb\\\\x1B\\\\r\\\\t");
    assert_string_equal(esc("\\\\", 0), "\\\\\\");
    assert_string_equal(esc("\\\x1b", 0), "\\\\\\x1B");
    assert_string_equal(esc("\\\xff", 0), "\\\\\\xFF");
    assert_string_equal(esc("end\\", 0), "end\\");
    /* kept backslashes: for a message whose parts are escaped already */
    assert_string_equal(esc("a\\x1B \x1b\n", SG_ESCAPE_KEEP_BACKSLASH),
                        "a\\x1B \\x1B\\n");
}

/* A text too long for the room is cut between characters or escapes and
 * ends in "..."; the return value is the whole length all the same. */
static void test_escape_cut(void **state)
{
    char b[16];

    (void)state;
    assert_int_equal(sg_escape(NULL, 0, "a\x1b", 0), 5);
    assert_int_equal(sg_escape(b, 8, "abcdefg", 0), 7);
    assert_string_equal(b, "abcdefg");
    assert_int_equal(sg_escape(b, 8, "abcdefgh", 0), 8);
    assert_string_equal(b, "abcd...");
    assert_int_equal(sg_escape(b, 8,
                               "abc\x1b"
                               "d",
                               0),
                     8);
    assert_string_equal(b, "abc...");
    assert_int_equal(sg_escape(b, 6, "\xc3\xa9\xc3\xa9\xc3\xa9", 0), 6);
    assert_string_equal(b, "\xc3\xa9...");
    assert_int_equal(sg_escape(b, 3, "abcdef", 0), 6);
    assert_string_equal(b, "");
    assert_int_equal(sg_escape(b, 1, "abc", 0), 3);
    assert_string_equal(b, "");
}

/* The test's own reading of valid UTF-8 (not sg_utf8_len): the length of
 * the character at s, 0 when invalid; *cp its code point. */
static size_t utf8_char(const unsigned char *s, uint32_t *cp)
{
    size_t len, i;
    uint32_t min;

    if (s[0] < 0x80)
        return *cp = s[0], 1;
    if ((s[0] & 0xe0) == 0xc0)
        len = 2, min = 0x80, *cp = s[0] & 0x1f;
    else if ((s[0] & 0xf0) == 0xe0)
        len = 3, min = 0x800, *cp = s[0] & 0x0f;
    else if ((s[0] & 0xf8) == 0xf0)
        len = 4, min = 0x10000, *cp = s[0] & 0x07;
    else
        return 0;
    for (i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        *cp = *cp << 6 | (s[i] & 0x3f);
    }
    if (*cp < min || *cp > 0x10ffff || (*cp >= 0xd800 && *cp < 0xe000))
        return 0;
    return len;
}

static int hexval(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* Read escaped text back, as the escape's documentation says a reader
 * may: \\ \n \r \t \xNN, and a backslash before anything else is itself.
 * Returns the length read into out. */
static size_t unescape(unsigned char *out, const char *e)
{
    size_t o = 0;

    while (*e) {
        if (e[0] == '\\' && e[1] == '\\')
            out[o++] = '\\', e += 2;
        else if (e[0] == '\\' && e[1] == 'n')
            out[o++] = '\n', e += 2;
        else if (e[0] == '\\' && e[1] == 'r')
            out[o++] = '\r', e += 2;
        else if (e[0] == '\\' && e[1] == 't')
            out[o++] = '\t', e += 2;
        else if (e[0] == '\\' && e[1] == 'x' && hexval(e[2]) >= 0 &&
                 hexval(e[3]) >= 0)
            out[o++] = (unsigned char)(hexval(e[2]) * 16 + hexval(e[3])),
            e += 4;
        else
            out[o++] = (unsigned char)*e++;
    }
    return o;
}

/* Random texts of the bytes that matter (backslashes before escape
 * letters, ESC, C1, cut and whole UTF-8): the escaped text holds no
 * control character, is valid UTF-8, and reads back to the text. */
static void test_escape_random(void **state)
{
    static const unsigned char pick[] = {
        '\\', 'n',  'r',  't',  'x',  '1',  'B',  'a',  '.',
        0x1b, '\n', '\r', '\t', 0x01, 0x7f, 0xc2, 0x9b, 0xa0,
        0xc3, 0xa8, 0xe2, 0x82, 0xac, 0xff, 0xf0, 0x9f, 0xed};
    unsigned char text[40], back[200];
    char out[200];
    size_t rounds = tu_scaled(200000), i, k, n, len;
    tu_rng g;

    (void)state;
    tu_rng_init(&g, 101);
    for (i = 0; i < rounds; i++) {
        n = (size_t)tu_range(&g, 0, sizeof text - 1);
        for (k = 0; k < n; k++)
            text[k] = pick[tu_range(&g, 0, sizeof pick - 1)];
        text[n] = '\0';
        len = sg_escape(out, sizeof out, (const char *)text, 0);
        assert_true(len < sizeof out);
        assert_int_equal(len, strlen(out));
        for (k = 0; k < len;) {
            uint32_t cp;
            size_t l = utf8_char((const unsigned char *)out + k, &cp);
            assert_int_not_equal(l, 0);
            assert_false(cp < 0x20 || (cp >= 0x7f && cp < 0xa0));
            k += l;
        }
        assert_int_equal(unescape(back, out), n);
        assert_memory_equal(back, text, n);
    }
}

/* sg_error_set: a message never carries a control byte, whatever its
 * arguments hold, and one too long ends in "..."; err->msg may be one of
 * the arguments. */
static void test_error_message(void **state)
{
    char big[1500];
    sg_error err;

    (void)state;
    assert_int_equal(
        sg_error_set(&err, SG_E_IO, 3, "row %s is damaged", "x\x1b[2J\ny\xff"),
        SG_E_IO);
    assert_int_equal(err.pos, 3);
    assert_string_equal(err.msg, "row x\\x1B[2J\\ny\\xFF is damaged");
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    sg_error_set(&err, SG_E_IO, -1, "%s", big);
    assert_int_equal(strlen(err.msg), sizeof err.msg - 1);
    assert_string_equal(err.msg + sizeof err.msg - 4, "...");
    sg_error_set(&err, SG_E_INPUT, -1, "quoted '%s'", "a\\x41");
    sg_error_set(&err, SG_E_INPUT, -1, "again: %s", err.msg);
    assert_string_equal(err.msg, "again: quoted 'a\\x41'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grow_appends),
        cmocka_unit_test(test_grow_enough),
        cmocka_unit_test(test_grow_overflow),
        cmocka_unit_test(test_escape_cases),
        cmocka_unit_test(test_escape_cut),
        cmocka_unit_test(test_escape_random),
        cmocka_unit_test(test_error_message),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
