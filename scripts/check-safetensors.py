#!/usr/bin/env python3
"""Load a safetensors file with the reference Python implementation and print what it holds.

Usage: scripts/check-safetensors.py FILE [FILE ...]

An independent check of StrokeKit's writer: the file is read by huggingface `safetensors`
(safetensors.numpy.load_file and safe_open(...).metadata()), not by our code. Prints every
tensor's name, dtype and shape, then the metadata, and exits non-zero if any file fails to load.
An I8 tensor is dequantized with its per-output-channel scales `<name>.scale` (docs/model-format.md),
in NumPy, and the largest weight of each such tensor is printed.
Needs `pip install safetensors numpy`.
"""
import sys


def dequantize(levels, scales):
    """float32 weights of an I8 tensor: level times its output channel's (first dimension's) scale."""
    import numpy
    if scales.shape != levels.shape[:1]:
        raise ValueError(f"scales of shape {list(scales.shape)} for an I8 tensor of shape {list(levels.shape)}")
    return levels.astype(numpy.float32) * scales.astype(numpy.float32).reshape((-1,) + (1,) * (levels.ndim - 1))


def check(path):
    import numpy
    from safetensors import safe_open
    from safetensors.numpy import load_file

    tensors = load_file(path)
    with safe_open(path, framework="numpy") as handle:
        metadata = handle.metadata() or {}
        names = list(handle.keys())
    print(f"{path}: {len(tensors)} tensors, {sum(t.size for t in tensors.values())} values")
    for name in names:
        tensor = tensors[name]
        line = f"  {name:<24} {str(tensor.dtype):<8} {list(tensor.shape)}"
        if tensor.dtype == numpy.int8:
            weights = dequantize(tensor, tensors[name + ".scale"])
            line += f"  dequantized with {name}.scale: max |w| {numpy.abs(weights).max(initial=0):.6g}"
        print(line)
    for key in sorted(metadata):
        print(f"  {key} = {metadata[key]}")


def main(arguments):
    if not arguments or arguments[0] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        import numpy  # noqa: F401
        import safetensors  # noqa: F401
    except ImportError as error:
        print(f"error: {error}; install with: pip install safetensors numpy", file=sys.stderr)
        return 2
    failed = 0
    for path in arguments:
        try:
            check(path)
        except Exception as error:  # any failure to load is what this script reports
            print(f"error: {path}: {type(error).__name__}: {error}", file=sys.stderr)
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
