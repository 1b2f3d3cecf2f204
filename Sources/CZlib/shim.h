#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H

#include <zlib.h>

// inflateInit2 and deflateInit2 are macros (they pass zlib's version and the size of z_stream to
// the real functions, so that a library built for another z_stream layout refuses the call), which
// Swift cannot call. These wrappers make the two set-ups the package uses reachable.

// Windows bits 15 + 16: a gzip stream (header and CRC-32 trailer) with the largest window; a zlib
// or raw deflate stream is refused at its header.
static inline int czlib_inflate_init_gzip(z_streamp stream) {
    return inflateInit2(stream, 15 + 16);
}

// The counterpart, for tests that write gzip fixtures with zlib itself rather than a gzip binary.
static inline int czlib_deflate_init_gzip(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

#endif
