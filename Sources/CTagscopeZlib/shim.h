#ifndef TAGSCOPE_CZLIB_SHIM_H
#define TAGSCOPE_CZLIB_SHIM_H

// The system zlib (zlib1g-dev; scripts/lib.sh installs it), for inflating request bodies in one
// pass into one buffer (TagscopeServer's BodyDecompression).
#include <zlib.h>

// Swift does not import function-like macros: `inflateInit2` is one.
static inline int tagscope_inflate_init2(z_streamp stream, int window_bits) {
  return inflateInit2(stream, window_bits);
}

#endif
