/* log.c: log, log2, log10, log1p and their float versions, evaluated in
 * double-double (kernels.c) and rounded once. log(0) is -inf with ERANGE,
 * log of a negative number x86's default NaN with EDOM (glibc's errno
 * conventions). */
#include <math.h>

#include "libm.h"

/* The special cases shared by the log family; 1 if *r is the result. */
static int log_special(double x, result *r)
{
    if (x != x) {
        *r = exact_result(x + x);
        return 1;
    }
    if (x < 0) {
        *r = exact_result(set_errno(default_nan(), EDOM));
        return 1;
    }
    if (x == 0) {
        *r = exact_result(set_errno(-__builtin_inf(), ERANGE));
        return 1;
    }
    if (exp_field(x) == 0x7ff) {
        *r = exact_result(x);
        return 1;
    }
    if (x == 1) {
        *r = exact_result(0.0);
        return 1;
    }
    return 0;
}

static result log_core(double x, int acc)
{
    result r;
    if (log_special(x, &r))
        return r;
    return dd_result(__dd_log(dd_from(x), acc), 0);
}

double log(double x) { TWO_PHASE_DOUBLE(log_core, x); }
float logf(float x) { TWO_PHASE_FLOAT(log_core, x); }

static result log2_core(double x, int acc)
{
    result r;
    if (log_special(x, &r))
        return r;
    uint64_t b = asu64(x);
    if ((b & 0xfffffffffffffULL) == 0)
        return exact_result((double)((int)(b >> 52) - 1023)); /* a power of two */
    return dd_result(dd_mul(__dd_log(dd_from(x), acc), __dd_inv_ln2), 0);
}

double log2(double x) { TWO_PHASE_DOUBLE(log2_core, x); }
float log2f(float x) { TWO_PHASE_FLOAT(log2_core, x); }

static result log10_core(double x, int acc)
{
    result r;
    if (log_special(x, &r))
        return r;
    /* exact powers of ten */
    double p = 10;
    for (int n = 1; n <= 22; n++, p *= 10)
        if (x == p)
            return exact_result((double)n);
    return dd_result(dd_mul(__dd_log(dd_from(x), acc), __dd_inv_ln10), 0);
}

double log10(double x) { TWO_PHASE_DOUBLE(log10_core, x); }
float log10f(float x) { TWO_PHASE_FLOAT(log10_core, x); }

static result log1p_core(double x, int acc)
{
    if (x != x)
        return exact_result(x + x);
    if (x < -1)
        return exact_result(set_errno(default_nan(), EDOM));
    if (x == -1)
        return exact_result(set_errno(-__builtin_inf(), ERANGE));
    if (exp_field(x) == 0x7ff)
        return exact_result(x);
    if (x > -0x1p-60 && x < 0x1p-60)
        return exact_result(x); /* log1p(x) = x - x^2/2: rounds to x */
    return dd_result(__dd_log(two_sum(1.0, x), acc), 0);
}

double log1p(double x) { TWO_PHASE_DOUBLE(log1p_core, x); }
float log1pf(float x) { TWO_PHASE_FLOAT(log1p_core, x); }
