#ifndef STORERECON_CXLSXWRITER_SHIM_H
#define STORERECON_CXLSXWRITER_SHIM_H
#include <xlsxwriter.h>
#endif
