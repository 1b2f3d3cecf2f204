#ifndef C_WIDE_SCANS_H
#define C_WIDE_SCANS_H

#include <stdint.h>

// The state of ElevateJSON's StructuralScanner, carried from one call to the next (see
// Sources/ElevateJSON/Events/StructuralScanner.swift, which owns the meaning of every field).
typedef struct {
    int64_t depth;
    int64_t top_level_commas;
    int64_t last_top_level_comma;
    int64_t newlines;
    int64_t last_line_start;
    uint64_t in_string_carry;
    uint64_t escape_carry;
    int64_t last_value_end;
} elevate_scan_state;

// Whether this processor and system run the functions below (x86-64 with AVX2, PCLMUL,
// POPCNT and BMI1, the YMM state saved by the system). Asks the processor each time: callers keep
// the answer.
int elevate_scan_has_wide(void);

// The scan of StructuralScanner's split modes, thirty-two bytes per instruction: reads
// bytes[start..<count] until, for `.splitArray(cutFrom:)` (split_values 0), a comma at depth 1 at
// or past cut_from, or the bracket that closes depth 1; for `.splitValues(cutFrom:)` (split_values
// 1), the bracket or brace that ends a top-level value at or past cut_from. Returns the offset of
// that byte, or -1 when every byte was read. Only call it when elevate_scan_has_wide() said 1.
int64_t elevate_scan_split_wide(
    elevate_scan_state *state, const uint8_t *bytes, int64_t count, int64_t start, int64_t base, int64_t cut_from,
    int split_values);

// The scan of StructuralScanner's `.findLongContainer(within:objects:endDepth:)`: reads
// bytes[start..<count] until the `[` (or, when `objects` is 1, the `[` or `{`) of the first
// container (outside strings, at any depth, not inside an earlier one) that its own closing
// bracket does not close within `within` bytes after it, nor before `count`; returns the offset of
// that byte, the state then being that just after it, or -1 when there is none (every byte read;
// the depth is not kept). With has_end 1, it stops first at a comma at depth end_depth (relative
// to `start`, 0 or below) or a bracket that closes that depth, outside every candidate, the state
// then being that just after it. Only call it when elevate_scan_has_wide() said 1.
int64_t elevate_scan_long_container_wide(
    elevate_scan_state *state, const uint8_t *bytes, int64_t count, int64_t start, int64_t base, int64_t within,
    int objects, int has_end, int64_t end_depth);

// Whether bytes[0..<count] are valid UTF-8 (strictly: no overlong form, surrogate or code point
// above U+10FFFF, no sequence cut short at the end) and hold no form feed or vertical tab, which
// YAJL takes for whitespace; and, whatever the answer, how many newlines they hold and the offset
// of the last (-1 for none). Only call it when elevate_scan_has_wide() said 1.
int elevate_text_layout_wide(const uint8_t *bytes, int64_t count, int64_t *newlines, int64_t *last_newline);

// elevate_text_layout_wide's answer alone, without counting lines. Only call it when
// elevate_scan_has_wide() said 1.
int elevate_text_is_plain_wide(const uint8_t *bytes, int64_t count);

// How many newlines bytes[0..<count] hold, and the offset of the last (-1 for none), whatever
// else the bytes are: how JSON Lines is cut into runs of whole lines. Only call it when
// elevate_scan_has_wide() said 1.
int64_t elevate_count_newlines_wide(const uint8_t *bytes, int64_t count, int64_t *last_newline);

#endif
