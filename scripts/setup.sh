#!/usr/bin/env bash
# Installs the system libraries StrokeKit links against, when missing, then builds the
# release CLI (.build/release/strokekit).
#   Debian/Ubuntu: libopenblas-dev libpng-dev libsqlite3-dev pkg-config (apt-get; sudo when not root)
#   macOS:         openblas libpng pkg-config (Homebrew)
# Usage: scripts/setup.sh [--deps-only]
set -euo pipefail
cd "$(dirname "$0")/.."

if command -v apt-get >/dev/null 2>&1; then
    missing=()
    for package in libopenblas-dev libpng-dev libsqlite3-dev pkg-config; do
        dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        sudo=""
        [ "$(id -u)" -eq 0 ] || sudo="sudo"
        echo "setup: installing ${missing[*]}" >&2
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
elif command -v brew >/dev/null 2>&1; then
    brew list openblas >/dev/null 2>&1 || brew install openblas libpng pkg-config
    # Homebrew's OpenBLAS is keg-only: tell pkg-config where its .pc file is.
    export PKG_CONFIG_PATH="$(brew --prefix openblas)/lib/pkgconfig:${PKG_CONFIG_PATH:-}"
else
    echo "setup: install OpenBLAS, libpng and pkg-config with your package manager" >&2
fi

for library in openblas libpng; do
    pkg-config --exists "$library" || { echo "setup: pkg-config cannot find $library" >&2; exit 1; }
done

if [ "${1:-}" != "--deps-only" ]; then
    swift build -c release --product strokekit
fi
