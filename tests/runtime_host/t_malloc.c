#include "check.h"
void test_malloc(void) {}
