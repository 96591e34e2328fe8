/* assert.h: diagnostics (C11 7.2). A failed assertion prints glibc's message
 * "a.out: FILE:LINE: FUNC: Assertion `EXPR' failed." to stderr and aborts
 * (exit status 134). Deliberately without an include guard, as C requires. */
#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
_Noreturn void __assert_fail(const char *, const char *, unsigned, const char *);
#define assert(e) ((e) ? (void)0 : __assert_fail(#e, __FILE__, __LINE__, __func__))
#endif
#ifndef __cplusplus
#undef static_assert
#define static_assert _Static_assert
#endif
