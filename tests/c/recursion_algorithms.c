// recursion_algorithms: recursive quicksort, merge sort, binary trees, permutations and the towers of Hanoi.
#include <stdio.h>
#include <stdlib.h>

struct node {
    int key;
    struct node *left, *right;
};

static void quicksort(int *a, int lo, int hi) {
    if (lo >= hi)
        return;
    int pivot = a[(lo + hi) / 2], i = lo, j = hi;
    while (i <= j) {
        while (a[i] < pivot) i++;
        while (a[j] > pivot) j--;
        if (i <= j) {
            int t = a[i];
            a[i++] = a[j];
            a[j--] = t;
        }
    }
    quicksort(a, lo, j);
    quicksort(a, i, hi);
}
static void merge_sort(int *a, int *tmp, int n) {
    if (n < 2)
        return;
    int h = n / 2;
    merge_sort(a, tmp, h);
    merge_sort(a + h, tmp, n - h);
    int i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
    while (i < h) tmp[k++] = a[i++];
    while (j < n) tmp[k++] = a[j++];
    for (k = 0; k < n; k++)
        a[k] = tmp[k];
}
static struct node *insert(struct node *t, int key) {
    if (!t) {
        t = malloc(sizeof *t);
        if (!t)
            exit(1);
        t->key = key;
        t->left = t->right = NULL;
    } else if (key < t->key)
        t->left = insert(t->left, key);
    else if (key > t->key)
        t->right = insert(t->right, key);
    return t;
}
static int height(const struct node *t) {
    if (!t) return 0;
    int l = height(t->left), r = height(t->right);
    return 1 + (l > r ? l : r);
}
static long long inorder_checksum(const struct node *t, long long acc) {
    if (!t) return acc;
    acc = inorder_checksum(t->left, acc);
    acc = (acc * 31 + t->key) % 1000000007LL;
    return inorder_checksum(t->right, acc);
}
static void free_tree(struct node *t) {
    if (!t) return;
    free_tree(t->left);
    free_tree(t->right);
    free(t);
}
static long hanoi(int n, int from, int to, int via, int *moves_to) {
    if (n == 0) return 0;
    long m = hanoi(n - 1, from, via, to, moves_to);
    moves_to[to]++;
    return m + 1 + hanoi(n - 1, via, to, from, moves_to);
}
static int permute(char *s, int k, int n, int *count) {
    if (k == n) {
        (*count)++;
        if (*count % 20 == 1)
            printf("perm %d: %s\n", *count, s);
        return 1;
    }
    int total = 0;
    for (int i = k; i < n; i++) {
        char t = s[k]; s[k] = s[i]; s[i] = t;
        total += permute(s, k + 1, n, count);
        t = s[k]; s[k] = s[i]; s[i] = t;
    }
    return total;
}

int main(void) {
    int a[200], b[200], tmp[200];
    unsigned seed = 7;
    for (int i = 0; i < 200; i++) {
        seed = seed * 1664525u + 1013904223u;
        a[i] = b[i] = (int)(seed >> 16) % 1000 - 500;
    }
    quicksort(a, 0, 199);
    merge_sort(b, tmp, 200);
    int same = 1;
    for (int i = 0; i < 200; i++)
        same &= a[i] == b[i];
    printf("sorted: %d %d %d ... %d, same %d\n", a[0], a[1], a[2], a[199], same);
    struct node *t = NULL;
    for (int i = 0; i < 200; i++)
        t = insert(t, (i * 37) % 211);
    printf("tree height %d checksum %lld\n", height(t), inorder_checksum(t, 0));
    free_tree(t);
    int moves_to[3] = {0, 0, 0};
    long moves = hanoi(12, 0, 2, 1, moves_to);
    printf("hanoi(12) %ld moves, to pegs %d %d %d\n", moves, moves_to[0], moves_to[1], moves_to[2]);
    char s[] = "abcde";
    int count = 0;
    printf("permutations %d\n", permute(s, 0, 5, &count));
    return 0;
}
