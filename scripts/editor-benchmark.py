#!/usr/bin/env python3
"""Latency and load benchmark of the editor server (`strokekit serve`), on loopback.

    scripts/editor-benchmark.py                      # starts .build/release/strokekit serve --port 0
    scripts/editor-benchmark.py --url http://127.0.0.1:8080   # a server already running
    scripts/editor-benchmark.py --sketch FILE.ndjson # replay another diagram (one stroke per line)
    scripts/editor-benchmark.py --json               # one JSON object on stdout

1. Latency: a 30-stroke diagram (10 states, the initial arrow, 9 transitions, 5 self-loops,
   5 final circles; synthesized here, or --sketch) is drawn stroke by stroke into a new session,
   --repeats times. Each answer's Server-Timing header is the server's time from the request
   reaching the stroke handler (body not yet read) to the updated automaton encoded as JSON;
   p50 and p95 of it over all strokes, and of the round trip seen by this client.
2. Load: --sessions concurrent sessions (threads, one keep-alive connection each) draw the
   diagram stroke after stroke for --seconds, clearing and starting again when it is done.
   Errors are answers other than 200 and failed connections; lost strokes are strokes this
   client had answered with 200 minus the strokes the server counted in each session at the end.
Standard library only. The run stops by itself (bounded by --seconds).
"""

import argparse
import http.client
import json
import math
import os
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent


def circle(cx, cy, r, start=0.0, n=40):
    return [[round(cx + r * math.cos(start + 2 * math.pi * i / n), 1), round(cy + r * math.sin(start + 2 * math.pi * i / n), 1)]
            for i in range(n + 1)]


def arrow(start, tip):
    (sx, sy), (tx, ty) = start, tip
    dx, dy = tx - sx, ty - sy
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    size = 0.15 * length
    points = [[round(sx + dx * i / 14, 1), round(sy + dy * i / 14, 1)] for i in range(15)]
    points += [[tx - ux * size - uy * size * 0.6, ty - uy * size + ux * size * 0.6], [tx, ty],
               [tx - ux * size + uy * size * 0.6, ty - uy * size - ux * size * 0.6]]
    return points


def synthesized_diagram():
    """30 strokes: 10 states on two rows, initial arrow, 9 arrows, 5 loops, 5 final circles."""
    r = 30
    centres = [(80 + 130 * (i % 5), 100 + 200 * (i // 5)) for i in range(10)]
    strokes = [circle(x, y, r) for x, y in centres]
    strokes.append(arrow((10, 100), (47, 100)))
    for a, b in zip(range(9), range(1, 10)):
        (ax, ay), (bx, by) = centres[a], centres[b]
        d = math.hypot(bx - ax, by - ay)
        ux, uy = (bx - ax) / d, (by - ay) / d
        strokes.append(arrow((ax + ux * (r + 3), ay + uy * (r + 3)), (bx - ux * (r + 4), by - uy * (r + 4))))
    for i in range(0, 10, 2):
        x, y = centres[i]
        strokes.append(circle(x, y - r * 1.3, r * 0.5, start=math.pi / 2))
    for i in range(1, 10, 2):
        x, y = centres[i]
        strokes.append(circle(x, y, r * 1.3, start=1.0))
    return strokes


def read_sketch(path):
    strokes = []
    for line in open(path):
        if line.strip():
            for xs, ys, *_ in json.loads(line)["drawing"]:
                strokes.append([[x, y] for x, y in zip(xs, ys)])
    return strokes


class Client:
    """One keep-alive HTTP connection."""

    def __init__(self, host, port):
        self.connection = http.client.HTTPConnection(host, port, timeout=30)

    def request(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"} if data is not None else {}
        self.connection.request(method, path, body=data, headers=headers)
        response = self.connection.getresponse()
        payload = response.read()
        return response.status, response.getheader("Server-Timing"), payload


def server_ms(timing):
    match = re.search(r"dur=([0-9.]+)", timing or "")
    return float(match.group(1)) if match else float("nan")


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))]


def latency(host, port, strokes, repeats):
    client = Client(host, port)
    server, roundtrip = [], []
    for _ in range(repeats):
        status, _, payload = client.request("POST", "/api/sessions")
        session = json.loads(payload)["session"]
        for stroke in strokes:
            started = time.perf_counter()
            status, timing, _ = client.request("POST", f"/api/sessions/{session}/strokes", {"strokes": [stroke]})
            roundtrip.append((time.perf_counter() - started) * 1000)
            if status != 200:
                raise RuntimeError(f"stroke answered {status}")
            server.append(server_ms(timing))
        client.request("DELETE", f"/api/sessions/{session}")
    return {
        "strokes_per_diagram": len(strokes), "diagrams": repeats,
        "server_ms_p50": round(statistics.median(server), 3), "server_ms_p95": round(percentile(server, 0.95), 3),
        "server_ms_max": round(max(server), 3),
        "roundtrip_ms_p50": round(statistics.median(roundtrip), 3), "roundtrip_ms_p95": round(percentile(roundtrip, 0.95), 3),
    }


def load(host, port, strokes, sessions, seconds):
    deadline = time.monotonic() + seconds
    results = []
    lock = threading.Lock()

    def worker():
        sent_ok = errors = 0
        server_times = []
        session = None
        try:
            client = Client(host, port)
            status, _, payload = client.request("POST", "/api/sessions")
            session = json.loads(payload)["session"]
            index = 0
            while time.monotonic() < deadline:
                if index == len(strokes):
                    status, _, _ = client.request("POST", f"/api/sessions/{session}/clear")
                    errors += status != 200
                    index = 0
                    continue
                try:
                    status, timing, _ = client.request("POST", f"/api/sessions/{session}/strokes", {"strokes": [strokes[index]]})
                except (OSError, http.client.HTTPException):
                    errors += 1
                    client = Client(host, port)
                    continue
                if status == 200:
                    sent_ok += 1
                    server_times.append(server_ms(timing))
                else:
                    errors += 1
                index += 1
            status, _, payload = client.request("GET", f"/api/sessions/{session}")
            counted = json.loads(payload)["automaton"]["strokesReceived"] if status == 200 else -1
        except (OSError, http.client.HTTPException, ValueError):
            errors += 1
            counted = -1
        with lock:
            results.append((sent_ok, counted, errors, server_times))

    threads = [threading.Thread(target=worker) for _ in range(sessions)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    strokes_ok = sum(r[0] for r in results)
    server_times = [t for r in results for t in r[3]]
    return {
        "sessions": sessions, "seconds": round(elapsed, 1), "strokes_answered": strokes_ok,
        "strokes_per_second": round(strokes_ok / elapsed, 1),
        "errors": sum(r[2] for r in results),
        "lost_strokes": sum(max(0, r[0] - r[1]) if r[1] >= 0 else r[0] for r in results),
        "server_ms_p50": round(statistics.median(server_times), 3) if server_times else None,
        "server_ms_p95": round(percentile(server_times, 0.95), 3) if server_times else None,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", help="a running server (default: start strokekit serve --port 0)")
    parser.add_argument("--strokekit", default=os.environ.get("STROKEKIT", str(ROOT / ".build/release/strokekit")))
    parser.add_argument("--sketch", help="ndjson diagram to replay, one stroke per request (default: synthesized, 30 strokes)")
    parser.add_argument("--repeats", type=int, default=20, help="diagrams drawn for the latency figures")
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--json", action="store_true")
    arguments = parser.parse_args()

    server = None
    url = arguments.url
    if not url:
        server = subprocess.Popen([arguments.strokekit, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
        url = re.search(r"(http://\S+)", server.stdout.readline()).group(1)
    try:
        parsed = urlparse(url)
        strokes = read_sketch(arguments.sketch) if arguments.sketch else synthesized_diagram()
        if not arguments.json:
            print(f"latency: {len(strokes)}-stroke diagram x {arguments.repeats} at {url}", file=sys.stderr)
        result = {"latency": latency(parsed.hostname, parsed.port, strokes, arguments.repeats)}
        if not arguments.json:
            print(f"load: {arguments.sessions} sessions for {arguments.seconds:g} s", file=sys.stderr)
        result["load"] = load(parsed.hostname, parsed.port, strokes, arguments.sessions, arguments.seconds)
    finally:
        if server:
            server.terminate()
            server.wait(timeout=10)
    # Where it ran (CPU, vector extensions, BLAS and its core type), from the same binary, and
    # the peer: this client's Python.
    try:
        machine = json.loads(subprocess.run([arguments.strokekit, "bench", "--machine", "--json"], capture_output=True,
                                            text=True, check=True).stdout)["machine"]
    except (OSError, subprocess.CalledProcessError, ValueError, KeyError):
        machine = {"cpu_model": "unknown (run with a strokekit that has `bench --machine`)"}
    result["machine"] = machine
    result["client"] = f"Python {sys.version.split()[0]} (http.client, one thread per session)"
    if arguments.json:
        print(json.dumps(result))
    else:
        print(f"machine: CPU {machine.get('cpu_model')} ({machine.get('logical_cores', '?')} logical cores; "
              f"{' '.join(machine.get('vector_extensions', []))}); BLAS {machine.get('blas', '?')}, core type "
              f"{machine.get('blas_core_type', '?')} (OPENBLAS_CORETYPE={machine.get('openblas_coretype') or 'unset'}); "
              f"client {result['client']}")
        for part, figures in ((key, value) for key, value in result.items() if key in ("latency", "load")):
            print(part + ": " + ", ".join(f"{key} {value}" for key, value in figures.items()))
    return 0 if result["load"]["errors"] == 0 and result["load"]["lost_strokes"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
