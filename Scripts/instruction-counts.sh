#!/usr/bin/env bash
# Instruction counts (valgrind --tool=callgrind) of the contenders whose cost a refactoring must
# keep: the events, the tape, decodeArray and ElevateJSONDecoder on a 4 MB people document, and the
# events, the tape and ElevateJSONDecoder on twitter.json and canada.json when the shared corpus is
# present. Deterministic, unlike wall time on a shared VM: compare two commits by running this on
# each one's release binary.
#
#   Scripts/instruction-counts.sh [path/to/elevate]     (default: .build/release/elevate)
#
# Needs valgrind. The binary is copied and stripped first (valgrind 3.19 cannot read the debug
# information of some Swift release binaries).
set -euo pipefail
cd "$(dirname "$0")/.."
binary="${1:-.build/release/elevate}"
command -v valgrind > /dev/null || { echo "instruction-counts: needs valgrind" >&2; exit 2; }
[[ -x "$binary" ]] || { echo "instruction-counts: no binary at $binary (swift build -c release --product elevate)" >&2; exit 2; }
work="$(mktemp -d "${TMPDIR:-/tmp}/elevate-instructions.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cp "$binary" "$work/elevate"
strip -g "$work/elevate"
"$work/elevate" generate people --size 4MB "$work/people.json"
corpus="${ELEVATE_SHARED_DIR:-../shared}/corpus/nativejson"

count() { # label contender file
    local total
    total="$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$work/elevate" bench --child "$2" "$3" 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')"
    awk -v label="$1" -v total="$total" 'BEGIN { printf "%-32s %10.1f M\n", label, total / 1e6 }'
}

count "events, people" elevate-events "$work/people.json"
count "tape, people" elevate-document "$work/people.json"
count "decodeArray, people" elevate-decodearray "$work/people.json"
count "ElevateJSONDecoder, people" tape-codable "$work/people.json"
count "@TapeDecodable, people" tape-codable-macro "$work/people.json"
count "JSONDecoder, people" jsondecoder "$work/people.json"
if [[ -f "$corpus/twitter.json" && -f "$corpus/canada.json" ]]; then
    count "events, twitter" elevate-events "$corpus/twitter.json"
    count "tape, twitter" elevate-document "$corpus/twitter.json"
    count "ElevateJSONDecoder, twitter" tape-codable-twitter "$corpus/twitter.json"
    count "@TapeDecodable, twitter" tape-codable-twitter-macro "$corpus/twitter.json"
    count "JSONDecoder, twitter" jsondecoder-twitter "$corpus/twitter.json"
    count "events, canada" elevate-events "$corpus/canada.json"
    count "tape, canada" elevate-document "$corpus/canada.json"
    count "ElevateJSONDecoder, citm" tape-codable-citm "$corpus/citm_catalog.json"
    count "@TapeDecodable, citm" tape-codable-citm-macro "$corpus/citm_catalog.json"
    count "JSONDecoder, citm" jsondecoder-citm "$corpus/citm_catalog.json"
else
    echo "instruction-counts: twitter.json and canada.json skipped (no shared corpus at $corpus)"
fi
