#!/usr/bin/env bash
# Builds the libFuzzer targets of the Fuzz package and runs each one for a while.
#
#   Scripts/fuzz.sh [seconds-per-target] [target…]
#
# Defaults: 60 seconds, every target. FUZZ_CONFIGURATION=debug builds without optimization: a
# third of the build time for CI's smoke run, at a similar speed on most targets for a few seconds.
# FUZZ_BUILD_ONLY=1 builds and stops (CI builds in the background, then runs). Seeds: the JSONTestSuite parsing files from the shared corpus
# ($ELEVATE_SHARED_DIR or ../shared next to the repository) when present, plus a few tiny documents
# written here, copied into a temporary corpus that is deleted afterwards. Crashes and mismatches are
# written to Fuzz/Findings/ and make the script exit non-zero. A toolchain without libFuzzer support
# is reported and skipped (exit 0).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
shift || true
all_targets=(FuzzEventParser FuzzParseEntity FuzzJSONLines FuzzValueBuilder FuzzDocument FuzzCodableDifferential FuzzGzip FuzzSplitParse)
if [[ $# -gt 0 ]]; then targets=("$@"); else targets=("${all_targets[@]}"); fi
for target in "${targets[@]}"; do
    [[ -d "Fuzz/Sources/$target" ]] || { echo "fuzz.sh: unknown target $target (have: ${all_targets[*]})" >&2; exit 2; }
done

configuration="${FUZZ_CONFIGURATION:-release}"
case "$configuration" in release | debug) ;; *) echo "fuzz.sh: FUZZ_CONFIGURATION is release or debug" >&2; exit 2 ;; esac
scratch="Fuzz/.build-fuzz"
findings="Fuzz/Findings"
work="$(mktemp -d "${TMPDIR:-/tmp}/elevate-fuzz.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# Release with ASan by default: three to ten times the executions per second of a debug build over
# a long run, and the Swift runtime's own checks (overflow, bounds, preconditions) stay on.
echo "fuzz: building ${targets[*]} ($configuration) with -sanitize=fuzzer,address"
build_flags=(-c "$configuration" --package-path Fuzz --scratch-path "$scratch" -Xswiftc -sanitize=fuzzer,address)
# Every target in one call when all are asked for: one build plan, and the links run side by side.
build_one() {
    swift build "${build_flags[@]}" "$@" >"$work/build.log" 2>&1
}
build_failed=false
if [[ ${#targets[@]} -eq ${#all_targets[@]} ]]; then
    build_one || build_failed=true
else
    for target in "${targets[@]}"; do build_one --product "$target" || { build_failed=true; break; }; done
fi
if $build_failed; then
    if grep -Eiq "fuzzer.*(unsupported|not supported|unknown|cannot find|no such file|unable to find)|(unsupported|unknown).*fuzzer|libclang_rt\.fuzzer" "$work/build.log"; then
        grep -Ei "fuzzer" "$work/build.log" | head -5
        echo "fuzz: SKIPPED, this toolchain cannot build with -sanitize=fuzzer (no libFuzzer runtime)"
        exit 0
    fi
    grep -v "ld.gold: warning" "$work/build.log" | tail -40
    echo "fuzz: the build failed" >&2
    exit 1
fi
if [[ "${FUZZ_BUILD_ONLY:-}" == 1 ]]; then
    echo "fuzz: built"
    exit 0
fi
bin="$(swift build "${build_flags[@]}" --show-bin-path)"

# Seeds.
seeds="$work/seeds"
mkdir -p "$seeds"
shared="${ELEVATE_SHARED_DIR:-../shared}"
if [[ -d "$shared/corpus/JSONTestSuite/test_parsing" ]]; then
    cp "$shared/corpus/JSONTestSuite/test_parsing/"* "$seeds/"
else
    echo "fuzz: $shared/corpus not found; starting from the built-in seeds only"
fi
# Past findings, minimized: the mutations around them are where the next bug is likeliest.
cp Tests/ElevateTests/Fixtures/fuzz/* "$seeds/"
printf '%s' '[]' >"$seeds/tiny-array.json"
printf '%s' '{"a":[1,-2.5e3,"x\u00e9\ud83d\ude00",true,false,null,{}]}' >"$seeds/tiny-object.json"
printf '%s' '{"s":"t","i":-7,"u":18446744073709551615,"f":1.5,"d":1e300,"b":true,"a":[1],"o":{"s":"x"},"url":"https://example.com/a?b#c","0":2,"items":[{"id":1,"name":"n","tags":["t"],"children":[{"id":2}]}],"item":{"id":3},"n":"42","date":"2024-02-29"}' >"$seeds/tiny-entity.json"
printf '{"a":1}\n[2]\r\n\n  \n"three"\n' >"$seeds/tiny-lines.jsonl"
printf '%s' '{"x":1}{"x":2} 3 "four"[5]' >"$seeds/tiny-concatenated.json"
printf '\xef\xbb\xbf{"k":"\\u0000\\"\\\\\\/\\b\\f\\n\\r\\t\\u2028"}' >"$seeds/tiny-bom-escapes.json"
printf '%s' '/* c */ [1 // d
]' >"$seeds/tiny-comments.json"

mkdir -p "$findings"

# Runs one target for the given time; its verdict goes to $work/$target.result.
run_target() {
    local target="$1" corpus="$work/corpus-$1" log="$work/$1.log" result
    mkdir -p "$corpus"
    cp "$seeds/"* "$corpus/"
    # SWIFT_BACKTRACE=enable=no: the Swift backtracer reads the stack in a way ASan reports as a
    # second error, hiding the real message.
    if SWIFT_BACKTRACE=enable=no LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan-suppressions.txt" "$bin/$target" -max_len=4096 -timeout=10 -max_total_time="$seconds" \
        -dict=Fuzz/elevate.dict -print_final_stats=1 -artifact_prefix="$findings/$target-" "$corpus" >"$log" 2>&1
    then
        result="ok"
    else
        result="FINDING"
        cp "$log" "$findings/$target.log"
    fi
    echo "$result" >"$work/$target.result"
}

# One target per core at a time (each is one process on one thread): the runs take their time
# once per core rather than once per target.
lanes="$(nproc 2>/dev/null || sysctl -n hw.ncpu 2>/dev/null || echo 1)"
for target in "${targets[@]}"; do
    while [[ "$(jobs -pr | wc -l)" -ge "$lanes" ]]; do wait -n 2>/dev/null || sleep 0.2; done
    echo "fuzz: running $target for ${seconds}s"
    run_target "$target" &
done
wait

status=0
summary=()
for target in "${targets[@]}"; do
    log="$work/$target.log"
    result="$(cat "$work/$target.result" 2>/dev/null || echo FINDING)"
    if [[ "$result" != ok ]]; then
        status=1
        grep -a -E "FUZZ FINDING|ERROR: AddressSanitizer|ERROR: libFuzzer|Fatal error|SUMMARY" "$log" | cut -c1-2000 | head -20 || true
        grep -a "Test unit written to" "$log" || true
    fi
    runs="$(grep -a -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')"
    speed="$(grep -a -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')"
    summary+=("$(printf '%-18s %-8s %10s runs %8s exec/s' "$target" "$result" "$runs" "$speed")")
done

printf '%s\n' "${summary[@]}"
if [[ $status -ne 0 ]]; then
    echo "fuzz: findings in $findings/ (reproduce: $bin/<target> <file>)" >&2
fi
exit $status
