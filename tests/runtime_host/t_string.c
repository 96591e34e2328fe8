#include "check.h"
void test_string(void) {}
