#!/usr/bin/env bash
# Builds the Hummingbird upload example and runs its tests, the 256 MiB upload over loopback
# included (UPLOAD_TEST_MIB=16 Examples/HummingbirdUpload/run-tests.sh for a quick run).
#
# A debug build: on 2 cores it builds in 4 to 5 minutes (most of it SwiftNIO and Hummingbird) and
# uploads the 256 MiB in about 30 s; a release build took over 7 minutes to build, more than it
# saves on the upload. Builds in this folder's own .build, which git ignores.
set -euo pipefail
cd "$(dirname "$0")"

SECONDS=0
swift build --build-tests
echo "HummingbirdUpload: built in ${SECONDS} s"

SECONDS=0
swift test --skip-build
echo "HummingbirdUpload: tested in ${SECONDS} s"
