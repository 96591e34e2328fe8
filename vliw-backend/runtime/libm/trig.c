/* trig.c: sin, cos, tan and their float versions: exact reduction modulo
 * pi/2 (Payne-Hanek, kernels.c), then the sine or cosine series of the
 * reduced argument in double-double, rounded once. Infinite arguments are
 * domain errors (EDOM, x86's default NaN). */
#include <math.h>

#include "libm.h"

static int trig_special(double x, result *r)
{
    if (x != x) {
        *r = exact_result(x + x);
        return 1;
    }
    if (exp_field(x) == 0x7ff) {
        *r = exact_result(set_errno(default_nan(), EDOM));
        return 1;
    }
    return 0;
}

static result sin_core(double x, int acc)
{
    result res;
    if (trig_special(x, &res))
        return res;
    if (x > -0x1p-27 && x < 0x1p-27)
        return exact_result(x); /* sin x = x - x^3/6 rounds to x */
    int q;
    dd r = __dd_rem_pio2(x, &q);
    dd v = (q & 1) ? __dd_cos_kernel(r, acc) : __dd_sin_kernel(r, acc);
    return dd_result(q & 2 ? dd_neg(v) : v, 0);
}

static result cos_core(double x, int acc)
{
    result res;
    if (trig_special(x, &res))
        return res;
    if (x > -0x1p-27 && x < 0x1p-27)
        return dd_result(dd_add_d(dd_from(-0x1p-60), 1.0), 0); /* 1 - x^2/2 */
    int q;
    dd r = __dd_rem_pio2(x, &q);
    dd v = (q & 1) ? __dd_sin_kernel(r, acc) : __dd_cos_kernel(r, acc);
    return dd_result((q == 1 || q == 2) ? dd_neg(v) : v, 0);
}

static result tan_core(double x, int acc)
{
    result res;
    if (trig_special(x, &res))
        return res;
    if (x > -0x1p-27 && x < 0x1p-27)
        return exact_result(x); /* tan x = x + x^3/3 rounds to x */
    int q;
    dd r = __dd_rem_pio2(x, &q);
    dd s = __dd_sin_kernel(r, acc), c = __dd_cos_kernel(r, acc);
    dd t = (q & 1) ? dd_neg(dd_div(c, s)) : dd_div(s, c);
    return dd_result(t, 0);
}

double sin(double x) { TWO_PHASE_DOUBLE(sin_core, x); }
double cos(double x) { TWO_PHASE_DOUBLE(cos_core, x); }
double tan(double x) { TWO_PHASE_DOUBLE(tan_core, x); }
float sinf(float x) { TWO_PHASE_FLOAT(sin_core, x); }
float cosf(float x) { TWO_PHASE_FLOAT(cos_core, x); }
float tanf(float x) { TWO_PHASE_FLOAT(tan_core, x); }
