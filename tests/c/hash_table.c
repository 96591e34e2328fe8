// hash_table: a string-keyed hash table with separate chaining, resizing, lookups and deletion.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct entry {
    char key[16];
    int value;
    struct entry *next;
};
struct table {
    struct entry **buckets;
    unsigned nbuckets, count;
};

static unsigned hash(const char *s) {
    unsigned h = 2166136261u;
    while (*s)
        h = (h ^ (unsigned char)*s++) * 16777619u;
    return h;
}
static int init(struct table *t, unsigned n) {
    t->buckets = calloc(n, sizeof *t->buckets);
    t->nbuckets = n;
    t->count = 0;
    return t->buckets != NULL;
}
static void resize(struct table *t) {
    struct table bigger;
    if (!init(&bigger, t->nbuckets * 2))
        exit(2);
    for (unsigned i = 0; i < t->nbuckets; i++) {
        struct entry *e = t->buckets[i];
        while (e) {
            struct entry *next = e->next;
            unsigned b = hash(e->key) % bigger.nbuckets;
            e->next = bigger.buckets[b];
            bigger.buckets[b] = e;
            bigger.count++;
            e = next;
        }
    }
    free(t->buckets);
    *t = bigger;
}
static void put(struct table *t, const char *key, int value) {
    unsigned b = hash(key) % t->nbuckets;
    for (struct entry *e = t->buckets[b]; e; e = e->next)
        if (strcmp(e->key, key) == 0) {
            e->value = value;
            return;
        }
    struct entry *e = malloc(sizeof *e);
    if (!e)
        exit(2);
    size_t n = strlen(key);
    if (n >= sizeof e->key)
        n = sizeof e->key - 1;
    memcpy(e->key, key, n);
    e->key[n] = 0;
    e->value = value;
    e->next = t->buckets[b];
    t->buckets[b] = e;
    if (++t->count > t->nbuckets * 2)
        resize(t);
}
static int get(const struct table *t, const char *key, int *out) {
    for (struct entry *e = t->buckets[hash(key) % t->nbuckets]; e; e = e->next)
        if (strcmp(e->key, key) == 0) {
            *out = e->value;
            return 1;
        }
    return 0;
}
static int del(struct table *t, const char *key) {
    struct entry **link = &t->buckets[hash(key) % t->nbuckets];
    for (; *link; link = &(*link)->next)
        if (strcmp((*link)->key, key) == 0) {
            struct entry *dead = *link;
            *link = dead->next;
            free(dead);
            t->count--;
            return 1;
        }
    return 0;
}

int main(void) {
    struct table t;
    if (!init(&t, 4))
        return 2;
    char key[16];
    for (int i = 0; i < 300; i++) {
        snprintf(key, sizeof key, "k%d", (i * 7919) % 1000);
        put(&t, key, i);
    }
    printf("count %u buckets %u\n", t.count, t.nbuckets);
    int found = 0, missing = 0;
    long vsum = 0;
    for (int i = 0; i < 1000; i += 3) {
        int v;
        snprintf(key, sizeof key, "k%d", i);
        if (get(&t, key, &v)) {
            found++;
            vsum += v;
        } else
            missing++;
    }
    printf("found %d missing %d vsum %ld\n", found, missing, vsum);
    int deleted = 0;
    for (int i = 0; i < 1000; i += 2) {
        snprintf(key, sizeof key, "k%d", i);
        deleted += del(&t, key);
    }
    printf("deleted %d count %u\n", deleted, t.count);
    unsigned longest = 0, empty = 0;
    for (unsigned b = 0; b < t.nbuckets; b++) {
        unsigned len = 0;
        for (struct entry *e = t.buckets[b]; e; e = e->next)
            len++;
        longest = len > longest ? len : longest;
        empty += len == 0;
    }
    printf("longest chain %u empty buckets %u hash(\"dsp\") %08x\n", longest, empty, hash("dsp"));
    for (unsigned b = 0; b < t.nbuckets; b++)
        while (t.buckets[b]) {
            struct entry *e = t.buckets[b];
            t.buckets[b] = e->next;
            free(e);
        }
    free(t.buckets);
    return 0;
}
