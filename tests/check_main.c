/*
** check_main.c -- the unit-test binary: every Check suite of tests/.
*/
#include <config.h>

#include <stdlib.h>

#include "tests/check_aprof.h"


int main(void)
{
	SRunner *sr = srunner_create(suite_history());
	int failed;

	srunner_add_suite(sr, suite_report());
	srunner_add_suite(sr, suite_profile());
	srunner_add_suite(sr, suite_amon());
	srunner_add_suite(sr, suite_model());
	srunner_add_suite(sr, suite_export());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
