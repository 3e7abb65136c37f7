#!/usr/bin/env bash
# Regenerates the Swift code for the export formats' protocol buffers:
#   protos/onnx.proto   -> Sources/StrokeExport/Generated/onnx.pb.swift
#   protos/coreml.proto -> Sources/StrokeExport/Generated/coreml.pb.swift
# The .proto files are StrokeKit's own minimal schemas: only the messages and fields the
# exporter writes, with each format's real field numbers and types.
# Needs protoc (Debian's protobuf-compiler, installed when missing) and swift-protobuf's
# protoc-gen-swift 1.39.0, built here into .build-protoc (git-ignored; the first build
# takes about 10 minutes on 2 cores, later runs reuse it).
# Usage: scripts/generate-protos.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v protoc >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "generate-protos: installing protobuf-compiler" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq protobuf-compiler >/dev/null
fi

version=1.39.0
source_dir=.build-protoc/swift-protobuf-$version
if [ ! -d "$source_dir" ]; then
    git clone -q --depth 1 --branch "$version" https://github.com/apple/swift-protobuf "$source_dir"
fi
echo "generate-protos: building protoc-gen-swift $version" >&2
swift build -c release --package-path "$source_dir" --scratch-path .build-protoc/build \
    --product protoc-gen-swift >&2
plugin=.build-protoc/build/release/protoc-gen-swift

mkdir -p Sources/StrokeExport/Generated
protoc --plugin=protoc-gen-swift="$plugin" \
    --swift_opt=Visibility=Internal \
    --swift_out=Sources/StrokeExport/Generated \
    --proto_path=protos protos/onnx.proto protos/coreml.proto
echo "generate-protos: wrote Sources/StrokeExport/Generated/onnx.pb.swift, coreml.pb.swift" >&2
