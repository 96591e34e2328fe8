/* qsort.c: qsort as glibc 2.36 does it for memory that fits: a top-down
 * merge sort (split n/2 | n - n/2, merge taking the left element while
 * cmp(left, right) <= 0), so it is stable and calls the comparison function
 * on the same pairs in the same order; without memory for the merge buffer
 * it falls back to a stable insertion sort. bsearch is glibc's loop. */
#include <stdlib.h>
#include <string.h>

typedef int (*cmp_fn)(const void *, const void *);

struct sorter {
    size_t size;
    cmp_fn cmp;
    char *tmp;
};

static void msort(const struct sorter *st, char *b, size_t n)
{
    if (n <= 1)
        return;
    size_t s = st->size;
    size_t n1 = n / 2, n2 = n - n1;
    char *b1 = b, *b2 = b + n1 * s;
    msort(st, b1, n1);
    msort(st, b2, n2);
    char *out = st->tmp;
    while (n1 > 0 && n2 > 0) {
        if (st->cmp(b1, b2) <= 0) {
            memcpy(out, b1, s);
            b1 += s;
            n1--;
        } else {
            memcpy(out, b2, s);
            b2 += s;
            n2--;
        }
        out += s;
    }
    if (n1 > 0)
        memcpy(out, b1, n1 * s);
    memcpy(b, st->tmp, (n - n2) * s);
}

static void insertion_sort(char *b, size_t n, size_t s, cmp_fn cmp)
{
    char tmp[64];
    for (size_t i = 1; i < n; i++) {
        size_t j = i;
        while (j > 0 && cmp(b + (j - 1) * s, b + i * s) > 0)
            j--;
        if (j == i)
            continue;
        /* Rotate element i down to position j, in chunks of 64 bytes. */
        for (size_t off = 0; off < s; off += sizeof tmp) {
            size_t k = s - off < sizeof tmp ? s - off : sizeof tmp;
            memcpy(tmp, b + i * s + off, k);
            for (size_t m = i; m > j; m--)
                memcpy(b + m * s + off, b + (m - 1) * s + off, k);
            memcpy(b + j * s + off, tmp, k);
        }
    }
}

void qsort(void *base, size_t n, size_t size, cmp_fn cmp)
{
    if (n <= 1 || size == 0)
        return;
    char local[1024];
    struct sorter st = {size, cmp, local};
    if (n > sizeof local / size) {
        st.tmp = malloc(n * size);
        if (!st.tmp) {
            insertion_sort(base, n, size, cmp);
            return;
        }
    }
    msort(&st, base, n);
    if (st.tmp != local)
        free(st.tmp);
}

void *bsearch(const void *key, const void *base, size_t n, size_t size, cmp_fn cmp)
{
    size_t l = 0, u = n;
    while (l < u) {
        size_t idx = (l + u) / 2;
        const void *p = (const char *)base + idx * size;
        int c = cmp(key, p);
        if (c < 0)
            u = idx;
        else if (c > 0)
            l = idx + 1;
        else
            return (void *)p;
    }
    return NULL;
}
