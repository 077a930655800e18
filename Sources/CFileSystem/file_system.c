#define _GNU_SOURCE
#include "parallax_file_system.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

int parallax_exchange_paths(const char *a, const char *b) {
#if defined(SYS_renameat2)
    // RENAME_EXCHANGE (linux/fs.h); called through syscall(2) so that older C libraries without
    // the renameat2 wrapper build too.
    return (int)syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, 1u << 1);
#else
    (void)a;
    (void)b;
    errno = ENOSYS;
    return -1;
#endif
}

int parallax_sealable_memory_file(const char *name) {
#if defined(MFD_ALLOW_SEALING)
    return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
#else
    (void)name;
    errno = ENOSYS;
    return -1;
#endif
}

int parallax_seal_against_shrinking(int fd) {
#if defined(F_ADD_SEALS) && defined(F_SEAL_SHRINK)
    return fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK);
#else
    (void)fd;
    errno = ENOSYS;
    return -1;
#endif
}
