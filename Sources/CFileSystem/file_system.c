#define _GNU_SOURCE
#include "parallax_file_system.h"

#include <errno.h>
#include <fcntl.h>
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
