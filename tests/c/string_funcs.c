// string_funcs: <string.h> string functions: strlen strcpy strncpy strcat strncat strcmp strncmp strchr strrchr strstr strspn strcspn strpbrk.
#include <stdio.h>
#include <string.h>

const char *words[] = {"apple", "Apple", "banana", "app", "", "apples", "zebra", "apple"};

char long_src[] = "0123456789ABC";
char suffix[] = "!!!???";
size_t suffix_len = 3;
volatile size_t pad_len = 10;

static int sgn(int v) { return (v > 0) - (v < 0); }

int main(void) {
    unsigned n = sizeof words / sizeof words[0];
    for (unsigned i = 0; i < n; i++) {
        printf("'%s' len %u:", words[i], (unsigned)strlen(words[i]));
        for (unsigned j = 0; j < n; j++)
            printf(" %d", sgn(strcmp(words[i], words[j])));
        printf(" | n3:");
        for (unsigned j = 0; j < n; j++)
            printf(" %d", sgn(strncmp(words[i], words[j], 3)));
        printf("\n");
    }
    char buf[64];
    strcpy(buf, "Hello");
    strcat(buf, ", ");
    strcat(buf, "world");
    strncat(buf, suffix, suffix_len);
    printf("built '%s' (%u)\n", buf, (unsigned)strlen(buf));
    char pad[10];
    memset(pad, 'x', sizeof pad);
    strncpy(pad, "abc", sizeof pad); /* pads with zeros */
    int zeros = 0;
    for (unsigned i = 0; i < sizeof pad; i++)
        zeros += pad[i] == 0;
    printf("strncpy pad zeros %d\n", zeros);
    strncpy(pad, long_src, pad_len); /* no terminator */
    printf("strncpy full: %.10s last %c\n", pad, pad[9]);
    const char *text = "the rain in spain stays mainly in the plain";
    const char *p = strchr(text, 'a');
    const char *q = strrchr(text, 'a');
    printf("strchr a at %d, strrchr a at %d, strchr z %s, strchr nul at %d\n", (int)(p - text), (int)(q - text),
           strchr(text, 'z') ? "found" : "null", (int)(strchr(text, 0) - text));
    const char *needles[] = {"ain", "spain", "the", "xyz", "", "plain", "n t"};
    for (unsigned i = 0; i < sizeof needles / sizeof needles[0]; i++) {
        const char *hit = strstr(text, needles[i]);
        printf("strstr '%s': %d\n", needles[i], hit ? (int)(hit - text) : -1);
    }
    int count = 0;
    for (const char *s = text; (s = strstr(s, "in")) != NULL; s++)
        count++;
    printf("'in' occurs %d times\n", count);
    printf("strspn %u strcspn %u strpbrk '%s'\n", (unsigned)strspn("  \tindent", " \t"),
           (unsigned)strcspn(text, "xyz "), strpbrk(text, "sp"));
    /* Splitting on spaces with strcspn/strspn. */
    const char *s = "  alpha beta   gamma delta ";
    int fields = 0;
    while (*s) {
        s += strspn(s, " ");
        size_t len = strcspn(s, " ");
        if (len == 0)
            break;
        printf("field %d: '%.*s'\n", fields++, (int)len, s);
        s += len;
    }
    /* Copy in place and compare prefixes. */
    char line[] = "prefix:payload";
    char *colon = strchr(line, ':');
    *colon = 0;
    printf("key '%s' value '%s' cmp %d\n", line, colon + 1, sgn(strcmp(line, "prefix")));
    return 0;
}
