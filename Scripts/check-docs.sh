#!/usr/bin/env bash
# Every public symbol of the library modules is documented, every parameter included
# (see check-docs.swift). Builds the symbol graphs first.
set -euo pipefail
cd "$(dirname "$0")/.."
swift package dump-symbol-graph --minimum-access-level public > /dev/null
directory="$(swift build --show-bin-path)/../symbolgraph"
swift Scripts/check-docs.swift "$directory" ElevateJSON Elevate ElevateMacros ElevateBenchmarkKit ElevateSampleData
