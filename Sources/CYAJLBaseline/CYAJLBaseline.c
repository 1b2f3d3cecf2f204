#include "CYAJLBaseline.h"

#include <yajl/yajl_parse.h>

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

static int on_null(void *context) { (void)context; return 1; }
static int on_boolean(void *context, int value) { (void)context; (void)value; return 1; }
static int on_integer(void *context, long long value) { (void)context; (void)value; return 1; }
static int on_double(void *context, double value) { (void)context; (void)value; return 1; }
static int on_number(void *context, const char *text, size_t length) {
    (void)context; (void)text; (void)length; return 1;
}
static int on_string(void *context, const unsigned char *text, size_t length) {
    (void)context; (void)text; (void)length; return 1;
}
static int on_start_map(void *context) { (void)context; return 1; }
static int on_map_key(void *context, const unsigned char *text, size_t length) {
    (void)context; (void)text; (void)length; return 1;
}
static int on_end_map(void *context) { (void)context; return 1; }
static int on_start_array(void *context) { (void)context; return 1; }
static int on_end_array(void *context) { (void)context; return 1; }

// All eleven set; with yajl_number present YAJL hands over number text and ignores
// yajl_integer and yajl_double, so no strtod or overflow checks run.
static const yajl_callbacks null_callbacks = {
    on_null, on_boolean, on_integer, on_double, on_number, on_string,
    on_start_map, on_map_key, on_end_map, on_start_array, on_end_array,
};

int cyajl_baseline_parse(const unsigned char *bytes, size_t length) {
    yajl_handle handle = yajl_alloc(&null_callbacks, NULL, NULL);
    if (handle == NULL) return 0;
    int ok = yajl_parse(handle, bytes, length) == yajl_status_ok
        && yajl_complete_parse(handle) == yajl_status_ok;
    yajl_free(handle);
    return ok;
}

int cyajl_baseline_parse_file(const char *path, size_t chunk_size) {
    int descriptor = open(path, O_RDONLY);
    if (descriptor < 0) return 0;
    unsigned char *buffer = malloc(chunk_size);
    yajl_handle handle = buffer ? yajl_alloc(&null_callbacks, NULL, NULL) : NULL;
    int ok = handle != NULL;
    ssize_t count = 0;
    while (ok && (count = read(descriptor, buffer, chunk_size)) > 0) {
        ok = yajl_parse(handle, buffer, (size_t)count) == yajl_status_ok;
    }
    ok = ok && count == 0 && yajl_complete_parse(handle) == yajl_status_ok;
    if (handle) yajl_free(handle);
    free(buffer);
    close(descriptor);
    return ok;
}
