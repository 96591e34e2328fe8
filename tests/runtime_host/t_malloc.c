/* t_malloc.c: the allocator under random malloc/calloc/realloc/free/
 * memalign traffic with content checks (every block filled with a pattern
 * derived from its id and checked before it is freed or resized), alignment
 * of every pointer, no overlap between live blocks, reuse after freeing
 * everything (coalescing), and the failure paths. */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "dsp.h"

#define SLOTS 512

struct blk {
    unsigned char *p;
    unsigned size;
    unsigned id;
};

static void fill(struct blk *b)
{
    for (unsigned i = 0; i < b->size; i++)
        b->p[i] = (unsigned char)(b->id * 31 + i * 7);
}

static int intact(const struct blk *b, unsigned n)
{
    for (unsigned i = 0; i < n && i < b->size; i++)
        if (b->p[i] != (unsigned char)(b->id * 31 + i * 7))
            return 0;
    return 1;
}

static unsigned rnd_size(void)
{
    unsigned r = rnd32() % 100;
    if (r < 60)
        return rnd32() % 64;
    if (r < 90)
        return rnd32() % 1024;
    if (r < 99)
        return rnd32() % 20000;
    return rnd32() % 400000;
}

void test_malloc(void)
{
    static struct blk slots[SLOTS];
    unsigned next_id = 1;
    int bad_content = 0, bad_align = 0, failed = 0;
    for (int round = 0; round < 3; round++) {
        for (int step = 0; step < 60000; step++) {
            struct blk *b = &slots[rnd32() % SLOTS];
            unsigned op = rnd32() % 10;
            if (b->p == NULL) {
                unsigned size = rnd_size();
                if (op < 6) {
                    b->p = dsp_malloc(size);
                } else if (op < 8) {
                    unsigned n = 1 + rnd32() % 8;
                    size = size / n * n;
                    b->p = dsp_calloc(n, size / n);
                    if (b->p)
                        for (unsigned i = 0; i < size; i++)
                            if (b->p[i])
                                bad_content++;
                } else {
                    unsigned align = 16u << (rnd32() % 9);
                    if (op == 8)
                        b->p = dsp_memalign(align, size);
                    else if (dsp_posix_memalign((void **)&b->p, align, size) != 0)
                        b->p = NULL;
                    if (b->p && ((uintptr_t)b->p & (align - 1)))
                        bad_align++;
                }
                if (!b->p) {
                    failed++;
                    continue;
                }
                if ((uintptr_t)b->p & 7)
                    bad_align++;
                b->size = size;
                b->id = next_id++;
                fill(b);
            } else if (op < 6) {
                if (!intact(b, b->size))
                    bad_content++;
                dsp_free(b->p);
                b->p = NULL;
            } else {
                unsigned size = rnd_size();
                unsigned char *q = dsp_realloc(b->p, size);
                if (size == 0) {
                    b->p = NULL; /* realloc(p, 0) frees, as in glibc */
                    continue;
                }
                if (!q) {
                    failed++;
                    continue;
                }
                b->p = q;
                if (!intact(b, size < b->size ? size : b->size))
                    bad_content++;
                b->size = size;
                fill(b);
            }
        }
        /* live blocks never overlap */
        int overlap = 0;
        for (int i = 0; i < SLOTS; i++)
            for (int j = i + 1; j < SLOTS; j++)
                if (slots[i].p && slots[j].p && slots[i].p < slots[j].p + slots[j].size &&
                    slots[j].p < slots[i].p + slots[i].size)
                    overlap++;
        check(overlap == 0, "malloc", "round %d: %d overlapping blocks", round, overlap);
        for (int i = 0; i < SLOTS; i++) {
            if (slots[i].p && !intact(&slots[i], slots[i].size))
                bad_content++;
            dsp_free(slots[i].p);
            slots[i].p = NULL;
        }
        /* everything merged back: one block of almost the whole heap fits */
        void *all = dsp_malloc(32u << 20 >> 1);
        check(all != NULL, "malloc", "round %d: a 16 MiB block after freeing everything", round);
        dsp_free(all);
        all = dsp_malloc((32u << 20) - 64);
        check(all != NULL, "malloc", "round %d: (heap - 64) bytes after freeing everything", round);
        dsp_free(all);
    }
    check(bad_content == 0, "malloc", "%d blocks with damaged contents", bad_content);
    check(bad_align == 0, "malloc", "%d misaligned blocks", bad_align);
    check(failed == 0, "malloc", "%d allocations failed", failed);
    /* failure paths */
    dsp_errno = 0;
    check(dsp_malloc(0xfffffff0u) == NULL && dsp_errno == 12, "malloc", "huge request fails with ENOMEM");
    check(dsp_calloc(0x10000, 0x10001) == NULL, "malloc", "calloc overflow");
    void *p = dsp_malloc(0), *q = dsp_malloc(0);
    check(p && q && p != q, "malloc", "malloc(0) gives distinct pointers");
    dsp_free(p);
    dsp_free(q);
    dsp_free(NULL);
    void *r = NULL;
    check(dsp_posix_memalign(&r, 3, 10) == 22 && dsp_posix_memalign(&r, 2, 10) == 22, "malloc",
          "posix_memalign rejects bad alignments");
    r = dsp_realloc(NULL, 10);
    check(r != NULL, "malloc", "realloc(NULL, n)");
    check(dsp_realloc(r, 0) == NULL, "malloc", "realloc(p, 0) frees");
}
