#!/usr/bin/env bash
# End-to-end tests of the browser editor (`strokekit serve`) in headless Chromium, driven by
# Selenium: real diagrams from ../shared/datasets/fa-diagrams replayed stroke by stroke, symbols
# typed, verdicts of simulated words checked; the whole ink of its diagrams (ink/: handwritten
# labels included, nothing typed) written with the pen, the page checked against
# `strokekit recognize` on the same strokes; undo, erase, toggle final, step-by-step
# simulation, clear and a phone-sized screen each have a test.
#
#   scripts/editor-browser-test.sh                       # all tests
#   scripts/editor-browser-test.sh RealDiagramTests      # one class (unittest names)
#   EDITOR_REAL_DIAGRAMS="writer000_fa_004 ..." scripts/editor-browser-test.sh   # other diagrams
#   EDITOR_INK_DIAGRAMS="writer010_fa_005" scripts/editor-browser-test.sh HandwrittenInkTests
#   EDITOR_SCREENSHOTS=docs scripts/editor-browser-test.sh   # also rewrite the README's screenshots
#
# Needs Debian's chromium and chromium-driver (installed with apt-get when missing; without
# them the tests are skipped with a message) and Selenium from PyPI, in .venv-editor-test.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
    sudo=""
    if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then sudo="sudo"; fi
    { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium chromium-driver; } \
        >/dev/null 2>&1 || true
fi
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
    echo "editor-browser-test: skipped: Debian's chromium and chromium-driver could not be installed" >&2
    exit 0
fi

venv=.venv-editor-test
if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
if ! "$venv/bin/python" -c "import selenium" 2>/dev/null; then
    "$venv/bin/pip" install --quiet "selenium>=4.20"
fi

if [ -z "${STROKEKIT:-}" ]; then
    swift build -c release --product strokekit >&2
    export STROKEKIT="$PWD/.build/release/strokekit"
fi
if [ ! -d ../shared/datasets/fa-diagrams ]; then
    echo "editor-browser-test: ../shared/datasets/fa-diagrams is absent: the real-diagram tests are skipped" >&2
fi
cd scripts
if [ $# -eq 0 ]; then set -- editor_browser_test; else set -- "${@/#/editor_browser_test.}"; fi
exec "../$venv/bin/python" -m unittest -v "$@"
