#ifndef STORERECON_CLIBPQ_SHIM_H
#define STORERECON_CLIBPQ_SHIM_H
#include <libpq-fe.h>
#include <postgres_ext.h>

/* The PG_DIAG_* field codes are char-literal macros, which Swift does not import. */
static inline int storerecon_pg_diag_sqlstate(void) { return PG_DIAG_SQLSTATE; }
static inline int storerecon_pg_diag_severity(void) { return PG_DIAG_SEVERITY_NONLOCALIZED; }
static inline int storerecon_pg_diag_message_primary(void) { return PG_DIAG_MESSAGE_PRIMARY; }
static inline int storerecon_pg_diag_message_detail(void) { return PG_DIAG_MESSAGE_DETAIL; }
static inline int storerecon_pg_diag_message_hint(void) { return PG_DIAG_MESSAGE_HINT; }
static inline int storerecon_pg_diag_context(void) { return PG_DIAG_CONTEXT; }
#endif
