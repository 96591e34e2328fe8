#include "check.h"
void test_stdlib(void) {}
