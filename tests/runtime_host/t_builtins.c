#include "check.h"
void test_builtins(void) {}
