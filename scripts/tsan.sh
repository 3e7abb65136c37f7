#!/usr/bin/env bash
# Runs the concurrent code under ThreadSanitizer: the classifier shared by many threads
# (ShapeClassifierTests' concurrent tests), the trainer's data-parallel workers (TrainerTests,
# CheckpointTests with 2 workers). Fails on any data race report.
# Usage: scripts/tsan.sh
set -euo pipefail
cd "$(dirname "$0")/.."
filter='ShapeClassifierTests|TrainerTests|CheckpointTests|WorkerTeamTests'
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
echo "tsan: building the tests with -sanitize=thread (own build folder .build-tsan)" >&2
status=0
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
    swift test --sanitize=thread --scratch-path .build-tsan --filter "$filter" > "$log" 2>&1 || status=$?
if grep -q "ThreadSanitizer" "$log" || [ "$status" -ne 0 ]; then
    grep -A 30 "ThreadSanitizer" "$log" | head -n 60 >&2 || tail -n 40 "$log" >&2
    echo "tsan: FAILED (exit $status)" >&2
    exit 1
fi
grep -E "Test run with|Executed" "$log" | tail -n 2
echo "tsan: no data races reported in $filter"
