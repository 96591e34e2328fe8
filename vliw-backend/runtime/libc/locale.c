/* locale.c: the "C" locale, the only one. */
#include <limits.h>
#include <locale.h>
#include <string.h>

static struct lconv c_lconv = {".", "", "", "", "", "", "", "", "", "",
                               CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX,
                               CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX};

char *setlocale(int cat, const char *name)
{
    if (cat < 0 || cat > LC_ALL)
        return NULL;
    if (name == NULL || name[0] == 0 || strcmp(name, "C") == 0 || strcmp(name, "POSIX") == 0)
        return "C";
    return NULL;
}

struct lconv *localeconv(void)
{
    return &c_lconv;
}
