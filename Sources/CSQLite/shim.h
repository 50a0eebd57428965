// SQLite 3. SQLITE_TRANSIENT is a cast macro Swift cannot import; expose it as a function.
#include <sqlite3.h>

static inline sqlite3_destructor_type stillroom_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

// A database file is input like any other (a copy set aside, a card from elsewhere, one the daemon's user
// could have written before root's stillroomctl reads it): no schema may call functions with side effects
// (trusted_schema off) and no statement may corrupt the file on purpose (defensive). sqlite3_db_config is
// variadic, which Swift cannot call. Returns 0 when both took.
static inline int stillroom_sqlite_harden(sqlite3 *db) {
    int trusted = 1, defensive = 0;
    if (sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, &trusted) != SQLITE_OK) return 1;
    if (sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, &defensive) != SQLITE_OK) return 1;
    return (trusted == 0 && defensive == 1) ? 0 : 1;
}

// Whether a connection is hardened as above (for tests): 1 when both hold.
static inline int stillroom_sqlite_is_hardened(sqlite3 *db) {
    int trusted = 1, defensive = 0;
    sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, -1, &trusted);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, -1, &defensive);
    return trusted == 0 && defensive == 1;
}
