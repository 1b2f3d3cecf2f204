#!/usr/bin/env bash
# Type-checks every ```swift block of the README and the DocC articles against the built Elevate
# module, so an example that stops compiling fails CI. A block that imports Elevate is checked on
# its own, as a newcomer would paste it; a fragment gets the imports a file needs and the module
# built from Scripts/ReadmeExamples/Given.swift, which declares the names fragments are given.
# The Package.swift excerpt of the install section is skipped: it is not a Swift file.
#
# Usage: Scripts/check-examples.sh [build-dir]   (default .build/debug; run `swift build` first)
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

# The givens, as a module: a fragment's own declarations then shadow them rather than clash.
swiftc -emit-module -module-name ExampleGivens -swift-version 6 -parse-as-library \
    -I "$modules" -Xcc -fmodule-map-file=Sources/CYAJL/module.modulemap \
    -emit-module-path "$work/ExampleGivens.swiftmodule" Scripts/ReadmeExamples/Given.swift

checked=0
failed=0
for source in README.md Sources/Elevate/Elevate.docc/*.md; do
    # One file per block, whose first line points diagnostics at the block's lines in the source.
    rm -f "$work"/block-*.swift
    awk -v dir="$work" -v source="$source" '
        /^```swift[[:space:]]*$/ { inside = 1; n += 1; file = sprintf("%s/block-%03d.swift", dir, n)
                                   printf "#sourceLocation(file: \"%s\", line: %d)\n", source, NR + 1 > file
                                   next }
        /^```/ && inside         { inside = 0; close(file); next }
        inside                   { print > file }
    ' "$source"
    for block in "$work"/block-*.swift; do
        [[ -e "$block" ]] || continue
        origin="$(head -n 1 "$block" | sed -e 's/.*file: "\(.*\)", line: \([0-9]*\).*/\1:\2/')"
        if grep -q '^// swift-tools-version' "$block"; then continue; fi
        mkdir -p "$work/check"
        rm -f "$work/check"/*.swift
        if grep -q '^import Elevate' "$block"; then
            cp "$block" "$work/check/main.swift"
        else
            # A fragment: the imports a file needs, then the block; the givens in a second file.
            { printf 'import Elevate\nimport ExampleGivens\nimport Foundation\n'; cat "$block"; } \
                > "$work/check/main.swift"
        fi
        checked=$((checked + 1))
        if ! swiftc -typecheck -swift-version 6 -I "$modules" -I "$work" \
                -Xcc -fmodule-map-file=Sources/CYAJL/module.modulemap \
                "$work/check"/*.swift 2> "$work/errors.txt"; then
            failed=$((failed + 1))
            echo "check-examples: the example at $origin does not compile:" >&2
            cat "$work/errors.txt" >&2
        fi
    done
done

echo "check-examples: $checked Swift examples type-checked, $failed failed"
[[ $failed -eq 0 ]]
