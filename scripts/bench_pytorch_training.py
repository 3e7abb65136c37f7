"""PyTorch's side of scripts/bench-pytorch-training.sh, and the summary of both sides.

  make-inputs FILE COUNT      writes COUNT seeded 28x28 8-bit images (blobs of random ink, as
                              `strokekit bench` trains on by default) one after another
  run --inputs F --threads T --epochs E
                              trains the thesis network (conv 3x3 16, pool, ReLU; 32; 64;
                              dense 128, ReLU; 3 classes) on them as `strokekit bench
                              --training-only` does: labels index mod 3, pixels / 255, batch
                              32 shuffled each epoch, Adam (lr 0.001), cross-entropy, T
                              threads; prints one JSON line with every epoch's images/s and
                              the median after the first
  summary SK.jsonl PT.jsonl OUT.json
                              medians, spreads (min..max) and per-round ratios of both
"""
import json
import os
import statistics
import sys
import time

import numpy as np


def make_inputs(path, count):
    rng = np.random.default_rng(5)
    images = np.where(rng.random((count, 28, 28)) < 0.15, 255, 0).astype(np.uint8)
    images.tofile(path)


def run(inputs, threads, epochs):
    import torch
    from torch import nn

    torch.set_num_threads(threads)
    torch.manual_seed(0)
    pixels = np.fromfile(inputs, dtype=np.uint8).reshape(-1, 1, 28, 28)
    images = torch.from_numpy(pixels.astype(np.float32) * np.float32(1 / 255))
    labels = torch.arange(len(images)) % 3
    model = nn.Sequential(
        nn.Conv2d(1, 16, 3, padding=1), nn.MaxPool2d(2), nn.ReLU(),
        nn.Conv2d(16, 32, 3, padding=1), nn.MaxPool2d(2), nn.ReLU(),
        nn.Conv2d(32, 64, 3, padding=1), nn.MaxPool2d(2), nn.ReLU(),
        nn.Flatten(), nn.Linear(576, 128), nn.ReLU(), nn.Linear(128, 3))
    optimizer = torch.optim.Adam(model.parameters(), lr=0.001)
    loss_function = nn.CrossEntropyLoss()
    generator = torch.Generator().manual_seed(0)
    rates = []
    model.train()
    for _ in range(epochs):
        order = torch.randperm(len(images), generator=generator)
        start = time.perf_counter()
        for first in range(0, len(images), 32):
            batch = order[first:first + 32]
            optimizer.zero_grad(set_to_none=True)
            loss = loss_function(model(images[batch]), labels[batch])
            loss.backward()
            optimizer.step()
        rates.append(len(images) / (time.perf_counter() - start))
    config = torch.__config__.show()
    isa = next((line.split(":", 1)[1].strip() for line in config.splitlines() if "CPU capability" in line), "?")
    print(json.dumps({
        "torch": torch.__version__, "numpy": np.__version__, "threads": threads, "cpu_capability": isa,
        "train_epoch_images_per_second": rates,
        "train_images_per_second": statistics.median(rates[1:]),
    }))


def summary(ours_path, theirs_path):
    ours = [json.loads(line) for line in open(ours_path) if line.strip()]
    theirs = [json.loads(line) for line in open(theirs_path) if line.strip()]
    rounds = min(len(ours), len(theirs))
    machine = ours[0].get("machine", {}) if ours else {}
    peer = theirs[0] if theirs else {}
    where = (f"CPU {machine.get('cpu_model', '?')} ({machine.get('logical_cores', '?')} logical cores; "
             f"{' '.join(machine.get('vector_extensions', []))}); BLAS {machine.get('blas', '?')}, "
             f"core type {machine.get('blas_core_type', '?')} (OPENBLAS_CORETYPE={machine.get('openblas_coretype') or 'unset'}); "
             f"StrokeKit kernels {machine.get('kernels', '?')}")
    peers = f"PyTorch {peer.get('torch', '?')} (CPU capability {peer.get('cpu_capability', '?')}), numpy {peer.get('numpy', '?')}"
    load = os.getloadavg()
    print(f"machine: {where}")
    print(f"peers: {peers}; load average at the end {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    a = [r["train_images_per_second"] for r in ours[:rounds]]
    b = [r["train_images_per_second"] for r in theirs[:rounds]]
    ratios = [x / y for x, y in zip(a, b)]
    workers = ours[0].get("workers", "?") if ours else "?"
    print(f"training, thesis network, {ours[0].get('train_images', '?') if ours else '?'} images, batch 32, "
          f"{workers} threads, {rounds} interleaved rounds, median epoch after the first; median [min..max]: "
          f"StrokeKit {statistics.median(a):,.0f} [{min(a):,.0f}..{max(a):,.0f}] images/s, "
          f"PyTorch {statistics.median(b):,.0f} [{min(b):,.0f}..{max(b):,.0f}] images/s, "
          f"StrokeKit/PyTorch {statistics.median(ratios):.3f}x [{min(ratios):.3f}..{max(ratios):.3f}]")
    return {"rounds": rounds, "peers": peers, "machine": machine, "load_average": load,
            "strokekit": a, "pytorch": b, "ratio": ratios, "median_ratio": statistics.median(ratios)}


def main():
    args = sys.argv[1:]
    if len(args) == 3 and args[0] == "make-inputs":
        make_inputs(args[1], int(args[2]))
    elif len(args) == 7 and args[0] == "run" and args[1] == "--inputs" and args[3] == "--threads" and args[5] == "--epochs":
        run(args[2], int(args[4]), int(args[6]))
    elif len(args) == 4 and args[0] == "summary":
        result = summary(args[1], args[2])
        with open(args[3], "w") as f:
            json.dump(result, f, indent=1)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
