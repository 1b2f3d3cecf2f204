// The structural pre-scan's split modes with AVX2, carry-less multiplication and POPCNT, which
// Swift cannot ask for in one function: Swift code is compiled for the baseline x86-64, where each
// sixty-four-byte block costs four SSE2 compares per class, a shift chain for the string mask and a
// loop for each population count. The algorithm, and the meaning of every field of the state, are
// those of StructuralScanner.swift, which keeps the portable version and checks this one against it.

#include "CWideScans.h"

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))

#include <immintrin.h>
#include <string.h>

#define WIDE __attribute__((target("avx2,pclmul,popcnt,bmi")))

typedef struct {
    uint64_t quotes, backslashes, brackets, closes, commas, newlines;
} block_masks;

WIDE static inline uint64_t bits64(__m256i low, __m256i high) {
    uint64_t bits = (uint64_t)(uint32_t)_mm256_movemask_epi8(low) | (uint64_t)(uint32_t)_mm256_movemask_epi8(high) << 32;
    // Opaque to the optimizer: seeing the compare vectors behind the masks, it rewrote the
    // population counts and bit tests as byte-by-byte extractions, three times slower.
    __asm__("" : "+r"(bits));
    return bits;
}

WIDE static inline block_masks classify(const uint8_t *block) {
    const __m256i low = _mm256_loadu_si256((const __m256i *)block);
    const __m256i high = _mm256_loadu_si256((const __m256i *)(block + 32));
    // `[` and `{`, `]` and `}` differ only in bit 0x20.
    const __m256i fold = _mm256_set1_epi8(0x20);
    const __m256i folded_low = _mm256_or_si256(low, fold), folded_high = _mm256_or_si256(high, fold);
    const __m256i open = _mm256_set1_epi8(0x7B), close = _mm256_set1_epi8(0x7D);
    const __m256i closes_low = _mm256_cmpeq_epi8(folded_low, close);
    const __m256i closes_high = _mm256_cmpeq_epi8(folded_high, close);
    block_masks masks;
    masks.quotes = bits64(_mm256_cmpeq_epi8(low, _mm256_set1_epi8('"')), _mm256_cmpeq_epi8(high, _mm256_set1_epi8('"')));
    masks.backslashes =
        bits64(_mm256_cmpeq_epi8(low, _mm256_set1_epi8('\\')), _mm256_cmpeq_epi8(high, _mm256_set1_epi8('\\')));
    masks.closes = bits64(closes_low, closes_high);
    masks.brackets = bits64(
        _mm256_or_si256(_mm256_cmpeq_epi8(folded_low, open), closes_low),
        _mm256_or_si256(_mm256_cmpeq_epi8(folded_high, open), closes_high));
    masks.commas = bits64(_mm256_cmpeq_epi8(low, _mm256_set1_epi8(',')), _mm256_cmpeq_epi8(high, _mm256_set1_epi8(',')));
    masks.newlines =
        bits64(_mm256_cmpeq_epi8(low, _mm256_set1_epi8('\n')), _mm256_cmpeq_epi8(high, _mm256_set1_epi8('\n')));
    return masks;
}

// As StructuralScanner.stringMask: the bytes inside strings (the opening quote included), the
// prefix XOR of the unescaped quotes done by one carry-less multiplication by all ones.
WIDE static inline uint64_t string_mask(elevate_scan_state *state, uint64_t quotes, uint64_t backslashes, int last_bit) {
    uint64_t escaped = 0;
    if ((backslashes | state->escape_carry) != 0) {
        const uint64_t odd_bits = 0xAAAAAAAAAAAAAAAAull;
        const uint64_t potential = backslashes & ~state->escape_carry;
        const uint64_t maybe_escaped = potential << 1;
        const uint64_t series_codes = (maybe_escaped | odd_bits) - potential;
        const uint64_t escape_and_terminal = series_codes ^ odd_bits;
        escaped = escape_and_terminal ^ (backslashes | state->escape_carry);
        state->escape_carry = ((escape_and_terminal & backslashes) >> last_bit) & 1;
    }
    const uint64_t unescaped = quotes & ~escaped;
    uint64_t inside = (uint64_t)_mm_cvtsi128_si64(
        _mm_clmulepi64_si128(_mm_set_epi64x(0, (long long)unescaped), _mm_set1_epi8((char)0xFF), 0));
    inside ^= state->in_string_carry;
    state->in_string_carry = (uint64_t)((int64_t)inside >> 63);
    return inside;
}

WIDE static inline void count_lines(elevate_scan_state *state, uint64_t mask, int64_t block_start, int64_t base) {
    if (mask == 0) return;
    state->newlines += __builtin_popcountll(mask);
    state->last_line_start = base + block_start + (63 - __builtin_clzll(mask)) + 1;
}

// 0xFF in the bytes whose bit is set in `bits`, 0 in the others.
WIDE static inline __m256i expand_bits(uint32_t bits) {
    // Each lane's shuffle sees the mask's four bytes: bytes 0 to 15 take mask bytes 0 and 1, 16
    // to 31 mask bytes 2 and 3, eight each; then each keeps its own bit.
    const __m256i spread = _mm256_shuffle_epi8(_mm256_set1_epi32((int)bits),
        _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3,
            3, 3));
    const __m256i select = _mm256_set1_epi64x((long long)0x8040201008040201ull);
    return _mm256_cmpeq_epi8(_mm256_and_si256(spread, select), select);
}

// The running sums of 32 signed bytes, each byte's own included.
WIDE static inline __m256i running_sums(__m256i x) {
    x = _mm256_add_epi8(x, _mm256_slli_si256(x, 1));
    x = _mm256_add_epi8(x, _mm256_slli_si256(x, 2));
    x = _mm256_add_epi8(x, _mm256_slli_si256(x, 4));
    x = _mm256_add_epi8(x, _mm256_slli_si256(x, 8));
    // Each 16-byte lane summed on its own: the second one adds the first one's total.
    const __m256i totals = _mm256_shuffle_epi8(x, _mm256_set1_epi8(15));
    return _mm256_add_epi8(x, _mm256_permute2x128_si256(totals, totals, 0x08));
}

// The bits of a 64-byte block's commas at depth 1 and of its brackets that close depth 1 (to 0),
// the depth at the block's start being `depth` (1 to 64): the depth after each byte is the running
// sum of +1 at each opening bracket and -1 at each closing one.
WIDE static inline void depth_one_marks(
    uint64_t opens, uint64_t closes, uint64_t commas, int64_t depth, uint64_t *top_commas, uint64_t *last_closes) {
    const __m256i low = running_sums(
        _mm256_sub_epi8(expand_bits((uint32_t)closes), expand_bits((uint32_t)opens)));
    __m256i high = running_sums(
        _mm256_sub_epi8(expand_bits((uint32_t)(closes >> 32)), expand_bits((uint32_t)(opens >> 32))));
    const __m256i low_total = _mm256_shuffle_epi8(low, _mm256_set1_epi8(15));
    high = _mm256_add_epi8(high, _mm256_permute2x128_si256(low_total, low_total, 0x11));
    const __m256i comma_depth = _mm256_set1_epi8((char)(1 - depth));
    const __m256i close_depth = _mm256_set1_epi8((char)(0 - depth));
    *top_commas = bits64(_mm256_cmpeq_epi8(low, comma_depth), _mm256_cmpeq_epi8(high, comma_depth)) & commas;
    *last_closes = bits64(_mm256_cmpeq_epi8(low, close_depth), _mm256_cmpeq_epi8(high, close_depth)) & closes;
}

WIDE int64_t elevate_scan_split_wide(
    elevate_scan_state *state, const uint8_t *bytes, int64_t count, int64_t start, int64_t base, int64_t cut_from,
    int split_values) {
    if (bytes == NULL) return -1;
    int64_t depth = state->depth;
    // A block whose closing brackets, all first, would still leave the depth at this or above
    // reaches no stop.
    const int64_t lowest_skipped = split_values ? 1 : 2;
    for (int64_t block_start = start; block_start < count; block_start += 64) {
        block_masks masks;
        int last_bit = 63;
        if (block_start + 64 <= count) {
            masks = classify(bytes + block_start);
        } else {
            // The last, short block: zero bytes classify as nothing.
            uint8_t padded[64];
            memset(padded, 0, sizeof padded);
            memcpy(padded, bytes + block_start, (size_t)(count - block_start));
            masks = classify(padded);
            last_bit = (int)(count - block_start - 1);
        }
        const uint64_t in_string = string_mask(state, masks.quotes, masks.backslashes, last_bit);
        const uint64_t brackets = masks.brackets & ~in_string;
        const int64_t closes = __builtin_popcountll(masks.closes & brackets);
        // Most blocks lie inside an element (a value), where no bracket closes depth 1 (ends the
        // value) and no comma is at depth 1: their brackets only move the depth, counted a block
        // at a time.
        if (depth - closes >= lowest_skipped) {
            depth += __builtin_popcountll(brackets) - 2 * closes;
            count_lines(state, masks.newlines, block_start, base);
            continue;
        }
        // A block that may hold a stop: an element's end, in an array of elements a block long or
        // less (most blocks of an array of `[x, y]` pairs, a third of the people array's). Its
        // depth-1 commas and the bracket that closes depth 1 are found from the depth after each
        // byte, thirty-two at a time, rather than by visiting every bracket and comma in turn
        // (`[x, y]` pairs 4.4 -> 6.4 GB/s, the people array 5.0 -> 5.5). From a depth of 1 to 64
        // the running sums (-64 to 64) and the depths looked for (-64 to 0) are bytes that do not
        // wrap. Values keep the loop: a bracket that would close depth 0 leaves it at 0, which a
        // running sum does not.
        if (!split_values && depth >= 1 && depth <= 64) {
            const uint64_t closing = brackets & masks.closes;
            const uint64_t commas = masks.commas & ~in_string;
            uint64_t top_commas, last_closes;
            depth_one_marks(brackets & ~masks.closes, closing, commas, depth, &top_commas, &last_closes);
            const int64_t cut = cut_from - block_start;
            const uint64_t cuttable = cut <= 0 ? ~0ull : cut >= 64 ? 0 : ~((1ull << cut) - 1);
            const uint64_t stops = (top_commas & cuttable) | last_closes;
            if (stops != 0) {
                const int bit = __builtin_ctzll(stops);
                const uint64_t counted = top_commas & (bit == 63 ? ~0ull : (2ull << bit) - 1);
                state->top_level_commas += __builtin_popcountll(counted);
                if (counted != 0) state->last_top_level_comma = base + block_start + 63 - __builtin_clzll(counted);
                state->in_string_carry = 0;
                state->escape_carry = 0;
                count_lines(state, masks.newlines & ((1ull << bit) - 1), block_start, base);
                state->depth = (top_commas >> bit) & 1;
                return block_start + bit;
            }
            state->top_level_commas += __builtin_popcountll(top_commas);
            if (top_commas != 0) state->last_top_level_comma = base + block_start + 63 - __builtin_clzll(top_commas);
            depth += __builtin_popcountll(brackets) - 2 * closes;
            count_lines(state, masks.newlines, block_start, base);
            continue;
        }
        // Between concatenated values a comma is the parser's error to find, not a stop.
        uint64_t structural = split_values ? brackets : (brackets | masks.commas) & ~in_string;
        while (structural != 0) {
            const int bit = __builtin_ctzll(structural);
            structural &= structural - 1;
            const int64_t offset = block_start + bit;
            // The byte itself, not the masks' bits: tested bit by bit, the compiler takes the
            // compare vectors apart byte by byte.
            const uint8_t byte = bytes[offset];
            if (byte == ',') {
                if (depth != 1) continue;
                state->top_level_commas += 1;
                state->last_top_level_comma = base + offset;
                if (offset < cut_from) continue;
            } else if ((byte | 0x20) == '{') {  // `[` or `{`
                depth += 1;
                continue;
            } else if (split_values) {
                depth -= 1;
                if (depth > 0) continue;
                // One below 0 (invalid text) ends a value too.
                depth = 0;
                state->last_value_end = base + offset + 1;
                if (offset < cut_from) continue;
            } else {
                depth -= 1;
                if (depth != 0) continue;
            }
            // The state just after the stop: outside a string, no escape pending, the lines
            // before it counted.
            state->in_string_carry = 0;
            state->escape_carry = 0;
            count_lines(state, masks.newlines & ((1ull << bit) - 1), block_start, base);
            state->depth = depth;
            return offset;
        }
        count_lines(state, masks.newlines, block_start, base);
    }
    state->depth = depth;
    return -1;
}

// The `[`s of a block (outside strings or not), which the classification folds with `{`.
WIDE static inline uint64_t array_opens(const uint8_t *block) {
    const __m256i open = _mm256_set1_epi8('[');
    return bits64(_mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)block), open),
        _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(block + 32)), open));
}

WIDE int64_t elevate_scan_long_container_wide(
    elevate_scan_state *state, const uint8_t *bytes, int64_t count, int64_t start, int64_t base, int64_t within,
    int objects, int has_end, int64_t end_depth) {
    if (bytes == NULL) return -1;
    // The depth relative to `start`, and the outermost candidate open (-1: none), with its
    // closing byte, the depth before it, where it must close, and the lines before it.
    int64_t depth = 0;
    int64_t open = -1, open_depth = 0, limit = 0, open_newlines = 0, open_line_start = 0;
    uint8_t open_closing = ']';
    for (int64_t block_start = start; block_start < count; block_start += 64) {
        block_masks masks;
        uint8_t padded[64];
        const uint8_t *block = bytes + block_start;
        int last_bit = 63;
        if (block_start + 64 > count) {
            // The last, short block: zero bytes classify as nothing.
            memset(padded, 0, sizeof padded);
            memcpy(padded, bytes + block_start, (size_t)(count - block_start));
            block = padded;
            last_bit = (int)(count - block_start - 1);
        }
        masks = classify(block);
        const uint64_t in_string = string_mask(state, masks.quotes, masks.backslashes, last_bit);
        const uint64_t brackets = masks.brackets & ~in_string;
        const int64_t closes = __builtin_popcountll(masks.closes & brackets);
        // No candidate to look for in the block (none open, no `[`, or with objects no `[` or
        // `{`, in it, and no end it can reach), or the open one cannot close in it: its brackets
        // only move the depth.
        const uint64_t opens = objects ? brackets & ~masks.closes : array_opens(block) & brackets;
        const int skips =
            open < 0 ? opens == 0 && (!has_end || depth - closes > end_depth) : depth - closes > open_depth;
        if (skips) {
            depth += __builtin_popcountll(brackets) - 2 * closes;
        } else {
            uint64_t structural = has_end ? brackets | (masks.commas & ~in_string) : brackets;
            while (structural != 0) {
                const int bit = __builtin_ctzll(structural);
                structural &= structural - 1;
                const int64_t offset = block_start + bit;
                if (open >= 0 && offset >= limit) goto found;
                const uint8_t byte = bytes[offset];
                // The end: a comma at the end depth, or a bracket that closes it (none is open there).
                int ends = 0;
                if (byte == ',') {
                    if (depth != end_depth) continue;
                    ends = 1;
                } else if ((byte | 0x20) == '{') {  // `[` or `{`
                    if ((byte == '[' || objects) && open < 0) {
                        open = offset;
                        open_closing = (uint8_t)(byte + 2);  // `]` or `}`
                        open_depth = depth;
                        limit = offset + 1 + within;
                        const uint64_t before = masks.newlines & ((1ull << bit) - 1);
                        open_newlines = state->newlines + __builtin_popcountll(before);
                        open_line_start =
                            before != 0 ? base + block_start + (63 - __builtin_clzll(before)) + 1 : state->last_line_start;
                    }
                    depth += 1;
                } else {
                    depth -= 1;
                    if (open >= 0 && depth == open_depth) {
                        // Closed in time by its own bracket: short. Another is the parser's error.
                        if (byte != open_closing) goto found;
                        open = -1;
                    } else if (has_end && depth < end_depth) {
                        ends = 1;
                    }
                }
                if (ends) {
                    // The state just after the end: outside a string, no escape pending, the lines
                    // before it counted.
                    state->in_string_carry = 0;
                    state->escape_carry = 0;
                    count_lines(state, masks.newlines & ((1ull << bit) - 1), block_start, base);
                    return offset;
                }
            }
        }
        count_lines(state, masks.newlines, block_start, base);
        if (open >= 0 && block_start + 64 >= limit) goto found;
    }
    if (open < 0) return -1;
found:
    // The state just after the `[` or `{`: outside a string, no escape pending, the lines before it.
    state->newlines = open_newlines;
    state->last_line_start = open_line_start;
    state->in_string_carry = 0;
    state->escape_carry = 0;
    return open;
}

#else

int64_t elevate_scan_long_container_wide(
    elevate_scan_state *state, const uint8_t *bytes, int64_t count, int64_t start, int64_t base, int64_t within,
    int objects, int has_end, int64_t end_depth) {
    (void)state; (void)bytes; (void)count; (void)start; (void)base; (void)within; (void)objects; (void)has_end;
    (void)end_depth;
    return -1;
}

int64_t elevate_scan_split_wide(
    elevate_scan_state *state, const uint8_t *bytes, int64_t count, int64_t start, int64_t base, int64_t cut_from,
    int split_values) {
    (void)state; (void)bytes; (void)count; (void)start; (void)base; (void)cut_from; (void)split_values;
    return -1;
}

#endif
