// Strict UTF-8 and no form feed or vertical tab, thirty-two bytes per instruction, with the
// newlines counted on the way: the pass the event layer makes over each chunk before YAJL reads it
// (see InputLayout.swift), and the check a counted run of a split array needs (see
// CallbackValueCounter.swift); and the newline count alone, which cuts JSON Lines (see
// NewlineCount.swift). Their portable versions, UTF8Validation.validPrefixLength,
// InputLayout(scanning:) and NewlineCount(portable:), must agree with them on every input.
//
// UTF-8 by the method of Keiser and Lemire ("Validating UTF-8 in less than one instruction per
// byte", 2021): each byte and the one before it are looked up, by their nibbles, in three tables
// whose entries are sets of the errors the pair could be part of; a pair is in error when all
// three lookups share one. The continuation bytes a three- or four-byte lead asks for two and
// three bytes on are checked apart.

#include "CWideScans.h"

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))

#include <immintrin.h>
#include <string.h>

#define WIDE __attribute__((target("avx2,popcnt")))

// The errors a pair (previous byte, byte) may show, one bit each.
enum {
    TOO_SHORT = 1 << 0,       // a lead, then no continuation (11______ 0_______, 11______ 11______)
    TOO_LONG = 1 << 1,        // ASCII, then a continuation (0_______ 10______)
    OVERLONG_3 = 1 << 2,      // 11100000 100_____
    TOO_LARGE = 1 << 3,       // above U+10FFFF: 11110100 1001____, 11110100 101_____, 111101__ ...
    SURROGATE = 1 << 4,       // 11101101 101_____
    OVERLONG_2 = 1 << 5,      // 1100000_ 10______
    TOO_LARGE_1000 = 1 << 6,  // 11110101 1000____, 1111011_ 1000____, 11111___ 1000____
    OVERLONG_4 = 1 << 6,      // 11110000 1000____
    TWO_CONTS = 1 << 7,       // a continuation after a continuation, unless a lead asked for it
    CARRY = TOO_SHORT | TOO_LONG | TWO_CONTS,  // the errors the previous byte's low nibble does not decide
};

// A table of sixteen entries for _mm256_shuffle_epi8, in both halves (it looks up per half).
#define TABLE(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15)                          \
    _mm256_setr_epi8((char)(a0), (char)(a1), (char)(a2), (char)(a3), (char)(a4), (char)(a5), (char)(a6),      \
        (char)(a7), (char)(a8), (char)(a9), (char)(a10), (char)(a11), (char)(a12), (char)(a13), (char)(a14), \
        (char)(a15), (char)(a0), (char)(a1), (char)(a2), (char)(a3), (char)(a4), (char)(a5), (char)(a6),     \
        (char)(a7), (char)(a8), (char)(a9), (char)(a10), (char)(a11), (char)(a12), (char)(a13), (char)(a14), \
        (char)(a15))

// The bytes of `input` shifted by `n` (1 to 3) toward the end, the last `n` of `previous` in front.
#define SHIFTED_IN(input, previous, n) \
    _mm256_alignr_epi8((input), _mm256_permute2x128_si256((previous), (input), 0x21), 16 - (n))

WIDE static inline __m256i errors_of(__m256i input, __m256i previous) {
    const __m256i low_nibble = _mm256_set1_epi8(0x0F);
    const __m256i byte_1_high_table = TABLE(TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
        TOO_LONG, TWO_CONTS, TWO_CONTS, TWO_CONTS, TWO_CONTS, TOO_SHORT | OVERLONG_2, TOO_SHORT,
        TOO_SHORT | OVERLONG_3 | SURROGATE, TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4);
    const __m256i byte_1_low_table = TABLE(CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4, CARRY | OVERLONG_2, CARRY,
        CARRY, CARRY | TOO_LARGE, CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE, CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000);
    const __m256i byte_2_high_table = TABLE(TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
        TOO_SHORT, TOO_SHORT, TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT);

    const __m256i previous_1 = SHIFTED_IN(input, previous, 1);
    // Nibbles by a 16-bit shift and a mask: AVX2 has no byte shift.
    const __m256i byte_1_high =
        _mm256_shuffle_epi8(byte_1_high_table, _mm256_and_si256(_mm256_srli_epi16(previous_1, 4), low_nibble));
    const __m256i byte_1_low = _mm256_shuffle_epi8(byte_1_low_table, _mm256_and_si256(previous_1, low_nibble));
    const __m256i byte_2_high =
        _mm256_shuffle_epi8(byte_2_high_table, _mm256_and_si256(_mm256_srli_epi16(input, 4), low_nibble));
    const __m256i special = _mm256_and_si256(_mm256_and_si256(byte_1_high, byte_1_low), byte_2_high);

    // Two and three bytes on from a three- or four-byte lead, a continuation must come (0x80 set
    // where one must): there TWO_CONTS is no error, and its absence is.
    const __m256i previous_2 = SHIFTED_IN(input, previous, 2);
    const __m256i previous_3 = SHIFTED_IN(input, previous, 3);
    const __m256i third = _mm256_subs_epu8(previous_2, _mm256_set1_epi8((char)(0xE0 - 0x80)));
    const __m256i fourth = _mm256_subs_epu8(previous_3, _mm256_set1_epi8((char)(0xF0 - 0x80)));
    const __m256i must_continue = _mm256_and_si256(_mm256_or_si256(third, fourth), _mm256_set1_epi8((char)0x80));
    return _mm256_xor_si256(must_continue, special);
}

WIDE static inline __m256i form_feeds(__m256i input) {
    return _mm256_or_si256(
        _mm256_cmpeq_epi8(input, _mm256_set1_epi8(0x0B)), _mm256_cmpeq_epi8(input, _mm256_set1_epi8(0x0C)));
}

// The newlines of a 64-byte block, one bit each.
WIDE static inline uint64_t newline_bits(__m256i low, __m256i high) {
    const __m256i newline = _mm256_set1_epi8(0x0A);
    uint64_t bits = (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(low, newline)) |
                    (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(high, newline)) << 32;
    // Opaque to the optimizer, which otherwise counts the bits of the compare byte by byte.
    __asm__("" : "+r"(bits));
    return bits;
}

// Adds the newlines of the 64-byte block at offset `block` (`breaks`, from newline_bits) to
// `lines`, and moves `last` to the last of them. Without a branch: whether a block holds a newline
// changes from block to block in most text, and was mispredicted.
WIDE static inline void count_breaks(uint64_t breaks, int64_t block, int64_t *lines, int64_t *last) {
    *lines += __builtin_popcountll(breaks);
    const int64_t last_here = block + 63 - __builtin_clzll(breaks | 1);
    *last = breaks != 0 ? last_here : *last;
}

// The newlines of the 64 bytes at `block`, one bit each.
WIDE static inline uint64_t block_breaks(const uint8_t *block) {
    return newline_bits(
        _mm256_loadu_si256((const __m256i *)block), _mm256_loadu_si256((const __m256i *)(block + 32)));
}

// One 64-byte block of `scan_text`: its form feeds and vertical tabs, and its newlines when
// `count_lines`, if `has_low_bytes`; its UTF-8 errors if `is_ascii` is not set. Both flags hold for
// a whole group of four blocks, so the compiler tests them once per group, not per block.
WIDE static inline void scan_block(const uint8_t *block, int64_t index, const int count_lines,
    const int has_low_bytes, const int is_ascii, __m256i *errors, __m256i *previous, int64_t *lines,
    int64_t *last) {
    const __m256i low = _mm256_loadu_si256((const __m256i *)block);
    const __m256i high = _mm256_loadu_si256((const __m256i *)(block + 32));
    if (has_low_bytes) {
        *errors = _mm256_or_si256(*errors, _mm256_or_si256(form_feeds(low), form_feeds(high)));
        if (count_lines) count_breaks(newline_bits(low, high), index, lines, last);
    }
    if (!is_ascii) {
        *errors = _mm256_or_si256(*errors, errors_of(low, *previous));
        *errors = _mm256_or_si256(*errors, errors_of(high, low));
    }
    *previous = high;
}

// The pass of both entry points below; `count_lines` is a constant in each, so the compiler
// drops the line counting where it is not asked for (a counted run, which needs no lines).
WIDE static inline int scan_text(
    const uint8_t *bytes, int64_t count, const int count_lines, int64_t *newlines, int64_t *last_newline) {
    __m256i errors = _mm256_setzero_si256();
    __m256i previous = _mm256_setzero_si256();
    int64_t lines = 0, last = -1;
    int64_t index = 0;
    // Two questions per 256 bytes, not per 64: is every byte ASCII, and is none below a carriage
    // return (0x0D; newlines, vertical tabs and form feeds are 0x0A to 0x0C)? Asked per block,
    // their answers change from block to block in text like the people document (a third of its
    // blocks hold a character above ASCII, a third a newline) and the branches on them were
    // mispredicted so often that the pass ran at 7 GB/s; per group, the answer usually stays the
    // same from one group to the next, and the blocks of a group are checked without branches
    // (10.7 GB/s; minified ASCII, where both answers are always no, stays at 75 GB/s).
    for (; index + 256 <= count; index += 256) {
        __m256i largest = _mm256_loadu_si256((const __m256i *)(bytes + index));
        __m256i smallest = largest;
        for (int offset = 32; offset < 256; offset += 32) {
            const __m256i input = _mm256_loadu_si256((const __m256i *)(bytes + index + offset));
            largest = _mm256_max_epu8(largest, input);
            smallest = _mm256_min_epu8(smallest, input);
        }
        const int is_ascii = _mm256_movemask_epi8(largest) == 0;
        const __m256i at_least_0d =
            _mm256_cmpeq_epi8(_mm256_max_epu8(smallest, _mm256_set1_epi8(0x0D)), smallest);
        const int has_low_bytes = _mm256_movemask_epi8(at_least_0d) != -1;
        if (is_ascii) {
            // Only a sequence the group before left open is in error, which the lookups of this
            // group's first bytes against that group's last find.
            if (_mm256_movemask_epi8(previous) != 0) {
                const __m256i first = _mm256_loadu_si256((const __m256i *)(bytes + index));
                errors = _mm256_or_si256(errors, errors_of(first, previous));
            }
            if (!has_low_bytes) {
                previous = _mm256_loadu_si256((const __m256i *)(bytes + index + 224));
                continue;
            }
        }
        for (int64_t block = index; block < index + 256; block += 64) {
            scan_block(
                bytes + block, block, count_lines, has_low_bytes, is_ascii, &errors, &previous, &lines, &last);
        }
    }
    for (; index + 64 <= count; index += 64) {
        scan_block(bytes + index, index, count_lines, 1, 0, &errors, &previous, &lines, &last);
    }
    // The rest, then zeros: ASCII, so a sequence cut short by the end is TOO_SHORT.
    uint8_t padded[96];
    memset(padded, 0, sizeof padded);
    memcpy(padded, bytes + index, (size_t)(count - index));
    if (count_lines) {
        // The zeros after the rest hold no newline. (Byte by byte, this was most of the pass over
        // a line of JSON Lines, a few hundred bytes fed alone.)
        count_breaks(block_breaks(padded), index, &lines, &last);
    }
    for (int offset = 0; offset < 96; offset += 32) {
        const __m256i input = _mm256_loadu_si256((const __m256i *)(padded + offset));
        errors = _mm256_or_si256(errors, _mm256_or_si256(form_feeds(input), errors_of(input, previous)));
        previous = input;
    }
    if (count_lines) {
        *newlines = lines;
        *last_newline = last;
    }
    return _mm256_testz_si256(errors, errors);
}

WIDE int elevate_text_layout_wide(const uint8_t *bytes, int64_t count, int64_t *newlines, int64_t *last_newline) {
    return scan_text(bytes, count, 1, newlines, last_newline);
}

WIDE int elevate_text_is_plain_wide(const uint8_t *bytes, int64_t count) {
    return scan_text(bytes, count, 0, NULL, NULL);
}

WIDE int64_t elevate_count_newlines_wide(const uint8_t *bytes, int64_t count, int64_t *last_newline) {
    int64_t lines = 0, last = -1;
    int64_t index = 0;
    for (; index + 64 <= count; index += 64) count_breaks(block_breaks(bytes + index), index, &lines, &last);
    // The rest, then zeros, which hold no newline.
    uint8_t padded[64];
    memset(padded, 0, sizeof padded);
    memcpy(padded, bytes + index, (size_t)(count - index));
    count_breaks(block_breaks(padded), index, &lines, &last);
    *last_newline = last;
    return lines;
}

#else

int elevate_text_is_plain_wide(const uint8_t *bytes, int64_t count) {
    (void)bytes; (void)count;
    return 0;
}

int elevate_text_layout_wide(const uint8_t *bytes, int64_t count, int64_t *newlines, int64_t *last_newline) {
    (void)bytes; (void)count;
    *newlines = 0;
    *last_newline = -1;
    return 0;
}

int64_t elevate_count_newlines_wide(const uint8_t *bytes, int64_t count, int64_t *last_newline) {
    (void)bytes; (void)count;
    *last_newline = -1;
    return 0;
}

#endif
