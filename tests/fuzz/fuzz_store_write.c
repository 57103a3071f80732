/*
 * fuzz_store_write.c - fuzz target `store_write`: a damaged cache file
 * opened read-write, read, written (one row stored, one dropped) and read
 * again; the code is fuzz_store.c's, built with SG_FUZZ_STORE_WRITE.
 */
#define SG_FUZZ_STORE_WRITE
#include "fuzz_store.c"
