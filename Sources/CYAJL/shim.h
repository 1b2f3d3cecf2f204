#ifndef CYAJL_SHIM_H
#define CYAJL_SHIM_H

#include <yajl/yajl_parse.h>
#include <yajl/yajl_gen.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GLIBC__) && !defined(__USE_GNU)
// glibc declares strtod_l only under _GNU_SOURCE. Without this prototype the call below is an
// implicit declaration returning int, which the Swift importer lets through: every number read
// here came back as 0.
extern double strtod_l(const char *__restrict text, char **__restrict end, locale_t locale);
extern float strtof_l(const char *__restrict text, char **__restrict end, locale_t locale);
#endif

#if defined(__linux__)
#include <pthread.h>
#if !defined(__USE_GNU)
// glibc and musl declare pthread_getattr_np only under _GNU_SOURCE, which the Swift importer
// does not set.
extern int pthread_getattr_np(pthread_t thread, pthread_attr_t *attributes);
#endif

// The calling thread's stack: its lowest address and size (the guard page excluded). Returns 0
// when the system does not say. On the main thread glibc reads /proc/self/maps to answer, so
// callers look it up once per thread.
static inline int cyajl_current_thread_stack(void **low, size_t *size) {
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return 0;
    int ok = pthread_attr_getstack(&attributes, low, size) == 0;
    pthread_attr_destroy(&attributes);
    return ok;
}
#endif

// yajl_config and yajl_gen_config are C-variadic, which Swift cannot call.
// These fixed-arity wrappers make each option we use reachable.

static inline int cyajl_config_flag(yajl_handle handle, yajl_option option, int enabled) {
    return yajl_config(handle, option, enabled);
}

static inline int cyajl_gen_config_flag(yajl_gen generator, yajl_gen_option option, int enabled) {
    return yajl_gen_config(generator, option, enabled);
}

// The indent string is stored by yajl, not copied: callers pass a string with static lifetime.
static inline int cyajl_gen_config_indent(yajl_gen generator, const char *indent) {
    return yajl_gen_config(generator, yajl_gen_indent_string, indent);
}

static inline int cyajl_gen_config_print_callback(
    yajl_gen generator, yajl_print_t callback, void *context) {
    return yajl_gen_config(generator, yajl_gen_print_callback, callback, context);
}

// `length` bytes of `text`, NUL-terminated (yajl's number text lacks the terminator): in `stack`
// (128 bytes) when they fit, else in memory the caller frees when the result is not `stack`; NULL
// when that memory cannot be had.
static inline char *cyajl_terminated(const char *text, size_t length, char *stack) {
    char *buffer = length < 128 ? stack : (char *)malloc(length + 1);
    if (buffer == NULL) return NULL;
    memcpy(buffer, text, length);
    buffer[length] = '\0';
    return buffer;
}

// strtod follows LC_NUMERIC, so "1.5" would read as 1 under a German locale.
// strtod_l with a "C" locale object (created once, by the Swift caller) is locale-proof.
static inline double cyajl_strtod(const char *text, size_t length, locale_t c_locale, int *ok) {
    char stack[128];
    char *buffer = cyajl_terminated(text, length, stack);
    if (buffer == NULL) { *ok = 0; return 0; }
    char *end = NULL;
    double value = strtod_l(buffer, &end, c_locale);
    *ok = (end == buffer + length);
    if (buffer != stack) free(buffer);
    return value;
}

// As cyajl_strtod, for a float: rounded once from the text (through a double, a number can round
// twice and land on the wrong side of a tie).
static inline float cyajl_strtof(const char *text, size_t length, locale_t c_locale, int *ok) {
    char stack[128];
    char *buffer = cyajl_terminated(text, length, stack);
    if (buffer == NULL) { *ok = 0; return 0; }
    char *end = NULL;
    float value = strtof_l(buffer, &end, c_locale);
    *ok = (end == buffer + length);
    if (buffer != stack) free(buffer);
    return value;
}

static inline locale_t cyajl_c_locale(void) {
    return newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

#endif
