// Whether the processor runs the scans of this module (see CWideScans.h).

#include "CWideScans.h"

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))

#include <cpuid.h>

int elevate_scan_has_wide(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    const unsigned int pclmul = 1u << 1, popcnt = 1u << 23, osxsave = 1u << 27, avx = 1u << 28;
    if ((ecx & (pclmul | popcnt | osxsave | avx)) != (pclmul | popcnt | osxsave | avx)) return 0;
    // The system saves the XMM and YMM registers (XCR0 bits 1 and 2).
    unsigned int xcr0_low, xcr0_high;
    __asm__ volatile("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
    if ((xcr0_low & 6u) != 6u) return 0;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
    const unsigned int bmi1 = 1u << 3, avx2 = 1u << 5;
    return (ebx & (bmi1 | avx2)) == (bmi1 | avx2);
}

#else

int elevate_scan_has_wide(void) { return 0; }

#endif
