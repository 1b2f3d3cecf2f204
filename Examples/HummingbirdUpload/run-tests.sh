#!/usr/bin/env bash
# Builds the Hummingbird upload example and runs its tests, the 256 MiB upload over loopback
# included (UPLOAD_TEST_MIB=16 Examples/HummingbirdUpload/run-tests.sh for a quick run).
#
#   run-tests.sh               build, then test
#   run-tests.sh --build-only  build only (CI builds in the background while the library's tests run)
#   run-tests.sh --skip-build  test what the last build made
#
# A debug build without debug information (-gnone: 14% less CPU, and nobody steps through this
# build): on 2 cores it builds in about 2 minutes (most of it SwiftNIO and Hummingbird) and
# uploads the 256 MiB in about 25 s; a release build took over 7 minutes to build, more than it
# saves on the upload. Builds in this folder's own .build, which git ignores.
set -euo pipefail
cd "$(dirname "$0")"

mode="${1:-}"
case "$mode" in "" | --build-only | --skip-build) ;; *) echo "usage: run-tests.sh [--build-only | --skip-build]" >&2; exit 2 ;; esac

if [[ "$mode" != --skip-build ]]; then
    SECONDS=0
    swift build --build-tests -Xswiftc -gnone
    echo "HummingbirdUpload: built in ${SECONDS} s"
fi

if [[ "$mode" != --build-only ]]; then
    SECONDS=0
    swift test --skip-build
    echo "HummingbirdUpload: tested in ${SECONDS} s"
fi
