/* ubsan.c: a small runtime for -fsanitize=undefined. clang calls
 * __ubsan_handle_CHECK(data, values...) when a check fails; data starts
 * with the source location (file, line, column). Each report is one line on
 * stderr in UBSan's format, "FILE:LINE:COL: runtime error: WHAT", where
 * WHAT names the check and, where clang passes one, the type. The plain
 * handlers return (the program goes on, as with UBSan's default recovery);
 * the _abort forms (-fno-sanitize-recover) and the unrecoverable checks
 * (__builtin_unreachable reached, a missing return) abort: status 134.
 * -fsanitize-trap=undefined needs none of this (a failed check aborts). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The handlers take the values clang passes but report only the check. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

struct source_location {
    const char *file;
    unsigned line;
    unsigned column;
};

/* clang's type descriptor: kind, info, then the quoted type name. */
struct type_descriptor {
    unsigned short kind;
    unsigned short info;
    char name[1];
};

/* The data of the checks that name one type right after the location. */
struct typed_data {
    struct source_location loc;
    const struct type_descriptor *type;
};

static void report(const struct source_location *loc, const char *what, const struct type_descriptor *type)
{
    char buf[320];
    const char *file = loc && loc->file ? loc->file : "<unknown>";
    int n = snprintf(buf, sizeof buf, "%s:%u:%u: runtime error: %s%s%s\n", file, loc ? loc->line : 0,
                     loc ? loc->column : 0, what, type ? " of type " : "", type ? type->name : "");
    if (n > (int)sizeof buf - 1)
        n = (int)sizeof buf - 1;
    write(2, buf, (size_t)n);
}

/* A handler and its -fno-sanitize-recover form. */
#define HANDLER(check, what, typed, params)                                            \
    void __ubsan_handle_##check params                                                 \
    {                                                                                  \
        report(&((struct typed_data *)data)->loc, what,                               \
               typed ? ((struct typed_data *)data)->type : 0);                        \
    }                                                                                  \
    _Noreturn void __ubsan_handle_##check##_abort params                               \
    {                                                                                  \
        report(&((struct typed_data *)data)->loc, what,                               \
               typed ? ((struct typed_data *)data)->type : 0);                        \
        abort();                                                                       \
    }

typedef void *value;

HANDLER(add_overflow, "signed integer overflow in addition", 1, (void *data, value a, value b))
HANDLER(sub_overflow, "signed integer overflow in subtraction", 1, (void *data, value a, value b))
HANDLER(mul_overflow, "signed integer overflow in multiplication", 1, (void *data, value a, value b))
HANDLER(negate_overflow, "negation overflows", 1, (void *data, value a))
HANDLER(divrem_overflow, "division by zero or overflow in division", 1, (void *data, value a, value b))
HANDLER(shift_out_of_bounds, "shift exponent or result out of bounds", 0, (void *data, value a, value b))
HANDLER(out_of_bounds, "index out of bounds for an array", 1, (void *data, value index))
HANDLER(type_mismatch_v1, "null, misaligned or too small pointer used for an access", 1, (void *data, value ptr))
HANDLER(alignment_assumption, "alignment assumption violated", 0,
        (void *data, value ptr, value align, value offset))
HANDLER(load_invalid_value, "load of a value not valid for its type", 1, (void *data, value v))
HANDLER(vla_bound_not_positive, "variable length array bound is not positive", 1, (void *data, value bound))
HANDLER(float_cast_overflow, "floating-point value out of range of the integer type", 0, (void *data, value from))
HANDLER(nonnull_arg, "null pointer passed as an argument declared never null", 0, (void *data))
HANDLER(nonnull_return_v1, "null pointer returned from a function declared never to return null", 0,
        (void *data, void *loc))
HANDLER(nullability_arg, "null pointer passed as a _Nonnull argument", 0, (void *data))
HANDLER(nullability_return_v1, "null pointer returned as _Nonnull", 0, (void *data, void *loc))
HANDLER(pointer_overflow, "pointer arithmetic overflowed", 0, (void *data, value base, value result))
HANDLER(invalid_builtin, "invalid argument to a builtin (zero for clz/ctz)", 0, (void *data))
HANDLER(implicit_conversion, "implicit conversion changed the value", 1, (void *data, value src, value dst))
HANDLER(function_type_mismatch, "call through a pointer of the wrong function type", 0, (void *data, value f))

_Noreturn void __ubsan_handle_builtin_unreachable(void *data)
{
    report(data, "execution reached an unreachable program point", 0);
    abort();
}

_Noreturn void __ubsan_handle_missing_return(void *data)
{
    report(data, "execution reached the end of a value-returning function without returning a value", 0);
    abort();
}
