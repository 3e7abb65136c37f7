#!/usr/bin/env bash
# Proves that another package can depend on StrokeKit by version: clones this repository's
# committed HEAD, tags the clone 0.1.0, writes a tiny package that depends on it with
# `.package(url:, from: "0.1.0")` and `.product(name: "StrokeKit", ...)`, builds it (SwiftPM
# refuses dependencies taken by version whose targets use unsafe flags), and runs it: it
# loads the bundled model and classifies a circle drawn from code.
# Usage: scripts/check-consumer.sh        Exit status 0 when the consumer builds and reads the circle.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

git clone --quiet "$root" "$work/strokekit"
git -C "$work/strokekit" tag 0.1.0

mkdir -p "$work/consumer/Sources/Consumer"
cat > "$work/consumer/Package.swift" <<SWIFT
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Consumer",
    platforms: [.macOS(.v13)],
    dependencies: [.package(url: "file://$work/strokekit", from: "0.1.0")],
    targets: [
        .executableTarget(name: "Consumer", dependencies: [.product(name: "StrokeKit", package: "strokekit")]),
    ]
)
SWIFT
cat > "$work/consumer/Sources/Consumer/main.swift" <<'SWIFT'
import Foundation
import StrokeKit

// A circle of radius 60 device units, drawn counter-clockwise from the right, with a little overlap.
let points = (0...64).map { step -> (Double, Double) in
    let angle = Double(step) / 60 * 2 * Double.pi
    return (200 + 60 * cos(angle), 200 - 60 * sin(angle))
}
let classifier = try ShapeClassifier.bundledDefault()
let result = try classifier.classify(Stroke(points))
print("consumer: \(result.label) \(String(format: "%.3f", result.confidence))\(result.isRejected ? " (rejected)" : "")")
exit(result.label == "circle" && !result.isRejected ? 0 : 1)
SWIFT

echo "check-consumer: building a package that depends on StrokeKit 0.1.0 (a tagged clone of HEAD)" >&2
(cd "$work/consumer" && swift build --quiet 2>&1 | tail -n 20) >&2
if (cd "$work/consumer" && swift run --skip-build Consumer); then
    echo "check-consumer: ok, a dependent package builds against the tagged StrokeKit and classifies a circle"
else
    echo "check-consumer: FAILED: the dependent package did not classify the circle" >&2
    exit 1
fi
