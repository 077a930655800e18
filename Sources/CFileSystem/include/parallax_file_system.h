#ifndef PARALLAX_FILE_SYSTEM_H
#define PARALLAX_FILE_SYSTEM_H

/// Swaps the two paths `a` and `b` atomically (Linux `renameat2` with `RENAME_EXCHANGE`): both
/// must exist; at no instant is either name missing. 0 on success; -1 with `errno` set otherwise
/// (`EINVAL` or `ENOSYS` where the file system or kernel cannot exchange: the caller falls back).
int parallax_exchange_paths(const char *a, const char *b);

#endif
