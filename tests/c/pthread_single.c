// pthread_single: POSIX threads used by one thread: mutex types (recursive counts, error-checking relock and unlock, trylock), once, keys, self/equal.
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

static int once_runs;
static void init_once(void) { once_runs++; }

int main(void) {
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    int type = -1;
    pthread_mutexattr_gettype(&a, &type);
    printf("default type is normal: %d\n", type == PTHREAD_MUTEX_NORMAL);
    printf("settype bad: %d\n", pthread_mutexattr_settype(&a, 12345) == EINVAL);

    pthread_mutex_t rec;
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&rec, &a);
    int r1 = pthread_mutex_lock(&rec);
    int r2 = pthread_mutex_lock(&rec);
    int r3 = pthread_mutex_trylock(&rec);
    printf("recursive: lock %d %d trylock %d\n", r1, r2, r3);
    int u1 = pthread_mutex_unlock(&rec);
    int u2 = pthread_mutex_unlock(&rec);
    int u3 = pthread_mutex_unlock(&rec);
    int u4 = pthread_mutex_unlock(&rec);
    printf("recursive: unlock %d %d %d, once more EPERM %d\n", u1, u2, u3, u4 == EPERM);
    printf("destroy %d\n", pthread_mutex_destroy(&rec));

    pthread_mutex_t chk;
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_init(&chk, &a);
    printf("errorcheck: unlock unlocked EPERM %d\n", pthread_mutex_unlock(&chk) == EPERM);
    int l1 = pthread_mutex_lock(&chk);
    int l2 = pthread_mutex_lock(&chk);
    int l3 = pthread_mutex_trylock(&chk);
    printf("errorcheck: lock %d relock EDEADLK %d trylock EBUSY %d\n", l1, l2 == EDEADLK, l3 == EBUSY);
    printf("errorcheck: unlock %d\n", pthread_mutex_unlock(&chk));
    pthread_mutexattr_destroy(&a);

    static pthread_mutex_t stat = PTHREAD_MUTEX_INITIALIZER;
    int s1 = pthread_mutex_lock(&stat);
    int s2 = pthread_mutex_trylock(&stat);
    int s3 = pthread_mutex_unlock(&stat);
    int s4 = pthread_mutex_trylock(&stat);
    int s5 = pthread_mutex_unlock(&stat);
    printf("static: lock %d trylock EBUSY %d unlock %d trylock %d unlock %d\n", s1, s2 == EBUSY, s3, s4, s5);

    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, init_once);
    pthread_once(&once, init_once);
    printf("once ran %d time(s)\n", once_runs);

    pthread_key_t k1, k2;
    int v = 7;
    int c1 = pthread_key_create(&k1, NULL);
    int c2 = pthread_key_create(&k2, NULL);
    printf("keys: create %d %d distinct %d\n", c1, c2, k1 != k2);
    int null1 = pthread_getspecific(k1) == NULL;
    int set = pthread_setspecific(k1, &v);
    printf("keys: initially NULL %d set %d get %d other NULL %d\n", null1, set, *(int *)pthread_getspecific(k1),
           pthread_getspecific(k2) == NULL);
    int d1 = pthread_key_delete(k1);
    printf("keys: delete %d %d\n", d1, pthread_key_delete(k2));

    pthread_t self = pthread_self();
    printf("self equal %d\n", pthread_equal(self, pthread_self()) != 0);

    pthread_cond_t c = PTHREAD_COND_INITIALIZER;
    int cs = pthread_cond_signal(&c);
    int cb = pthread_cond_broadcast(&c);
    printf("cond signal %d broadcast %d destroy %d\n", cs, cb, pthread_cond_destroy(&c));
    return 0;
}
