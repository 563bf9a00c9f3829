#ifndef STOREFRONT_CPSEUDOTERMINAL_SHIM_H
#define STOREFRONT_CPSEUDOTERMINAL_SHIM_H

#include <errno.h>
#include <spawn.h>
#include <stddef.h>
#include <unistd.h>

// posix_openpt, grantpt, unlockpt, ptsname_r and POSIX_SPAWN_SETSID are XSI/GNU: glibc
// declares them only under feature macros, which Swift's Glibc module is built without (and a
// module defining them would disagree with it about shared types). They are declared here as
// glibc exports them.
extern int posix_openpt(int flags);
extern int grantpt(int fd);
extern int unlockpt(int fd);
extern int ptsname_r(int fd, char *buf, size_t buflen);

// GNU extensions of posix_spawn (glibc 2.29 and 2.34), declared as glibc exports them: a child
// that starts in another directory, and one that inherits no descriptor above its standard three.
extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path);
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);

/// glibc's POSIX_SPAWN_SETSID (spawn.h under _GNU_SOURCE, glibc 2.26 and later).
static inline short cpt_spawn_setsid(void) { return 0x80; }

/// Opens a new pseudo-terminal's master, unlocked, and writes its slave's path into `name`.
/// Returns the master descriptor, or -1 with errno set.
static inline int cpt_open(int flags, char *name, size_t length) {
    int master = posix_openpt(flags);
    if (master < 0) return -1;
    if (grantpt(master) != 0 || unlockpt(master) != 0 || ptsname_r(master, name, length) != 0) {
        int saved = errno;
        close(master);
        errno = saved;
        return -1;
    }
    return master;
}

#endif
