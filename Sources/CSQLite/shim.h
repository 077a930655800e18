// CSQLite: Debian's SQLite (libsqlite3-dev), for the results database. Not API.
#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro Swift does not import: bind text the library copies.
static inline int parallax_sqlite_bind_text(sqlite3_stmt *s, int i, const char *text, int bytes) { return sqlite3_bind_text(s, i, text, bytes, SQLITE_TRANSIENT); }
