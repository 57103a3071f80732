/*
 * api_sweep.c - the families of `sgexplore sweep` in the installed API:
 * their parameters checked as the command line checks them, then the
 * count and the rule number i from rules/family.c, so that a program
 * walks the same rules in the same order as a sweep.
 */
#include "api/api_impl.h"

#include <string.h>

/* The sg_family of the parameters, or an error naming the first one the
 * family does not take or that is out of its range. */
static sg_status family_of(sg_family *f, const char *family, unsigned size_lo,
                           unsigned size_hi, uint64_t max_element,
                           unsigned digits, unsigned prefix)
{
    memset(f, 0, sizeof *f);
    if (!family)
        family = "";
    if (strcmp(family, "subtract") == 0 || strcmp(family, "all-but") == 0) {
        f->kind = family[0] == 's' ? SG_FAMILY_SUBTRACT : SG_FAMILY_ALLBUT;
        if (digits || prefix)
            return sgi_api_failf(
                SG_E_INPUT, "sweep %s takes no digits and no prefix", family);
        if (size_lo > size_hi || size_hi > 100000)
            return sgi_api_failf(SG_E_INPUT,
                                 "sweep %s: sizes %u..%u (at most 100000)",
                                 family, size_lo, size_hi);
    } else if (strcmp(family, "octal") == 0 || strcmp(family, "hex") == 0) {
        f->kind = family[0] == 'o' ? SG_FAMILY_OCTAL : SG_FAMILY_HEX;
        if (size_lo || size_hi || max_element)
            return sgi_api_failf(SG_E_INPUT,
                                 "sweep %s takes no sizes and no largest "
                                 "element",
                                 family);
        if (digits < 1 || digits > 20)
            return sgi_api_failf(SG_E_INPUT, "sweep %s: %u digits (1 to 20)",
                                 family, digits);
        if (prefix > 15)
            return sgi_api_failf(SG_E_INPUT,
                                 "sweep %s: prefix %u is not one digit", family,
                                 prefix);
    } else if (strcmp(family, "progressions") == 0) {
        f->kind = SG_FAMILY_PROGRESSION;
        if (digits || prefix || size_lo || size_hi)
            return sgi_api_failf(SG_E_INPUT,
                                 "sweep progressions takes only the largest "
                                 "element");
    } else {
        return sgi_api_failf(SG_E_INPUT,
                             "unknown family '%s' (subtract, all-but, octal, "
                             "hex or progressions)",
                             family);
    }
    if (f->kind != SG_FAMILY_OCTAL && f->kind != SG_FAMILY_HEX &&
        (max_element < 1 || max_element > 1000000))
        return sgi_api_failf(SG_E_INPUT,
                             "sweep %s: largest element %llu (1 to 1000000)",
                             family, (unsigned long long)max_element);
    f->size_lo = size_lo;
    f->size_hi = size_hi;
    f->max_element = max_element;
    f->digits = digits;
    f->prefix = prefix;
    return SG_OK;
}

sg_status sg_sweep_count(const char *family, unsigned size_lo, unsigned size_hi,
                         uint64_t max_element, unsigned digits, unsigned prefix,
                         uint64_t *count)
{
    sg_family f;
    sg_error err;
    sg_status st;

    *count = 0;
    if ((st = family_of(&f, family, size_lo, size_hi, max_element, digits,
                        prefix)))
        return st;
    if (sg_family_count(count, &f, &err))
        return sgi_api_fail(&err);
    return SG_OK;
}

sg_status sg_sweep_rule(const char *family, unsigned size_lo, unsigned size_hi,
                        uint64_t max_element, unsigned digits, unsigned prefix,
                        uint64_t index, char **rule)
{
    sg_family f;
    sg_error err;
    sg_status st;
    uint64_t count;

    *rule = NULL;
    if ((st = family_of(&f, family, size_lo, size_hi, max_element, digits,
                        prefix)))
        return st;
    if (sg_family_count(&count, &f, &err))
        return sgi_api_fail(&err);
    if (index >= count)
        return sgi_api_failf(SG_E_INPUT, "rule %llu of a family of %llu rules",
                             (unsigned long long)index,
                             (unsigned long long)count);
    if (sg_family_rule(rule, &f, index, &err))
        return sgi_api_fail(&err);
    return SG_OK;
}
