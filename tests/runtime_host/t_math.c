#include "check.h"
void test_math(void) {}
