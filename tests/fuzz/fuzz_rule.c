/*
 * fuzz_rule.c - fuzz target of the rule parser (sg_rule_parse) in every
 * syntax.  The first byte picks the syntax, the rest is the text.  Besides
 * not crashing, hanging or leaking, an accepted rule must survive the round
 * trip the cache relies on: its canonical text parses (as --rule) to a rule
 * with the same canonical text.
 */
#include "fuzz.h"
#include "sgexplore.h"
#include "internal.h" /* the parts tested on their own (sgi_) */

static const sg_rule_syntax syntaxes[] = {
    SG_SYNTAX_SUBTRACT, SG_SYNTAX_ALLBUT, SG_SYNTAX_OCTAL,
    SG_SYNTAX_HEX,      SG_SYNTAX_RULE,   SG_SYNTAX_GRUNDY,
};

SG_FUZZ_TARGET(rule)
{
    sg_rule r, back;
    sg_error err;
    char *text, *canon, *canon2;
    sg_rule_syntax syn;

    if (size < 1)
        return 0;
    syn = syntaxes[data[0] % (sizeof syntaxes / sizeof syntaxes[0])];
    if (!(text = sg_fuzz_text(data + 1, size - 1)))
        return 0;
    sg_rule_init(&r);
    if (sg_rule_parse(&r, syn, text, &err) == SG_OK) {
        canon = sg_rule_canonical(&r);
        SG_FUZZ_CHECK(canon != NULL);
        sg_rule_init(&back);
        SG_FUZZ_CHECK(sg_rule_parse(&back, SG_SYNTAX_RULE, canon, &err) ==
                      SG_OK);
        canon2 = sg_rule_canonical(&back);
        SG_FUZZ_CHECK(canon2 && strcmp(canon, canon2) == 0);
        /* The queries every command makes must hold up too. */
        (void)sg_rule_family(&r);
        (void)sg_rule_max_take(&r);
        (void)sg_rule_bits(&r);
        (void)sg_enumerate_method(&r);
        (void)sgi_prove_applicable(&r, NULL);
        free(canon2);
        free(canon);
        sg_rule_clear(&back);
    } else {
        /* A refusal is one line with a position inside the text. */
        SG_FUZZ_CHECK(err.code != SG_OK && err.msg[0] != '\0');
        SG_FUZZ_CHECK(strchr(err.msg, '\n') == NULL);
        SG_FUZZ_CHECK(err.pos >= -1 && err.pos <= (long)strlen(text));
    }
    sg_rule_clear(&r);
    free(text);
    return 0;
}
