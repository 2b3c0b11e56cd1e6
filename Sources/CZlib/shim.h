#ifndef STORERECON_CZLIB_SHIM_H
#define STORERECON_CZLIB_SHIM_H
#include <zlib.h>

/* inflateInit2 is a function-like macro and does not import into Swift. */
static inline int storerecon_inflateInit2(z_stream *strm, int windowBits) {
  return inflateInit2(strm, windowBits);
}
#endif
