"""Checks one StrokeKit model's ONNX and Core ML exports against StrokeKit's own outputs.

Usage: check_exports.py --name NAME --reference REF.json --onnx MODEL.onnx --coreml MODEL.mlmodel

REF.json is written by `strokekit export --check-data DIR --check-output REF.json`: the exact
float32 inputs StrokeKit fed its network for every image of DIR and the probabilities it got.
Prints one line per check and a summary line; exits 1 when any check fails.
"""
import argparse
import base64
import json
import os
import sys
import warnings

import numpy as np

TOLERANCE = 1e-5

failures = []


def check(condition, what):
    print(f"  {'ok  ' if condition else 'FAIL'} {what}")
    if not condition:
        failures.append(what)
    return condition


def unknown_fields(message, path):
    """Paths of fields the official schema does not know (wrong field numbers would land here)."""
    from google.protobuf import unknown_fields as uf
    found = [f"{path}#{field.field_number}" for field in uf.UnknownFieldSet(message)]
    for descriptor, value in message.ListFields():
        if descriptor.type != descriptor.TYPE_MESSAGE:
            continue
        if descriptor.message_type.GetOptions().map_entry:
            continue
        repeated = getattr(descriptor, "is_repeated", None)
        if repeated is None:
            repeated = descriptor.label == descriptor.LABEL_REPEATED
        items = enumerate(value) if repeated else [(None, value)]
        for index, item in items:
            suffix = "" if index is None else f"[{index}]"
            found += unknown_fields(item, f"{path}.{descriptor.name}{suffix}")
    return found


def load_reference(path):
    with open(path) as file:
        reference = json.load(file)
    count = len(reference["sources"])
    inputs = np.frombuffer(base64.b64decode(reference["inputs"]), "<f4").reshape(reference["input_shape"])
    probabilities = np.frombuffer(base64.b64decode(reference["probabilities"]), "<f4").reshape(count, -1)
    return reference["classes"], inputs, probabilities


def compare(label, got, expected):
    difference = np.abs(got.astype(np.float64) - expected.astype(np.float64))
    worst = np.unravel_index(np.argmax(difference), difference.shape)
    agree = int((got.argmax(axis=1) == expected.argmax(axis=1)).sum())
    check(difference.max() <= TOLERANCE,
          f"{label}: max |p - p_strokekit| = {difference.max():.3g} (image {worst[0]}, class {worst[1]}), "
          f"tolerance {TOLERANCE:g}")
    check(agree == len(expected), f"{label}: argmax agrees on {agree}/{len(expected)} images")
    return float(difference.max()), agree


def check_onnx(path, classes, inputs, expected):
    import onnx
    import onnxruntime

    model = onnx.load(path)
    onnx.checker.check_model(model, full_check=True)
    check(True, f"onnx.checker (full_check, shape inference) passes; IR {model.ir_version}, "
                f"opset {[(o.domain or 'ai.onnx', o.version) for o in model.opset_import]}")
    unknown = unknown_fields(model, "model")
    check(not unknown, f"every field is known to onnx's own schema {unknown or ''}")
    graph_input = model.graph.input[0]
    dims = [d.dim_param or d.dim_value for d in graph_input.type.tensor_type.shape.dim]
    check(graph_input.name == "image" and dims == ["N", 1, 28, 28], f"input {graph_input.name} {dims}")
    outputs = [o.name for o in model.graph.output]
    check(outputs == ["probabilities", "logits"], f"outputs {outputs}")
    metadata = {p.key: p.value for p in model.metadata_props}
    check(json.loads(metadata.get("strokekit.classes", "[]")) == classes,
          f"metadata_props: classes {metadata.get('strokekit.classes')}, "
          f"reject rule {metadata.get('strokekit.reject.rule')!r}")

    session = onnxruntime.InferenceSession(path, providers=["CPUExecutionProvider"])
    probabilities, logits = session.run(["probabilities", "logits"], {"image": inputs})
    single = session.run(["probabilities"], {"image": inputs[:1]})[0]
    check(np.array_equal(single[0], probabilities[0]) or np.abs(single[0] - probabilities[0]).max() < 1e-6,
          f"dynamic batch: ran batches of {len(inputs)} and 1")
    return compare(f"onnxruntime {onnxruntime.__version__}", probabilities, expected)


def validate_coreml_spec(spec, classes):
    """The structural rules Core ML's validator applies to a neural-network classifier, for
    the parts StrokeKit writes (Core ML's own validator ships only in macOS builds)."""
    import coremltools

    description = spec.description
    ios13 = coremltools._SPECIFICATION_VERSION_IOS_13
    check(1 <= spec.specificationVersion <= ios13,
          f"specification version {spec.specificationVersion} (iOS 13 and later run versions up to {ios13})")
    check(spec.WhichOneof("Type") == "neuralNetworkClassifier", "model type neuralNetworkClassifier")
    image = description.input[0].type
    check(len(description.input) == 1 and image.WhichOneof("Type") == "imageType"
          and image.imageType.colorSpace == image.imageType.GRAYSCALE
          and (image.imageType.width, image.imageType.height) == (28, 28),
          f"input '{description.input[0].name}': 28x28 grayscale image")
    outputs = {o.name: o.type.WhichOneof("Type") for o in description.output}
    check(outputs.get(description.predictedFeatureName) == "stringType",
          f"predicted feature '{description.predictedFeatureName}' is a string output")
    probabilities = [o for o in description.output if o.name == description.predictedProbabilitiesName]
    check(len(probabilities) == 1 and probabilities[0].type.WhichOneof("Type") == "dictionaryType"
          and probabilities[0].type.dictionaryType.WhichOneof("KeyType") == "stringKeyType",
          f"predicted probabilities '{description.predictedProbabilitiesName}' is a string-keyed dictionary output")
    nn = spec.neuralNetworkClassifier
    defined = {i.name for i in description.input}
    names = set()
    wiring_ok = True
    for layer in nn.layers:
        wiring_ok &= all(name in defined for name in layer.input) and layer.name not in names
        wiring_ok &= not any(name in defined for name in layer.output)
        names.add(layer.name)
        defined.update(layer.output)
    check(wiring_ok, f"{len(nn.layers)} layers, each reading only earlier blobs, names and outputs unique")
    check(nn.labelProbabilityLayerName in defined, f"probability blob '{nn.labelProbabilityLayerName}' is produced")
    check(list(nn.stringClassLabels.vector) == classes, f"class labels {list(nn.stringClassLabels.vector)}")
    check(all(p.featureName in {i.name for i in description.input} for p in nn.preprocessing),
          "preprocessing applies to the input")
    metadata = dict(description.metadata.userDefined)
    check("strokekit.reject.rule" in metadata and json.loads(metadata.get("strokekit.classes", "[]")) == classes,
          f"user-defined metadata: classes and reject rule ({len(metadata)} keys)")


def check_coreml(path, classes, inputs, expected):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import coremltools
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import coreml_numpy

    model = coremltools.models.MLModel(path)  # loads and parses; compiling needs macOS
    spec = model.get_spec()
    check(True, f"coremltools {coremltools.__version__} loads it")
    unknown = unknown_fields(spec, "model")
    check(not unknown, f"every field is known to coremltools' own schema {unknown or ''}")
    validate_coreml_spec(spec, classes)

    # The app passes 8-bit pixels: recover them and require that the spec's scaler turns
    # them into exactly StrokeKit's input floats.
    pixels = np.rint(inputs[:, 0] * 255).astype(np.uint8)
    probabilities, labels, scaled = coreml_numpy.run_classifier(spec, pixels)
    check(np.array_equal(scaled, inputs), "image scaler maps the 8-bit pixels to exactly StrokeKit's input floats")
    check(labels == classes, "probability order is the class-label order")
    return compare("NumPy interpreter of the Core ML spec", probabilities, expected)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--name", required=True)
    parser.add_argument("--reference", required=True)
    parser.add_argument("--onnx", required=True)
    parser.add_argument("--coreml", required=True)
    args = parser.parse_args()

    classes, inputs, expected = load_reference(args.reference)
    print(f"{args.name}: {len(inputs)} images, classes {classes}")
    print(f" ONNX {args.onnx} ({os.path.getsize(args.onnx):,} bytes)")
    onnx_difference, onnx_agree = check_onnx(args.onnx, classes, inputs, expected)
    print(f" Core ML {args.coreml} ({os.path.getsize(args.coreml):,} bytes)")
    coreml_difference, coreml_agree = check_coreml(args.coreml, classes, inputs, expected)
    summary = {
        "model": args.name, "images": len(inputs),
        "onnx_bytes": os.path.getsize(args.onnx), "onnx_max_abs_difference": onnx_difference,
        "onnx_argmax_agree": onnx_agree,
        "coreml_bytes": os.path.getsize(args.coreml), "coreml_max_abs_difference": coreml_difference,
        "coreml_argmax_agree": coreml_agree, "failures": len(failures),
    }
    print("summary " + json.dumps(summary))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
