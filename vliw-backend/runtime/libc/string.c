/* string.c: the string functions of string.h and strings.h. strtok keeps
 * its position in a static variable (the runtime is single-threaded). */
#include <stdlib.h>
#include <string.h>

size_t strlen(const char *s)
{
    const char *p = s;
    while (*p)
        p++;
    return (size_t)(p - s);
}

size_t strnlen(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && s[i])
        i++;
    return i;
}

char *strcpy(char *restrict d, const char *restrict s)
{
    char *r = d;
    while ((*d++ = *s++))
        ;
    return r;
}

char *stpcpy(char *restrict d, const char *restrict s)
{
    while ((*d = *s++))
        d++;
    return d;
}

char *strncpy(char *restrict d, const char *restrict s, size_t n)
{
    size_t i = 0;
    for (; i < n && s[i]; i++)
        d[i] = s[i];
    for (; i < n; i++)
        d[i] = 0;
    return d;
}

char *stpncpy(char *restrict d, const char *restrict s, size_t n)
{
    size_t i = 0;
    for (; i < n && s[i]; i++)
        d[i] = s[i];
    char *end = d + i;
    for (; i < n; i++)
        d[i] = 0;
    return end;
}

char *strcat(char *restrict d, const char *restrict s)
{
    strcpy(d + strlen(d), s);
    return d;
}

char *strncat(char *restrict d, const char *restrict s, size_t n)
{
    char *p = d + strlen(d);
    while (n && *s) {
        *p++ = *s++;
        n--;
    }
    *p = 0;
    return d;
}

int strcmp(const char *a, const char *b)
{
    const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
    while (*p && *p == *q) {
        p++;
        q++;
    }
    return *p - *q;
}

int strncmp(const char *a, const char *b, size_t n)
{
    const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
    if (n == 0)
        return 0;
    while (--n && *p && *p == *q) {
        p++;
        q++;
    }
    return *p - *q;
}

int strcoll(const char *a, const char *b)
{
    return strcmp(a, b);
}

size_t strxfrm(char *restrict d, const char *restrict s, size_t n)
{
    size_t len = strlen(s);
    if (n > len)
        strcpy(d, s);
    return len;
}

static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

int strcasecmp(const char *a, const char *b)
{
    const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
    while (*p && lower(*p) == lower(*q)) {
        p++;
        q++;
    }
    return lower(*p) - lower(*q);
}

int strncasecmp(const char *a, const char *b, size_t n)
{
    const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
    if (n == 0)
        return 0;
    while (--n && *p && lower(*p) == lower(*q)) {
        p++;
        q++;
    }
    return lower(*p) - lower(*q);
}

char *strchr(const char *s, int c)
{
    char b = (char)c;
    for (;; s++) {
        if (*s == b)
            return (char *)s;
        if (!*s)
            return NULL;
    }
}

char *strchrnul(const char *s, int c)
{
    char b = (char)c;
    while (*s && *s != b)
        s++;
    return (char *)s;
}

char *strrchr(const char *s, int c)
{
    char b = (char)c;
    const char *last = NULL;
    for (;; s++) {
        if (*s == b)
            last = s;
        if (!*s)
            return (char *)last;
    }
}

char *strstr(const char *h, const char *n)
{
    size_t nl = strlen(n);
    if (nl == 0)
        return (char *)h;
    for (; *h; h++)
        if (*h == *n && strncmp(h, n, nl) == 0)
            return (char *)h;
    return NULL;
}

char *strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    return d ? memcpy(d, s, n) : NULL;
}

char *strndup(const char *s, size_t n)
{
    size_t len = strnlen(s, n);
    char *d = malloc(len + 1);
    if (!d)
        return NULL;
    memcpy(d, s, len);
    d[len] = 0;
    return d;
}

size_t strspn(const char *s, const char *accept)
{
    size_t i = 0;
    while (s[i] && strchr(accept, s[i]))
        i++;
    return i;
}

size_t strcspn(const char *s, const char *reject)
{
    size_t i = 0;
    while (s[i] && !strchr(reject, s[i]))
        i++;
    return i;
}

char *strpbrk(const char *s, const char *accept)
{
    s += strcspn(s, accept);
    return *s ? (char *)s : NULL;
}

char *strtok_r(char *restrict s, const char *restrict delim, char **restrict save)
{
    if (s == NULL)
        s = *save;
    if (s == NULL)
        return NULL;
    s += strspn(s, delim);
    if (!*s) {
        *save = s;
        return NULL;
    }
    char *end = s + strcspn(s, delim);
    if (*end)
        *end++ = 0;
    *save = end;
    return s;
}

char *strtok(char *restrict s, const char *restrict delim)
{
    static char *save;
    return strtok_r(s, delim, &save);
}

char *strsep(char **restrict sp, const char *restrict delim)
{
    char *s = *sp;
    if (s == NULL)
        return NULL;
    char *end = s + strcspn(s, delim);
    if (*end)
        *end++ = 0, *sp = end;
    else
        *sp = NULL;
    return s;
}

int ffs(int i)
{
    unsigned v = (unsigned)i;
    if (!v)
        return 0;
    int n = 1;
    while (!(v & 1)) {
        v >>= 1;
        n++;
    }
    return n;
}
