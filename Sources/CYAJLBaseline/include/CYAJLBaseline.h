#ifndef CYAJL_BASELINE_H
#define CYAJL_BASELINE_H

#include <stddef.h>

/// Parses `length` bytes with YAJL, every callback a function that only returns 1, and
/// `yajl_number` set so that YAJL never converts numbers: the least work YAJL can do on a
/// document, and so the ceiling for any parser built on it.
///
/// Returns 1 when the bytes are one complete JSON text, 0 otherwise.
int cyajl_baseline_parse(const unsigned char *bytes, size_t length);

/// Parses the file at `path` the same way, reading it `chunk_size` bytes at a time with `read(2)`
/// into one buffer: the floor for any parser that streams a file.
///
/// Returns 1 when the file holds one complete JSON text, 0 otherwise (or when it cannot be read).
int cyajl_baseline_parse_file(const char *path, size_t chunk_size);

#endif
