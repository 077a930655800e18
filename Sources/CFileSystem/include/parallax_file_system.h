#ifndef PARALLAX_FILE_SYSTEM_H
#define PARALLAX_FILE_SYSTEM_H

/// Swaps the two paths `a` and `b` atomically (Linux `renameat2` with `RENAME_EXCHANGE`): both
/// must exist; at no instant is either name missing. 0 on success; -1 with `errno` set otherwise
/// (`EINVAL` or `ENOSYS` where the file system or kernel cannot exchange: the caller falls back).
int parallax_exchange_paths(const char *a, const char *b);

/// An anonymous memory file (Linux `memfd_create`, close-on-exec) whose size can be sealed: the
/// shared memory of a Python worker. Its descriptor, or -1 with `errno` set (an old kernel:
/// the caller falls back to a file under /dev/shm).
int parallax_sealable_memory_file(const char *name);

/// Forbids shrinking the memory file `fd` from now on, for every process that holds it (`fcntl`
/// `F_ADD_SEALS` with `F_SEAL_SHRINK`): a worker that truncates it cannot make Parallax's writes
/// into its mapping fault. Growing stays allowed. 0 on success; -1 with `errno` set otherwise.
int parallax_seal_against_shrinking(int fd);

#endif
