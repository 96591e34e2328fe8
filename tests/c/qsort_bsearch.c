// qsort_bsearch: qsort of ints, doubles and structs with multi-key comparators (total orders), and bsearch.
#include <stdio.h>
#include <stdlib.h>

struct rec {
    int dept;
    int salary;
    int id;
};

static int cmp_int(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}
static int cmp_int_desc(const void *a, const void *b) { return cmp_int(b, a); }
static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
/* dept ascending, salary descending, id ascending: a total order, so the result is unique. */
static int cmp_rec(const void *a, const void *b) {
    const struct rec *x = a, *y = b;
    if (x->dept != y->dept)
        return x->dept < y->dept ? -1 : 1;
    if (x->salary != y->salary)
        return x->salary > y->salary ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}
static int cmp_rec_id(const void *key, const void *elem) {
    int k = *(const int *)key;
    const struct rec *r = elem;
    return (k > r->id) - (k < r->id);
}

int main(void) {
    int a[100];
    unsigned s = 99;
    for (int i = 0; i < 100; i++) {
        s = s * 1103515245u + 12345u;
        a[i] = (int)((s >> 12) % 2001u) - 1000;
    }
    qsort(a, 100, sizeof a[0], cmp_int);
    int sorted = 1;
    for (int i = 1; i < 100; i++)
        sorted &= a[i - 1] <= a[i];
    printf("ints sorted %d: %d %d %d ... %d %d\n", sorted, a[0], a[1], a[2], a[98], a[99]);
    int keys[] = {a[0], a[50], a[99], 1001, -1001, 0};
    for (int k = 0; k < 6; k++) {
        int *hit = bsearch(&keys[k], a, 100, sizeof a[0], cmp_int);
        printf("bsearch %d: %s\n", keys[k], hit ? "found" : "missing");
    }
    qsort(a, 100, sizeof a[0], cmp_int_desc);
    printf("desc: %d %d ... %d\n", a[0], a[1], a[99]);
    /* Degenerate inputs. */
    int one[1] = {5};
    qsort(one, 1, sizeof one[0], cmp_int);
    qsort(one, 0, sizeof one[0], cmp_int);
    int same[20];
    for (int i = 0; i < 20; i++)
        same[i] = 3;
    qsort(same, 20, sizeof same[0], cmp_int);
    printf("one %d same %d %d\n", one[0], same[0], same[19]);
    double d[30];
    for (int i = 0; i < 30; i++)
        d[i] = ((i * 37) % 30 - 15) / 4.0;
    qsort(d, 30, sizeof d[0], cmp_double);
    printf("doubles: %g %g %g ... %g\n", d[0], d[1], d[2], d[29]);
    struct rec recs[24];
    for (int i = 0; i < 24; i++) {
        recs[i].id = 100 + (i * 7) % 24;
        recs[i].dept = (i * 5) % 4;
        recs[i].salary = 3000 + ((i * 13) % 6) * 500;
    }
    qsort(recs, 24, sizeof recs[0], cmp_rec);
    for (int i = 0; i < 24; i++)
        printf("rec dept %d salary %d id %d\n", recs[i].dept, recs[i].salary, recs[i].id);
    /* Sort by id, then bsearch with a key of a different type than the elements. */
    struct rec byid[24];
    for (int i = 0; i < 24; i++)
        byid[i] = recs[i];
    int (*by_id)(const void *, const void *) = cmp_rec_id;
    for (int i = 1; i < 24; i++) { /* insertion sort by id using the key comparator */
        struct rec t = byid[i];
        int j = i;
        while (j > 0 && by_id(&byid[j - 1].id, &t) > 0) {
            byid[j] = byid[j - 1];
            j--;
        }
        byid[j] = t;
    }
    for (int id = 98; id < 128; id += 6) {
        struct rec *r = bsearch(&id, byid, 24, sizeof byid[0], cmp_rec_id);
        printf("id %d: %s", id, r ? "found" : "missing");
        if (r)
            printf(" dept %d salary %d", r->dept, r->salary);
        printf("\n");
    }
    return 0;
}
