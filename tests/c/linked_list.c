// linked_list: singly and doubly linked lists with malloc: insert, delete, reverse, merge sort, and free.
#include <stdio.h>
#include <stdlib.h>

struct node {
    int value;
    struct node *next;
};
struct dnode {
    int value;
    struct dnode *prev, *next;
};

static struct node *push(struct node *head, int v) {
    struct node *n = malloc(sizeof *n);
    if (!n)
        exit(2);
    n->value = v;
    n->next = head;
    return n;
}
static struct node *reverse(struct node *h) {
    struct node *prev = NULL;
    while (h) {
        struct node *next = h->next;
        h->next = prev;
        prev = h;
        h = next;
    }
    return prev;
}
static struct node *remove_if_multiple(struct node *h, int m, int *removed) {
    struct node **link = &h;
    while (*link) {
        if ((*link)->value % m == 0) {
            struct node *dead = *link;
            *link = dead->next;
            free(dead);
            (*removed)++;
        } else
            link = &(*link)->next;
    }
    return h;
}
static struct node *merge(struct node *a, struct node *b) {
    struct node head = {0, NULL}, *t = &head;
    while (a && b) {
        if (a->value <= b->value) { t->next = a; a = a->next; }
        else { t->next = b; b = b->next; }
        t = t->next;
    }
    t->next = a ? a : b;
    return head.next;
}
static struct node *sort(struct node *h) {
    if (!h || !h->next)
        return h;
    struct node *slow = h, *fast = h->next;
    while (fast && fast->next) {
        slow = slow->next;
        fast = fast->next->next;
    }
    struct node *second = slow->next;
    slow->next = NULL;
    return merge(sort(h), sort(second));
}
static void print_list(const char *label, const struct node *h, int max) {
    printf("%s:", label);
    int n = 0;
    for (; h && n < max; h = h->next, n++)
        printf(" %d", h->value);
    printf("%s\n", h ? " ..." : "");
}
static void free_list(struct node *h) {
    while (h) {
        struct node *n = h->next;
        free(h);
        h = n;
    }
}

int main(void) {
    struct node *list = NULL;
    for (int i = 0; i < 40; i++)
        list = push(list, (i * 17) % 41 - 20);
    print_list("pushed", list, 12);
    list = reverse(list);
    print_list("reversed", list, 12);
    int removed = 0;
    list = remove_if_multiple(list, 3, &removed);
    printf("removed %d\n", removed);
    list = sort(list);
    print_list("sorted", list, 30);
    int len = 0;
    long sum = 0;
    for (struct node *n = list; n; n = n->next) {
        len++;
        sum += n->value;
    }
    printf("len %d sum %ld\n", len, sum);
    free_list(list);
    /* Doubly linked ring with a sentinel: insert at both ends, walk both ways, unlink. */
    struct dnode sentinel = {0, &sentinel, &sentinel};
    for (int i = 1; i <= 10; i++) {
        struct dnode *n = malloc(sizeof *n);
        if (!n)
            return 2;
        n->value = i * i;
        if (i % 2) { /* append */
            n->prev = sentinel.prev; n->next = &sentinel;
        } else { /* prepend */
            n->prev = &sentinel; n->next = sentinel.next;
        }
        n->prev->next = n;
        n->next->prev = n;
    }
    printf("forward:");
    for (struct dnode *n = sentinel.next; n != &sentinel; n = n->next)
        printf(" %d", n->value);
    printf("\nbackward:");
    for (struct dnode *n = sentinel.prev; n != &sentinel; n = n->prev)
        printf(" %d", n->value);
    printf("\n");
    int freed = 0;
    while (sentinel.next != &sentinel) {
        struct dnode *n = sentinel.next;
        n->prev->next = n->next;
        n->next->prev = n->prev;
        free(n);
        freed++;
    }
    printf("freed %d, empty %d\n", freed, sentinel.next == &sentinel && sentinel.prev == &sentinel);
    return 0;
}
