/* pthread.c: POSIX threads for the one thread a DSP program has (see
 * include/pthread.h for what each call does there). */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

/* The one thread's id. */
#define SELF 1

int pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*f)(void *), void *arg)
{
    (void)t; (void)a; (void)f; (void)arg;
    return ENOSYS;
}

int pthread_join(pthread_t t, void **ret) { (void)t; (void)ret; return ESRCH; }
int pthread_detach(pthread_t t) { return t == SELF ? 0 : ESRCH; }
pthread_t pthread_self(void) { return SELF; }
int pthread_equal(pthread_t a, pthread_t b) { return a == b; }

void pthread_exit(void *ret)
{
    /* The last thread ending ends the process with status 0. */
    (void)ret;
    exit(0);
}

int pthread_attr_init(pthread_attr_t *a) { a->detach = PTHREAD_CREATE_JOINABLE; return 0; }
int pthread_attr_destroy(pthread_attr_t *a) { (void)a; return 0; }
int pthread_attr_setdetachstate(pthread_attr_t *a, int d) { a->detach = d; return 0; }
int pthread_attr_setstacksize(pthread_attr_t *a, size_t n) { (void)a; (void)n; return 0; }

int pthread_mutexattr_init(pthread_mutexattr_t *a) { a->type = PTHREAD_MUTEX_DEFAULT; return 0; }
int pthread_mutexattr_destroy(pthread_mutexattr_t *a) { (void)a; return 0; }

int pthread_mutexattr_settype(pthread_mutexattr_t *a, int type)
{
    if (type != PTHREAD_MUTEX_NORMAL && type != PTHREAD_MUTEX_RECURSIVE && type != PTHREAD_MUTEX_ERRORCHECK)
        return EINVAL;
    a->type = type;
    return 0;
}

int pthread_mutexattr_gettype(const pthread_mutexattr_t *a, int *type) { *type = a->type; return 0; }

int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a)
{
    m->type = a ? a->type : PTHREAD_MUTEX_DEFAULT;
    m->owner = 0;
    m->count = 0;
    return 0;
}

int pthread_mutex_destroy(pthread_mutex_t *m) { return m->count ? EBUSY : 0; }

int pthread_mutex_trylock(pthread_mutex_t *m)
{
    if (m->count && m->type != PTHREAD_MUTEX_RECURSIVE)
        return EBUSY;
    m->owner = SELF;
    m->count++;
    return 0;
}

int pthread_mutex_lock(pthread_mutex_t *m)
{
    /* Held by this thread, a normal mutex would wait forever. */
    return pthread_mutex_trylock(m) == EBUSY ? EDEADLK : 0;
}

int pthread_mutex_unlock(pthread_mutex_t *m)
{
    if (m->count == 0)
        return m->type == PTHREAD_MUTEX_NORMAL ? 0 : EPERM;
    if (--m->count == 0)
        m->owner = 0;
    return 0;
}

int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *a) { (void)a; c->waiters = 0; return 0; }
int pthread_cond_destroy(pthread_cond_t *c) { (void)c; return 0; }
int pthread_cond_signal(pthread_cond_t *c) { (void)c; return 0; }
int pthread_cond_broadcast(pthread_cond_t *c) { (void)c; return 0; }
int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m) { (void)c; (void)m; return EDEADLK; }

int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *t)
{
    (void)c; (void)m; (void)t;
    return EDEADLK;
}

int pthread_once(pthread_once_t *once, void (*f)(void))
{
    if (*once == PTHREAD_ONCE_INIT) {
        *once = 1;
        f();
    }
    return 0;
}

static const void *key_values[PTHREAD_KEYS_MAX];
static unsigned char key_used[PTHREAD_KEYS_MAX];

int pthread_key_create(pthread_key_t *k, void (*dtor)(void *))
{
    (void)dtor; /* run at thread exit: the one thread never exits but with the process */
    for (unsigned i = 0; i < PTHREAD_KEYS_MAX; i++)
        if (!key_used[i]) {
            key_used[i] = 1;
            key_values[i] = NULL;
            *k = i;
            return 0;
        }
    return EAGAIN;
}

int pthread_key_delete(pthread_key_t k)
{
    if (k >= PTHREAD_KEYS_MAX || !key_used[k])
        return EINVAL;
    key_used[k] = 0;
    return 0;
}

void *pthread_getspecific(pthread_key_t k) { return k < PTHREAD_KEYS_MAX ? (void *)key_values[k] : NULL; }

int pthread_setspecific(pthread_key_t k, const void *v)
{
    if (k >= PTHREAD_KEYS_MAX || !key_used[k])
        return EINVAL;
    key_values[k] = v;
    return 0;
}
