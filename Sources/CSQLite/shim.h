#ifndef STORERECON_CSQLITE_SHIM_H
#define STORERECON_CSQLITE_SHIM_H
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a cast of -1 to a function pointer: a macro Swift does not import. */
static inline sqlite3_destructor_type storerecon_sqlite_transient(void) { return SQLITE_TRANSIENT; }
#endif
