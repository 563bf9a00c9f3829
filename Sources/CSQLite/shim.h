// The system's SQLite (libsqlite3-dev), the library GRDB itself links on Linux: the store binds
// parameters and reads columns of GRDB's prepared statements through it.
#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro Swift cannot import: SQLite copies the bytes before returning.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
