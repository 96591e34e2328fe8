#include "check.h"
void test_stdio(void) {}
