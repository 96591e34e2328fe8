#ifndef RING_H
#define RING_H
#define RING_CAP 16
struct ring {
    int data[RING_CAP];
    int head, count;
};
void ring_push(struct ring *r, int v);
int ring_pop(struct ring *r, int *v);
#endif
