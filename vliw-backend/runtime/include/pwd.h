/* pwd.h: the user database. The simulated DSP has no users besides the one
 * it runs as (getuid() == 0) and no database: every lookup finds nobody
 * (NULL, or 0 with *result NULL for the _r forms), errno unchanged, as glibc
 * does for an unknown user. */
#ifndef _PWD_H
#define _PWD_H

#include <stddef.h>
#include <sys/types.h>

struct passwd {
    char *pw_name;
    char *pw_passwd;
    uid_t pw_uid;
    gid_t pw_gid;
    char *pw_gecos;
    char *pw_dir;
    char *pw_shell;
};

struct passwd *getpwuid(uid_t);
struct passwd *getpwnam(const char *);
int getpwuid_r(uid_t, struct passwd *, char *, size_t, struct passwd **);
int getpwnam_r(const char *, struct passwd *, char *, size_t, struct passwd **);
struct passwd *getpwent(void);
void setpwent(void);
void endpwent(void);

#endif
