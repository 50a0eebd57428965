// SQLite 3. SQLITE_TRANSIENT is a cast macro Swift cannot import; expose it as a function.
#include <sqlite3.h>

static inline sqlite3_destructor_type stillroom_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}
