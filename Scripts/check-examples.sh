#!/usr/bin/env bash
# Builds and runs every ```swift block of the README and the DocC articles against the built
# Elevate library, so an example that stops compiling, throws or crashes fails CI. A block that
# imports Elevate is a program of its own, as a newcomer would paste it; a fragment gets the
# imports a file needs and the module built from Scripts/ReadmeExamples/Given.swift, which
# declares the names fragments say they are given, with real values (small documents, and files
# written into this script's scratch directory).
#
# A comment on the line just before a block says, with a reason, that it is not run:
#   <!-- example: compile-only, REASON -->   type-checked only
#   <!-- example: skip, REASON -->           not compiled either (a Package.swift excerpt)
#
# A block that imports ElevateMacros is compiled with the macro plugin the build made.
#
# Examples are linked against the object files that `swift build` left in the build directory,
# those of the Elevate product's targets as `swift package describe` lists them
# (Scripts/ReadmeExamples/LinkInputs.swift). A generated package depending on this one would be
# simpler to write but would build the library a second time and resolve its dependencies from
# the network: minutes in CI, against half a second to compile and link one example here.
#
# Usage: Scripts/check-examples.sh [build-dir]   (default .build/debug; run `swift build` first)
# CHECK_EXAMPLES_SHOW_OUTPUT=1 prints what each example printed, to compare with its comments.
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir="${1:-.build/debug}"
modules="$build_dir/Modules"
if [[ ! -e "$modules/Elevate.swiftmodule" ]]; then
    echo "check-examples: no Elevate module in $modules; run 'swift build' first" >&2
    exit 2
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The object files and module maps of the Elevate product, one swiftc argument per line.
swiftc -O -o "$work/link-inputs" Scripts/ReadmeExamples/LinkInputs.swift
swift package describe --type json > "$work/description.json"
link_inputs=()
while IFS= read -r line; do link_inputs+=("$line"); done \
    < <("$work/link-inputs" "$build_dir" Elevate < "$work/description.json")
module_maps=()
for ((i = 0; i < ${#link_inputs[@]}; i++)); do
    if [[ "${link_inputs[$i]}" == -Xcc ]]; then module_maps+=(-Xcc "${link_inputs[$((i + 1))]}"); fi
done
# YAJL and zlib are named by the CYAJL and CZlib module maps too; pkg-config adds where they are
# (Homebrew's prefix).
yajl_libs=(-lyajl -lz)
if pkg-config --exists yajl zlib 2>/dev/null; then read -r -a yajl_libs <<< "$(pkg-config --libs yajl zlib)"; fi

# The givens, as a module and an object: a fragment's own declarations then shadow them rather
# than clash, and a fragment that runs links their values.
swiftc -c -module-name ExampleGivens -swift-version 6 -parse-as-library \
    -I "$modules" "${module_maps[@]}" \
    -emit-module -emit-module-path "$work/ExampleGivens.swiftmodule" \
    -o "$work/ExampleGivens.o" Scripts/ReadmeExamples/Given.swift

# A run gets a time limit where `timeout` exists (GNU coreutils; not on a stock macOS).
run_limited=()
if command -v timeout > /dev/null; then run_limited=(timeout 60); fi

ran=0
compile_only=0
skipped=0
failed=0
for source in README.md Sources/*/*.docc/*.md; do
    # One file per block, whose first line points diagnostics at the block's lines in the source,
    # and beside it what the comment before the block asked for ("run" when there is none).
    rm -f "$work"/block-*
    awk -v dir="$work" -v source="$source" '
        /^```swift[[:space:]]*$/ { inside = 1; n += 1; file = sprintf("%s/block-%03d.swift", dir, n)
                                   mode = "run"; reason = ""
                                   if (match(previous, /^<!-- example: (compile-only|skip), .* -->$/)) {
                                       mode = previous; sub(/^<!-- example: /, "", mode); sub(/,.*/, "", mode)
                                       reason = previous; sub(/^<!-- example: [a-z-]*, /, "", reason)
                                       sub(/ -->$/, "", reason)
                                   }
                                   printf "%s\t%s\n", mode, reason > sprintf("%s/block-%03d.mode", dir, n)
                                   close(sprintf("%s/block-%03d.mode", dir, n))
                                   printf "#sourceLocation(file: \"%s\", line: %d)\n", source, NR + 1 > file
                                   previous = $0; next }
        /^```/ && inside         { inside = 0; close(file); previous = $0; next }
        inside                   { print > file }
                                 { previous = $0 }
    ' "$source"
    for block in "$work"/block-*.swift; do
        [[ -e "$block" ]] || continue
        origin="$(head -n 1 "$block" | sed -e 's/.*file: "\(.*\)", line: \([0-9]*\).*/\1:\2/')"
        IFS=$'\t' read -r mode reason < "${block%.swift}.mode"
        if [[ "$mode" == skip ]]; then
            skipped=$((skipped + 1))
            echo "check-examples: $origin skipped: $reason"
            continue
        fi
        rm -rf "$work/check" "$work/run"
        mkdir -p "$work/check" "$work/run/tmp"
        givens=()
        if grep -q '^import Elevate' "$block"; then
            cp "$block" "$work/check/main.swift"
        else
            # A fragment: the imports a file needs, then the block; the givens from their module.
            { printf 'import Elevate\nimport ExampleGivens\nimport Foundation\n'; cat "$block"; } \
                > "$work/check/main.swift"
            givens=("$work/ExampleGivens.o")
        fi
        compile=(swiftc -swift-version 6 -I "$modules" -I "$work" "${module_maps[@]}" "$work/check/main.swift")
        # A block that imports ElevateMacros expands `@TapeDecodable` with the plugin the build made.
        if grep -q '^import ElevateMacros' "$block"; then
            compile+=(-load-plugin-executable "$build_dir/ElevateMacrosPlugin-tool#ElevateMacrosPlugin")
        fi
        if [[ "$mode" == compile-only ]]; then
            compile_only=$((compile_only + 1))
            echo "check-examples: $origin compile-only: $reason"
            if ! "${compile[@]}" -typecheck 2> "$work/errors.txt"; then
                failed=$((failed + 1))
                echo "check-examples: the example at $origin does not compile:" >&2
                cat "$work/errors.txt" >&2
            fi
            continue
        fi
        ran=$((ran + 1))
        if ! "${compile[@]}" ${givens[@]+"${givens[@]}"} "${link_inputs[@]}" "${yajl_libs[@]}" \
                -o "$work/check/example" 2> "$work/errors.txt"; then
            failed=$((failed + 1))
            echo "check-examples: the example at $origin does not compile:" >&2
            cat "$work/errors.txt" >&2
            continue
        fi
        # In a directory of its own, with the givens' files under it; its output is shown only if
        # it fails (an uncaught error at the top level of a program is a crash with its message).
        # (The braces take the shell's own notice of a crash, "Illegal instruction", into it too.)
        if ! { (cd "$work/run" && TMPDIR="$work/run/tmp" SWIFT_BACKTRACE=enable=no \
                    ${run_limited[@]+"${run_limited[@]}"} "$work/check/example") > "$work/output.txt" 2>&1; } \
                2>> "$work/output.txt"; then
            failed=$((failed + 1))
            echo "check-examples: the example at $origin fails when run:" >&2
            cat "$work/output.txt" >&2
        elif [[ -n "${CHECK_EXAMPLES_SHOW_OUTPUT:-}" ]]; then
            echo "check-examples: $origin ran:"
            sed -e 's/^/    /' "$work/output.txt"
        fi
    done
done

echo "check-examples: $ran Swift examples built and run, $compile_only type-checked only, $skipped skipped, $failed failed"
[[ $failed -eq 0 ]]
