#include "check.h"
void test_strtod(void) {}
