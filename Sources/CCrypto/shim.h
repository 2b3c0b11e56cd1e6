#ifndef STORERECON_CCRYPTO_SHIM_H
#define STORERECON_CCRYPTO_SHIM_H
#include <openssl/evp.h>
#endif
