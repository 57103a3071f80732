/*
 * method_rows.h - the one table of enumeration methods, a row each, in
 * the order sg_enumerate prefers them (sgi_method_id): the method's id
 * and name, whether it applies to a rule's profile, its default budget
 * (the values an analysis computes unless told), its memory per value,
 * whether it runs deep runs, and its run and name functions.
 *
 * Read twice, as an X-macro, once per layer: rules/profile.c expands the
 * columns of the rule's shape (applies, budget, memory, deep) when a rule
 * is parsed, and enum/method.c the whole row into sgi_methods[] with the
 * run functions, which the rules layer may not name.  So the profile holds
 * the chosen method and its budget from parsing on, and a new method is
 * one row here (with its predicate and budget in profile.c and its run
 * function in enum/).  Define SGI_METHOD_ROW(id, name, applies, budget,
 * bytes_per_value, deep, run, name_for) before including it.
 */
SGI_METHOD_ROW(SGI_METHOD_SET, "set", sgi_applies_set, sgi_budget_set, 8, 0,
               sgi_run_set, sgi_name_set)
SGI_METHOD_ROW(SGI_METHOD_GENERAL, "general", sgi_applies_general,
               sgi_budget_general, 8, 0, sgi_run_general, NULL)
SGI_METHOD_ROW(SGI_METHOD_SPARSE, "sparse", sgi_applies_sparse,
               sgi_budget_sparse, 8, 1, sgi_run_sparse, NULL)
SGI_METHOD_ROW(SGI_METHOD_DIRECT, "direct", sgi_applies_direct,
               sgi_budget_direct, 8, 0, sgi_enumerate_direct, NULL)
SGI_METHOD_ROW(SGI_METHOD_THREE, "three-heap", sgi_applies_three,
               sgi_budget_three, 0, 0, sgi_enumerate_three, NULL)
SGI_METHOD_ROW(SGI_METHOD_NAIVE, "naive", sgi_applies_naive, sgi_budget_naive,
               8, 0, sg_enumerate_naive, NULL)
