// CArchive: Debian's libarchive (libarchive-dev), to unpack zip and tar (gz, bz2, xz) downloads. Not API.
#include <archive.h>
#include <archive_entry.h>
