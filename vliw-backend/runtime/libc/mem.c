/* mem.c: memory functions (memcpy memmove memset memcmp memchr and
 * relatives). The DSP faults on misaligned accesses, so whole words are
 * used only when both addresses are word-aligned; everything else goes
 * byte by byte. Written so that the compiler cannot turn a loop back into
 * a call to the function being defined (the runtime is built with
 * -ffreestanding, which disables that idiom recognition). */
#include <stdint.h>
#include <string.h>

typedef uint32_t __attribute__((__may_alias__)) word_t;

void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if ((((uintptr_t)d | (uintptr_t)s) & 3) == 0) {
        while (n >= 16) {
            word_t a = ((const word_t *)s)[0], b = ((const word_t *)s)[1];
            word_t c = ((const word_t *)s)[2], e = ((const word_t *)s)[3];
            ((word_t *)d)[0] = a;
            ((word_t *)d)[1] = b;
            ((word_t *)d)[2] = c;
            ((word_t *)d)[3] = e;
            d += 16;
            s += 16;
            n -= 16;
        }
        while (n >= 4) {
            *(word_t *)d = *(const word_t *)s;
            d += 4;
            s += 4;
            n -= 4;
        }
    }
    while (n--)
        *d++ = *s++;
    return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (d == s || n == 0)
        return dst;
    if (d < s || d >= s + n)
        return memcpy(dst, src, n);
    /* Overlapping with dst above src: copy backwards. */
    d += n;
    s += n;
    if ((((uintptr_t)d | (uintptr_t)s) & 3) == 0) {
        while (n >= 4) {
            d -= 4;
            s -= 4;
            *(word_t *)d = *(const word_t *)s;
            n -= 4;
        }
    }
    while (n--)
        *--d = *--s;
    return dst;
}

void *memset(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    unsigned char b = (unsigned char)c;
    while (n > 0 && ((uintptr_t)d & 3)) {
        *d++ = b;
        n--;
    }
    if (n >= 4) {
        word_t w = b * 0x01010101u;
        while (n >= 16) {
            ((word_t *)d)[0] = w;
            ((word_t *)d)[1] = w;
            ((word_t *)d)[2] = w;
            ((word_t *)d)[3] = w;
            d += 16;
            n -= 16;
        }
        while (n >= 4) {
            *(word_t *)d = w;
            d += 4;
            n -= 4;
        }
    }
    while (n--)
        *d++ = b;
    return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;
    for (; n; n--, p++, q++)
        if (*p != *q)
            return *p - *q;
    return 0;
}

void *memchr(const void *s, int c, size_t n)
{
    const unsigned char *p = s;
    unsigned char b = (unsigned char)c;
    for (; n; n--, p++)
        if (*p == b)
            return (void *)p;
    return NULL;
}

void *memrchr(const void *s, int c, size_t n)
{
    const unsigned char *p = (const unsigned char *)s + n;
    unsigned char b = (unsigned char)c;
    while (n--)
        if (*--p == b)
            return (void *)p;
    return NULL;
}

void *mempcpy(void *restrict dst, const void *restrict src, size_t n)
{
    return (char *)memcpy(dst, src, n) + n;
}

void *memccpy(void *restrict dst, const void *restrict src, int c, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    unsigned char b = (unsigned char)c;
    for (; n; n--) {
        if ((*d++ = *s++) == b)
            return d;
    }
    return NULL;
}

void bzero(void *s, size_t n)
{
    memset(s, 0, n);
}

void bcopy(const void *src, void *dst, size_t n)
{
    memmove(dst, src, n);
}

int bcmp(const void *a, const void *b, size_t n)
{
    return memcmp(a, b, n);
}
