/* malloc.h: the allocator's declarations (as glibc's header), plus
 * malloc_usable_size. */
#ifndef _MALLOC_H
#define _MALLOC_H

#ifndef __DSP_SIZE_T
#define __DSP_SIZE_T
typedef __SIZE_TYPE__ size_t;
#endif

void *malloc(size_t);
void *calloc(size_t, size_t);
void *realloc(void *, size_t);
void free(void *);
void *memalign(size_t, size_t);
void *valloc(size_t);
size_t malloc_usable_size(void *);
int malloc_trim(size_t);

#endif
