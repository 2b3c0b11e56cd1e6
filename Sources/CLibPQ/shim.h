#ifndef STORERECON_CLIBPQ_SHIM_H
#define STORERECON_CLIBPQ_SHIM_H
#include <libpq-fe.h>
#endif
