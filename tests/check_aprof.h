/*
** check_aprof.h -- the Check suites of the unit-test binary (tests/check_main.c).
*/
#ifndef APROF_TESTS_CHECK_APROF_H
#define APROF_TESTS_CHECK_APROF_H

#include <check.h>

Suite *suite_history(void);  /* runtime: steps A1-A5 and B1-B3 on Spivey's example */
Suite *suite_report(void);   /* analyser: gprof-format text from a hand-built profile */
Suite *suite_profile(void);  /* analyser: charging contexts to routines, arcs and cycles */
Suite *suite_amon(void);     /* amon.out: compact contexts read back, corrupt ones refused */
Suite *suite_model(void);    /* analyser: select, sum, cycles, order, diff on hand-built runs */
Suite *suite_export(void);   /* analyser: each export of a hand-built profile, exactly */

#endif /* APROF_TESTS_CHECK_APROF_H */
