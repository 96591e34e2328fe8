/* malloc.c: the heap allocator (malloc, calloc, realloc, free and the
 * aligned variants) on the memory between the linker symbols __heap_start
 * and __heap_end.
 *
 * Boundary-tag chunks with segregated free lists, in the manner of
 * dlmalloc (Doug Lea, "A Memory Allocator", 1996): every chunk starts with a
 * 4-byte header holding its size (a multiple of 8) and two bits, INUSE and
 * PREV_INUSE; a free chunk also keeps its size in its last word (the footer)
 * and links itself into the list of its size class. Payloads are 8-byte
 * aligned (chunks start 4 bytes before a multiple of 8). free() merges a
 * chunk with free neighbours at once, so no two free chunks are adjacent.
 * Small sizes (below 512 bytes) have one exact list per size; larger ones
 * four lists per power of two, searched first-fit; a bitmap finds the next
 * non-empty list. A header of size 0 marked in use ends the heap. Every
 * decision is deterministic. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

extern char __heap_start[];
extern char __heap_end[];

#define INUSE 1u
#define PREV_INUSE 2u
#define FLAGS 7u
#define MIN_CHUNK 16u
#define SMALL_LIMIT 512u
#define NBINS 192
#define BITMAP_WORDS ((NBINS + 31) / 32)

typedef struct chunk {
    uint32_t head;       /* size | INUSE | PREV_INUSE */
    struct chunk *next;  /* free chunks only: list links */
    struct chunk *prev;
} chunk;

struct heap {
    int ready;
    char *lo, *hi;       /* first chunk, end fencepost */
    chunk *bins[NBINS];
    uint32_t bitmap[BITMAP_WORDS];
};

static struct heap heap;

static uint32_t csize(const chunk *c) { return c->head & ~FLAGS; }
static chunk *at(const void *p, uint32_t off) { return (chunk *)((char *)p + off); }
static chunk *next_chunk(const chunk *c) { return at(c, csize(c)); }
static void *payload(chunk *c) { return (char *)c + 4; }
static chunk *chunk_of(void *p) { return (chunk *)((char *)p - 4); }
static void set_footer(chunk *c) { *(uint32_t *)((char *)c + csize(c) - 4) = csize(c); }

static int floor_log2(uint32_t v)
{
    int n = 0;
    while (v >>= 1)
        n++;
    return n;
}

static int bin_of(uint32_t size)
{
    if (size < SMALL_LIMIT)
        return (int)(size >> 3);
    int lg = floor_log2(size); /* >= 9 */
    int b = 64 + (lg - 9) * 4 + (int)((size >> (lg - 2)) & 3);
    return b < NBINS ? b : NBINS - 1;
}

static void bin_insert(chunk *c)
{
    int b = bin_of(csize(c));
    c->prev = NULL;
    c->next = heap.bins[b];
    if (c->next)
        c->next->prev = c;
    heap.bins[b] = c;
    heap.bitmap[b >> 5] |= 1u << (b & 31);
}

static void bin_remove(chunk *c)
{
    int b = bin_of(csize(c));
    if (c->prev)
        c->prev->next = c->next;
    else
        heap.bins[b] = c->next;
    if (c->next)
        c->next->prev = c->prev;
    if (!heap.bins[b])
        heap.bitmap[b >> 5] &= ~(1u << (b & 31));
}

static int heap_init(void)
{
    uintptr_t lo = (uintptr_t)__heap_start, hi = (uintptr_t)__heap_end;
    lo = ((lo + 4 + 7) & ~(uintptr_t)7) - 4; /* chunk at 8k + 4: payload 8-aligned */
    hi = ((hi - 4) & ~(uintptr_t)7) - 4;     /* fencepost header at 8k + 4 */
    if (hi <= lo || hi - lo < 2 * MIN_CHUNK)
        return -1;
    heap.lo = (char *)lo;
    heap.hi = (char *)hi;
    chunk *first = (chunk *)lo;
    first->head = (uint32_t)(hi - lo) | PREV_INUSE;
    set_footer(first);
    ((chunk *)hi)->head = INUSE; /* size 0: the end; PREV_INUSE clear */
    bin_insert(first);
    heap.ready = 1;
    return 0;
}

/* Chunk size for a request of n bytes, or 0 if it cannot exist. */
static uint32_t request_size(size_t n)
{
    if (n > 0x7ffffff0u)
        return 0;
    uint32_t s = ((uint32_t)n + 4 + 7) & ~7u;
    return s < MIN_CHUNK ? MIN_CHUNK : s;
}

/* Marks c (free, out of the lists) in use with size need; the rest, if large
 * enough, becomes a free chunk. */
static void use_chunk(chunk *c, uint32_t need)
{
    uint32_t size = csize(c);
    uint32_t prev_flag = c->head & PREV_INUSE;
    if (size - need >= MIN_CHUNK) {
        c->head = need | INUSE | prev_flag;
        chunk *rest = at(c, need);
        rest->head = (size - need) | PREV_INUSE;
        set_footer(rest);
        bin_insert(rest);
    } else {
        c->head = size | INUSE | prev_flag;
        next_chunk(c)->head |= PREV_INUSE;
    }
}

static chunk *find_free(uint32_t need)
{
    int b = bin_of(need);
    /* The own list: first fit (exact for small sizes). */
    for (chunk *c = heap.bins[b]; c; c = c->next)
        if (csize(c) >= need)
            return c;
    /* Any chunk of a larger list fits. */
    for (int w = (b + 1) >> 5; w < BITMAP_WORDS; w++) {
        uint32_t bits = heap.bitmap[w];
        if (w == (b + 1) >> 5)
            bits &= ~0u << ((b + 1) & 31);
        if (bits) {
            int bit = 0;
            while (!(bits & 1)) {
                bits >>= 1;
                bit++;
            }
            return heap.bins[w * 32 + bit];
        }
    }
    return NULL;
}

void *malloc(size_t n)
{
    uint32_t need = request_size(n);
    if (!heap.ready && heap_init() != 0)
        need = 0;
    chunk *c = need ? find_free(need) : NULL;
    if (!c) {
        errno = ENOMEM;
        return NULL;
    }
    bin_remove(c);
    use_chunk(c, need);
    return payload(c);
}

/* Returns the free chunk c to the lists, merged with free neighbours. */
static void release(chunk *c)
{
    uint32_t size = csize(c);
    chunk *nx = at(c, size);
    if (!(nx->head & INUSE)) {
        bin_remove(nx);
        size += csize(nx);
    }
    if (!(c->head & PREV_INUSE)) {
        uint32_t psize = *(uint32_t *)((char *)c - 4);
        chunk *pv = (chunk *)((char *)c - psize);
        bin_remove(pv);
        size += psize;
        c = pv;
    }
    c->head = size | PREV_INUSE; /* the chunk before a free one is in use */
    set_footer(c);
    next_chunk(c)->head &= ~PREV_INUSE;
    bin_insert(c);
}

void free(void *p)
{
    if (p)
        release(chunk_of(p));
}

void *calloc(size_t n, size_t m)
{
    if (m && n > (size_t)-1 / m) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = malloc(n * m);
    if (p)
        memset(p, 0, n * m);
    return p;
}

/* Cuts the in-use chunk c down to size need (<= its size), freeing the rest. */
static void shrink(chunk *c, uint32_t need)
{
    uint32_t size = csize(c);
    if (size - need < MIN_CHUNK)
        return;
    c->head = need | (c->head & FLAGS);
    chunk *rest = at(c, need);
    rest->head = (size - need) | INUSE | PREV_INUSE;
    release(rest);
}

void *realloc(void *p, size_t n)
{
    if (!p)
        return malloc(n);
    if (n == 0) {
        free(p);
        return NULL;
    }
    uint32_t need = request_size(n);
    if (!need) {
        errno = ENOMEM;
        return NULL;
    }
    chunk *c = chunk_of(p);
    uint32_t size = csize(c);
    if (need <= size) {
        shrink(c, need);
        return p;
    }
    chunk *nx = next_chunk(c);
    if (!(nx->head & INUSE) && size + csize(nx) >= need) {
        bin_remove(nx);
        c->head = (size + csize(nx)) | (c->head & FLAGS);
        next_chunk(c)->head |= PREV_INUSE;
        shrink(c, need);
        return p;
    }
    void *q = malloc(n);
    if (!q)
        return NULL;
    memcpy(q, p, size - 4);
    free(p);
    return q;
}

void *reallocarray(void *p, size_t n, size_t m)
{
    if (m && n > (size_t)-1 / m) {
        errno = ENOMEM;
        return NULL;
    }
    return realloc(p, n * m);
}

void *memalign(size_t align, size_t n)
{
    if (align <= 8)
        return malloc(n);
    if (align & (align - 1)) {
        errno = EINVAL;
        return NULL;
    }
    uint32_t need = request_size(n);
    if (!need || align > 0x10000000u) {
        errno = ENOMEM;
        return NULL;
    }
    char *raw = malloc(need + align + MIN_CHUNK);
    if (!raw)
        return NULL;
    chunk *c = chunk_of(raw);
    uintptr_t aligned = ((uintptr_t)raw + align - 1) & ~(uintptr_t)(align - 1);
    if (aligned != (uintptr_t)raw) {
        /* Leave room for a free chunk in front. */
        while (aligned - (uintptr_t)raw < MIN_CHUNK)
            aligned += align;
        uint32_t lead = (uint32_t)(aligned - (uintptr_t)raw);
        uint32_t size = csize(c);
        chunk *d = chunk_of((void *)aligned);
        d->head = (size - lead) | INUSE | PREV_INUSE;
        c->head = lead | INUSE | (c->head & PREV_INUSE);
        release(c);
        c = d;
    }
    shrink(c, need);
    return payload(c);
}

int posix_memalign(void **out, size_t align, size_t n)
{
    if (align < sizeof(void *) || (align & (align - 1)))
        return EINVAL;
    int saved = errno;
    void *p = memalign(align, n);
    errno = saved;
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}

void *aligned_alloc(size_t align, size_t n)
{
    return memalign(align, n);
}

void *valloc(size_t n)
{
    return memalign(4096, n);
}

/* The payload bytes of an allocated block (its chunk less the header). */
size_t malloc_usable_size(void *p)
{
    if (!p)
        return 0;
    return csize(chunk_of(p)) - 4;
}

int malloc_trim(size_t pad)
{
    (void)pad;
    return 0;
}
