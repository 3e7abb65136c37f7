"""onnxruntime's side of scripts/bench-onnxruntime.sh, and the summary of both sides.

  make-inputs FILE          writes 256 seeded 28x28 8-bit images (blobs of random ink, as
                            `strokekit bench` makes by default) one after another
  run --onnx M --inputs F   times onnxruntime on them, as `strokekit bench --inference-only`
                            times StrokeKit: one image on one thread (p50, p99 of 2000 runs
                            after 200 warm-ups) and the whole batch on one thread and on all
                            cores (median, and fastest, of 15 runs after 3 warm-ups); one
                            JSON line
  summary SK.jsonl ORT.jsonl  medians, spreads (min..max) and per-round ratios of both
"""
import json
import os
import statistics
import sys
import time

import numpy as np


def make_inputs(path):
    rng = np.random.default_rng(3)
    images = np.where(rng.random((256, 28, 28)) < 0.15, 255, 0).astype(np.uint8)
    images.tofile(path)


def session(model, threads):
    import onnxruntime as ort
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    return ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])


def run(model, inputs):
    pixels = np.fromfile(inputs, dtype=np.uint8).reshape(-1, 1, 28, 28)
    # Float(v) * Float(1/255): exactly StrokeKit's ModelInput.levels.
    images = pixels.astype(np.float32) * np.float32(1 / 255)
    cores = os.cpu_count()
    one = session(model, 1)
    single = images[:1]
    for _ in range(200):
        one.run(["logits"], {"image": single})
    samples = []
    for _ in range(2000):
        start = time.perf_counter()
        one.run(["probabilities"], {"image": single})
        samples.append((time.perf_counter() - start) * 1e6)
    samples.sort()

    def rates(sess):
        runs = []
        for _ in range(18):
            start = time.perf_counter()
            sess.run(["logits"], {"image": images})
            runs.append(len(images) / (time.perf_counter() - start))
        return statistics.median(runs[3:]), max(runs[3:])

    import onnxruntime as ort
    one_thread, all_cores = rates(one), rates(session(model, cores))
    print(json.dumps({
        "onnxruntime": ort.__version__,
        "numpy": np.__version__,
        "onnxruntime_providers": ort.get_available_providers(),
        "infer_p50_us": samples[len(samples) // 2],
        "infer_p99_us": samples[len(samples) * 99 // 100],
        "batch": len(images),
        "batch_images_per_second_1_thread": one_thread[0],
        "batch_images_per_second_all_cores": all_cores[0],
        "batch_images_per_second_1_thread_fastest": one_thread[1],
        "batch_images_per_second_all_cores_fastest": all_cores[1],
        "threads_all_cores": cores,
    }))


FIGURES = [
    ("infer_p50_us", "1 image, 1 thread, p50 (µs, lower is better)", True),
    ("batch_images_per_second_1_thread", "batch 256, 1 thread (images/s)", False),
    ("batch_images_per_second_all_cores", "batch 256, all cores (images/s)", False),
    ("batch_images_per_second_1_thread_fastest", "batch 256, 1 thread, fastest of the 15 runs (images/s)", False),
    ("batch_images_per_second_all_cores_fastest", "batch 256, all cores, fastest of the 15 runs (images/s)", False),
]


def summary(ours_path, theirs_path):
    ours = [json.loads(line) for line in open(ours_path) if line.strip()]
    theirs = [json.loads(line) for line in open(theirs_path) if line.strip()]
    rounds = min(len(ours), len(theirs))
    version = theirs[0].get("onnxruntime", "?") if theirs else "?"
    machine = ours[0].get("machine", {}) if ours else {}
    peers = f"onnxruntime {version} ({', '.join(theirs[0].get('onnxruntime_providers', []))}; its own MLAS kernels), numpy {theirs[0].get('numpy', '?')}" if theirs else "?"
    where = (f"CPU {machine.get('cpu_model', '?')} ({machine.get('logical_cores', '?')} logical cores; "
             f"{' '.join(machine.get('vector_extensions', []))}); BLAS {machine.get('blas', '?')}, "
             f"core type {machine.get('blas_core_type', '?')} (OPENBLAS_CORETYPE={machine.get('openblas_coretype') or 'unset'}); "
             f"StrokeKit kernels {machine.get('kernels', '?')}")
    load = os.getloadavg()
    print(f"machine: {where}")
    print(f"peers: {peers}; load average at the end {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    print(f"StrokeKit vs onnxruntime {version}, {rounds} interleaved rounds, "
          f"{ours[0]['threads_all_cores']} cores; median [min..max]")
    result = {"rounds": rounds, "onnxruntime": version, "peers": peers, "machine": machine, "load_average": load}
    for key, title, lower_is_better in FIGURES:
        a = [r[key] for r in ours[:rounds]]
        b = [r[key] for r in theirs[:rounds]]
        # Ratio > 1 means StrokeKit is better: time ratio theirs/ours, rate ratio ours/theirs.
        ratios = [(y / x if lower_is_better else x / y) for x, y in zip(a, b)]
        line = (f"{title}: StrokeKit {statistics.median(a):,.1f} [{min(a):,.1f}..{max(a):,.1f}], "
                f"onnxruntime {statistics.median(b):,.1f} [{min(b):,.1f}..{max(b):,.1f}], "
                f"StrokeKit advantage {statistics.median(ratios):.3f}x [{min(ratios):.3f}..{max(ratios):.3f}]")
        print(line)
        result[key] = {"strokekit": a, "onnxruntime": b, "advantage": ratios,
                       "median_advantage": statistics.median(ratios)}
    checks = [r["fast_path_max_difference"] for r in ours[:rounds]]
    print(f"fast path vs reference path, max |logit difference| over all rounds: {max(checks):.3g} (limit 1e-5)")
    result["fast_path_max_difference"] = max(checks)
    return result


def main():
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "make-inputs" and len(sys.argv) == 3:
        make_inputs(sys.argv[2])
    elif command == "run" and len(sys.argv) == 6 and sys.argv[2] == "--onnx" and sys.argv[4] == "--inputs":
        run(sys.argv[3], sys.argv[5])
    elif command == "summary" and len(sys.argv) in (4, 5):
        result = summary(sys.argv[2], sys.argv[3])
        if len(sys.argv) == 5:
            with open(sys.argv[4], "w") as f:
                json.dump(result, f, indent=1)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
