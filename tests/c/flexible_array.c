// flexible_array: structs with flexible array members allocated with malloc, resized with realloc.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct buffer {
    unsigned len, cap;
    int data[];
};
struct message {
    int priority;
    char text[];
};

static struct buffer *buf_new(unsigned cap) {
    struct buffer *b = malloc(sizeof *b + cap * sizeof b->data[0]);
    if (!b)
        return NULL;
    b->len = 0;
    b->cap = cap;
    return b;
}
static struct buffer *buf_push(struct buffer *b, int v) {
    if (b->len == b->cap) {
        unsigned cap = b->cap * 2 + 1;
        struct buffer *nb = realloc(b, sizeof *b + cap * sizeof b->data[0]);
        if (!nb) {
            free(b);
            return NULL;
        }
        b = nb;
        b->cap = cap;
    }
    b->data[b->len++] = v;
    return b;
}
static struct message *msg_new(int prio, const char *text) {
    size_t n = strlen(text);
    struct message *m = malloc(sizeof *m + n + 1);
    if (!m)
        return NULL;
    m->priority = prio;
    memcpy(m->text, text, n + 1);
    return m;
}

int main(void) {
    struct buffer *b = buf_new(2);
    if (!b)
        return 1;
    unsigned grows = 0, last_cap = b->cap;
    for (int i = 0; i < 300; i++) {
        b = buf_push(b, i * i - 50 * i);
        if (!b)
            return 1;
        if (b->cap != last_cap) {
            grows++;
            last_cap = b->cap;
        }
    }
    long sum = 0;
    for (unsigned i = 0; i < b->len; i++)
        sum += b->data[i];
    printf("len %u cap %u grows %u sum %ld first %d last %d\n", b->len, b->cap, grows, sum, b->data[0],
           b->data[b->len - 1]);
    free(b);

    const char *texts[] = {"low", "urgent: disk full", "info", "warning: temperature", ""};
    struct message *msgs[5];
    for (int i = 0; i < 5; i++) {
        msgs[i] = msg_new((i * 7) % 5, texts[i]);
        if (!msgs[i])
            return 1;
    }
    /* Selection sort by priority, then print. */
    for (int i = 0; i < 5; i++) {
        int best = i;
        for (int j = i + 1; j < 5; j++)
            if (msgs[j]->priority > msgs[best]->priority)
                best = j;
        struct message *t = msgs[i];
        msgs[i] = msgs[best];
        msgs[best] = t;
    }
    for (int i = 0; i < 5; i++) {
        printf("prio %d: '%s' (%u chars)\n", msgs[i]->priority, msgs[i]->text, (unsigned)strlen(msgs[i]->text));
        free(msgs[i]);
    }
    return 0;
}
