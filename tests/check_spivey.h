/*
** check_spivey.h -- the histories of Spivey's running example (section 3:
** Main -> P -> Q -> R -> P -> S, P's first entry unmarked once the second
** is made), shared by the Check suites that build profiles by hand: the
** routines' addresses and one history per context.
*/
#ifndef APROF_TESTS_CHECK_SPIVEY_H
#define APROF_TESTS_CHECK_SPIVEY_H

#include <stdint.h>

#include "runtime/amon.h"

enum { MAIN = 0x1001, P = 0x2003, Q = 0x3005, R = 0x4007, S = 0x5009 };
#define M AMON_MARK

static const uint64_t h0[] = { MAIN | M };
static const uint64_t h1[] = { MAIN | M, P | M };
static const uint64_t h2[] = { MAIN | M, P | M, Q | M };
static const uint64_t h3[] = { MAIN | M, P | M, Q | M, R | M };
static const uint64_t h4[] = { MAIN | M, P, Q | M, R | M, P | M };
static const uint64_t h5[] = { MAIN | M, P, Q | M, R | M, P | M, S | M };

#endif /* APROF_TESTS_CHECK_SPIVEY_H */
