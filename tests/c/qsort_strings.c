// qsort_strings: sorting arrays of strings and of char arrays with strcmp-based comparators, and bsearch on them.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *words[] = {"pear", "apple", "fig", "banana", "cherry", "date", "elderberry", "grape", "kiwi", "lemon",
                       "mango", "apricot", "Zucchini", "avocado", "blueberry", "Apple", "fig2", "fi"};
#define NW (sizeof words / sizeof words[0])

static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }
static int cmp_len_then_str(const void *a, const void *b) {
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    size_t lx = strlen(x), ly = strlen(y);
    if (lx != ly)
        return lx < ly ? -1 : 1;
    return strcmp(x, y);
}
static int cmp_fixed(const void *a, const void *b) { return strcmp((const char *)a, (const char *)b); }
static int lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }
static int cmp_nocase(const void *a, const void *b) {
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    while (*x && lower(*x) == lower(*y)) {
        x++;
        y++;
    }
    int d = lower(*x) - lower(*y);
    if (d)
        return d;
    return strcmp(*(const char *const *)a, *(const char *const *)b); /* tie-break: total order */
}

int main(void) {
    const char *v[NW];
    memcpy(v, words, sizeof v);
    qsort(v, NW, sizeof v[0], cmp_str);
    for (unsigned i = 0; i < NW; i++)
        printf("%s%s", v[i], i + 1 < NW ? " " : "\n");
    const char *probe[] = {"kiwi", "Apple", "apples", "fi", "zzz"};
    for (unsigned i = 0; i < 5; i++) {
        const char **hit = bsearch(&probe[i], v, NW, sizeof v[0], cmp_str);
        printf("find %s: %d\n", probe[i], hit ? (int)(hit - v) : -1);
    }
    qsort(v, NW, sizeof v[0], cmp_len_then_str);
    for (unsigned i = 0; i < NW; i++)
        printf("%s%s", v[i], i + 1 < NW ? " " : "\n");
    qsort(v, NW, sizeof v[0], cmp_nocase);
    for (unsigned i = 0; i < NW; i++)
        printf("%s%s", v[i], i + 1 < NW ? " " : "\n");
    /* Fixed-size char arrays sorted in place (elements of 12 bytes). */
    char names[8][12] = {"delta", "alpha", "hotel", "charlie", "golf", "bravo", "foxtrot", "echo"};
    qsort(names, 8, sizeof names[0], cmp_fixed);
    for (int i = 0; i < 8; i++)
        printf("%s%s", names[i], i < 7 ? "," : "\n");
    char key[12] = "golf";
    char (*found)[12] = bsearch(key, names, 8, sizeof names[0], cmp_fixed);
    printf("golf at %d\n", found ? (int)(found - names) : -1);
    /* Sort characters of a string. */
    char letters[] = "thequickbrownfoxjumpsoverthelazydog";
    size_t n = strlen(letters);
    for (size_t i = 1; i < n; i++) {
        char c = letters[i];
        size_t j = i;
        while (j > 0 && letters[j - 1] > c) {
            letters[j] = letters[j - 1];
            j--;
        }
        letters[j] = c;
    }
    printf("%s\n", letters);
    return 0;
}
