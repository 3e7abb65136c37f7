#!/usr/bin/env python3
"""Latency, load and durability benchmarks of the editor server (`strokekit serve`), on loopback.

    scripts/editor-benchmark.py                      # starts .build/release/strokekit serve --port 0
    scripts/editor-benchmark.py --store memory:      # ... keeping sessions in memory only
    scripts/editor-benchmark.py --store postgres://strokekit@127.0.0.1:55432/postgres
    scripts/editor-benchmark.py --url http://127.0.0.1:8080   # a server already running
    scripts/editor-benchmark.py --pace 0.5-1         # each session draws a stroke every 0.5-1 s
    scripts/editor-benchmark.py --sketch FILE.ndjson # replay another diagram (one stroke per line)
    scripts/editor-benchmark.py --mode kill          # SIGKILL during the load, restart, count
    scripts/editor-benchmark.py --mode balanced --store postgres://...   # two servers behind nginx
    scripts/editor-benchmark.py --mode expire        # 10,000 sessions come and go: RSS
    scripts/editor-benchmark.py --mode latency --sketch ../shared/datasets/fa-diagrams/ink/writer010_fa_005.ndjson
                                                     # one diagram's strokes into one session, no load
    scripts/editor-benchmark.py --mode compare --stores memory:,sqlite:,postgres://strokekit@127.0.0.1:55432/postgres
                                                     # the stores side by side, paced and closed loop, 3 runs
    scripts/editor-benchmark.py --json               # one JSON object on stdout

--mode load (the default):
1. Latency: a 30-stroke diagram (10 states, the initial arrow, 9 transitions, 5 self-loops,
   5 final circles; synthesized here, or --sketch) is drawn stroke by stroke into a new session,
   --repeats times. Each answer's Server-Timing header is the server's time from the request
   reaching the stroke handler (body not yet read) to the edit committed to the store and the
   updated automaton encoded as JSON; p50 and p95 of it over all strokes, and of the round trip
   seen by this client.
2. Load: --sessions concurrent sessions (threads, one keep-alive connection each) draw the
   diagram stroke after stroke for --seconds, clearing and starting again when it is done.
   With --pace LOW-HIGH each session pauses LOW..HIGH seconds (uniformly drawn) between its
   strokes, as a person drawing does, instead of sending the next one as soon as it is answered.
   Errors are answers other than 200 and failed connections; lost strokes are strokes this
   client had answered with 200 minus the strokes the server counted in each session at the end.
   The server's time per stroke is split (Server-Timing parts, p95 of each on its own): load
   (the session asked of the store: only when the server's cached copy was not current), read
   (the classifier), store (from queueing the edit to its batch committed), commit (the batch's
   transaction), wait (store minus commit: earlier batches); batch_mean is edits per commit.
   loadavg_1min: the machine's 1-minute load average sampled during the run (mean, max).
--mode compare: the load of part 2 on each store of --stores (sqlite: alone is a new file per run),
   --runs times with the stores interleaved, for each loop of --loops: paced (--pace, default
   0.5-1 s: people drawing) and closed (no pause: the server's capacity). Per store and loop, the
   median [min..max] over the runs of strokes per second and of the server's time per stroke at
   p50, p95 and p99, with its two parts: store (queued to committed) and read (the classifier),
   the client's round trip, and the load average. For a postgres:// store, pgbench (from Debian's
   postgresql package) then runs the server's append statement alone, with as many clients at the
   same rate, for min(--seconds, 30) s: the time PostgreSQL itself takes on this machine.
--mode latency: part 1 only (the diagram drawn --repeats times, one session each, one request
   at a time), with the spread of the server's time (quartiles, min, max), its parts (p50 and
   p95 of each on its own: read, the reader's re-reading of the ink; store, the edit queued and
   committed; rest, the request's body decoded and the automaton's view built and encoded as
   JSON) and the machine's load average before and after: the figure of stroke to automaton
   on a quiet server.
--mode kill: the load for --seconds, then SIGKILL, the server started again on the same store,
   and every session read back: acknowledged strokes (200 before the kill) against strokes found.
--mode balanced: two servers on one --store (PostgreSQL) behind Debian's nginx (round-robin,
   started here on loopback with a generated configuration), the load through nginx for
   --seconds; then every session read from each server directly: errors, lost strokes, and
   sessions whose automaton differs between the servers.
--mode expire: --expire-sessions sessions created (one stroke each) in waves under the cap,
   with --ttl idle time; the server's resident memory (VmRSS) at the start, after the first
   wave, after all, and once they have all expired.
Standard library only (and nginx for --mode balanced). The run stops by itself.
"""

import argparse
import http.client
import json
import math
import os
import re
import statistics
import subprocess
import shutil
import signal
import sys
import tempfile
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


def timing_parts(timing):
    """The Server-Timing header's parts: {"recognize": ms, "load": ms, ..., "batch": n}."""
    parts = {}
    for item in (timing or "").split(","):
        name, _, rest = item.strip().partition(";")
        match = re.match(r"(dur|desc)=([0-9.]+)", rest)
        if name and match:
            parts[name] = float(match.group(2))
    return parts


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))]


def latency(host, port, strokes, repeats, spread=False):
    client = Client(host, port)
    server, roundtrip, parts = [], [], []
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
            parts.append(timing_parts(timing))
        client.request("DELETE", f"/api/sessions/{session}")
    # Where the server's time went (--mode latency): p50 and p95 of each part on its own (they
    # do not add up): read (the reader), store (queued to committed), and the rest (the body
    # decoded, the session looked up, the automaton's view built and encoded as JSON).
    split = {}
    if spread:
        rest = [p["recognize"] - p.get("read", 0) - p.get("store", 0) - p.get("load", 0)
                for p in parts if "recognize" in p]
        for name, values in (("read", [p["read"] for p in parts if "read" in p]),
                             ("store", [p["store"] for p in parts if "store" in p]), ("rest", rest)):
            if values:
                split[f"{name}_ms_p50"] = round(statistics.median(values), 3)
                split[f"{name}_ms_p95"] = round(percentile(values, 0.95), 3)
    return {
        "strokes_per_diagram": len(strokes), "diagrams": repeats,
        "server_ms_p50": round(statistics.median(server), 3), "server_ms_p95": round(percentile(server, 0.95), 3),
        "server_ms_max": round(max(server), 3),
        "roundtrip_ms_p50": round(statistics.median(roundtrip), 3), "roundtrip_ms_p95": round(percentile(roundtrip, 0.95), 3),
    } | ({
        "server_ms_min": round(min(server), 3), "server_ms_q1": round(percentile(server, 0.25), 3),
        "server_ms_q3": round(percentile(server, 0.75), 3),
    } if spread else {}) | split


def load(host, port, strokes, sessions, seconds, stop=None, read_back=True, pace=None):
    """--sessions threads drawing for --seconds (or until `stop` is set); per-session results.
    Without `pace`, each session sends its next stroke as soon as the last is answered (closed
    loop, no pause); with pace=(low, high), it waits a uniformly drawn low..high seconds between
    strokes (a person drawing), starting at a random point of the first interval."""
    import random
    deadline = time.monotonic() + seconds
    results = []
    lock = threading.Lock()

    def worker():
        sent_ok = errors = 0
        server_times, parts, roundtrips = [], [], []
        session = None
        counted = -1
        generator = random.Random()
        try:
            client = Client(host, port)
            status, _, payload = client.request("POST", "/api/sessions")
            session = json.loads(payload)["session"]
            index = 0
            next_at = time.monotonic() + (generator.uniform(0, pace[1]) if pace else 0)
            while time.monotonic() < deadline and not (stop and stop.is_set()):
                if pace:
                    pause = next_at - time.monotonic()
                    if time.monotonic() + max(0.0, pause) >= deadline:
                        break
                    if pause > 0 and (stop.wait(pause) if stop else time.sleep(pause)):
                        break
                    next_at = max(next_at, time.monotonic()) + generator.uniform(*pace)
                try:
                    if index == len(strokes):
                        status, _, _ = client.request("POST", f"/api/sessions/{session}/clear")
                        errors += status != 200
                        index = 0
                        continue
                    sent_at = time.perf_counter()
                    status, timing, _ = client.request("POST", f"/api/sessions/{session}/strokes", {"strokes": [strokes[index]]})
                    roundtrip = (time.perf_counter() - sent_at) * 1000
                except (OSError, http.client.HTTPException):
                    if stop and stop.is_set():
                        break
                    errors += 1
                    client = Client(host, port)
                    continue
                if status == 200:
                    sent_ok += 1
                    server_times.append(server_ms(timing))
                    parts.append(timing_parts(timing))
                    roundtrips.append(roundtrip)
                else:
                    errors += 1
                index += 1
            if read_back:
                status, _, payload = client.request("GET", f"/api/sessions/{session}")
                counted = json.loads(payload)["automaton"]["strokesReceived"] if status == 200 else -1
        except (OSError, http.client.HTTPException, ValueError):
            if not (stop and stop.is_set()):
                errors += 1
        with lock:
            results.append({"session": session, "acked": sent_ok, "counted": counted, "errors": errors,
                            "server_times": server_times, "parts": parts, "roundtrips": roundtrips})

    threads = [threading.Thread(target=worker) for _ in range(sessions)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    return results, elapsed


def summarize(results, elapsed, sessions, loadavg=None):
    strokes_ok = sum(r["acked"] for r in results)
    server_times = [t for r in results for t in r["server_times"]]
    parts = [p for r in results for p in r.get("parts", [])]
    roundtrips = [t for r in results for t in r.get("roundtrips", [])]

    def p95(values):
        return round(percentile(values, 0.95), 3) if values else None

    # Where the server's time per stroke went: p95 of each part on its own (they do not add up);
    # the store's part (queued to committed) and the reading also at p50 and p99.
    split = {}
    for name in ("load", "read", "store", "commit"):
        values = [p[name] for p in parts if name in p]
        if name in ("read", "store") and values:
            split[f"{name}_ms_p50"] = round(statistics.median(values), 3)
        split[f"{name}_ms_p95"] = p95(values)
        if name in ("read", "store") and values:
            split[f"{name}_ms_p99"] = round(percentile(values, 0.99), 3)
    waits = [p["store"] - p["commit"] for p in parts if "store" in p and "commit" in p]
    split["wait_ms_p95"] = p95(waits)
    batches = [p["batch"] for p in parts if "batch" in p]
    split["batch_mean"] = round(statistics.mean(batches), 2) if batches else None
    return {
        "sessions": sessions, "seconds": round(elapsed, 1), "strokes_answered": strokes_ok,
        "strokes_per_second": round(strokes_ok / elapsed, 1),
        "errors": sum(r["errors"] for r in results),
        "lost_strokes": sum(max(0, r["acked"] - r["counted"]) if r["counted"] >= 0 else r["acked"] for r in results),
        "server_ms_p50": round(statistics.median(server_times), 3) if server_times else None,
        "server_ms_p95": round(percentile(server_times, 0.95), 3) if server_times else None,
        "server_ms_p99": round(percentile(server_times, 0.99), 3) if server_times else None,
        **split,
        "roundtrip_ms_p50": round(statistics.median(roundtrips), 3) if roundtrips else None,
        "roundtrip_ms_p95": p95(roundtrips),
        "roundtrip_ms_p99": round(percentile(roundtrips, 0.99), 3) if roundtrips else None,
        **({"loadavg_1min": loadavg} if loadavg else {}),
    }


class Server:
    """`strokekit serve --port 0` started here; the address it printed."""

    def __init__(self, strokekit, store, extra=(), cwd=None):
        self.process = subprocess.Popen([strokekit, "serve", "--port", "0", "--store", store, *extra],
                                        stdout=subprocess.PIPE, text=True, cwd=cwd)
        line = self.process.stdout.readline()
        match = re.search(r"(http://\S+?)/? ", line + " ")
        if not match:
            self.process.wait(timeout=10)
            raise RuntimeError(f"strokekit serve did not start (exit {self.process.returncode}): {line}")
        self.url = match.group(1).rstrip("/")
        parsed = urlparse(self.url)
        self.host, self.port = parsed.hostname, parsed.port

    def rss_kib(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return -1

    def stop(self, kill=False):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
            self.process.wait(timeout=30)


def session_state(host, port, session):
    """The session as a server answers GET (without the status message), or None."""
    status, _, payload = Client(host, port).request("GET", f"/api/sessions/{session}")
    if status != 200:
        return None
    answer = json.loads(payload)
    answer.pop("message", None)
    return answer


def kill_test(arguments, strokes, store):
    """The load, SIGKILL after --seconds, restart on the same store, every session read back."""
    server = Server(arguments.strokekit, store, cwd=arguments.workdir)
    stop = threading.Event()
    holder = {}

    def drive():
        holder["results"], holder["elapsed"] = load(server.host, server.port, strokes, arguments.sessions,
                                                    arguments.seconds + 3600, stop=stop, read_back=False)

    driver = threading.Thread(target=drive)
    driver.start()
    time.sleep(arguments.seconds)
    server.stop(kill=True)
    stop.set()
    driver.join()
    results = holder["results"]
    server = Server(arguments.strokekit, store, cwd=arguments.workdir)
    try:
        lost = extra = missing = 0
        for result in results:
            if result["session"] is None:
                continue
            state = session_state(server.host, server.port, result["session"])
            if state is None:
                missing += 1
                lost += result["acked"]
                continue
            # The diagram is cleared every len(strokes) strokes; the clears are not strokes.
            found = state["automaton"]["strokesReceived"]
            lost += max(0, result["acked"] - found)
            extra += max(0, found - result["acked"])
        return {
            "store": redact(store), "sessions": len(results), "seconds_before_kill": arguments.seconds,
            "strokes_acknowledged": sum(r["acked"] for r in results),
            "strokes_found": sum(r["acked"] for r in results) - lost + extra,
            "lost_strokes": lost, "sessions_missing": missing,
            "in_flight_strokes_kept": extra,
        }
    finally:
        server.stop()


NGINX_CONF = """
worker_processes 1;
daemon off;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    upstream strokekit {{
        server {a};
        server {b};
        keepalive 64;
    }}
    server {{
        listen 127.0.0.1:{port};
        client_max_body_size 1m;
        location / {{
            proxy_pass http://strokekit;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_next_upstream off;
        }}
    }}
}}
"""


def free_port():
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def balanced_test(arguments, strokes, store):
    """Two servers on one store behind nginx round-robin; sessions compared across servers."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.path.exists(nginx):
        raise RuntimeError("nginx is not installed (apt-get install nginx)")
    servers = [Server(arguments.strokekit, store, cwd=arguments.workdir) for _ in range(2)]
    folder = tempfile.mkdtemp(prefix="strokekit-nginx-")
    port = free_port()
    with open(f"{folder}/nginx.conf", "w") as conf:
        conf.write(NGINX_CONF.format(dir=folder, port=port, a=f"{servers[0].host}:{servers[0].port}",
                                     b=f"{servers[1].host}:{servers[1].port}"))
    balancer = subprocess.Popen([nginx, "-p", folder, "-c", f"{folder}/nginx.conf"], stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                Client("127.0.0.1", port).request("GET", "/")
                break
            except OSError:
                time.sleep(0.05)
        sampler = LoadAverage()
        results, elapsed = load("127.0.0.1", port, strokes, arguments.sessions, arguments.seconds)
        summary = summarize(results, elapsed, arguments.sessions, loadavg=sampler.stop())
        differing = unreadable = 0
        for result in results:
            if result["session"] is None:
                unreadable += 1
                continue
            states = [session_state(s.host, s.port, result["session"]) for s in servers]
            if None in states:
                unreadable += 1
            elif json.dumps(states[0], sort_keys=True) != json.dumps(states[1], sort_keys=True):
                differing += 1
        summary.update({"store": redact(store), "balancer": "nginx round-robin, 2 servers",
                        "sessions_differing_between_servers": differing, "sessions_unreadable": unreadable})
        return summary
    finally:
        balancer.terminate()
        balancer.wait(timeout=10)
        for server in servers:
            server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def expire_test(arguments, strokes, store):
    """--expire-sessions sessions created in waves, each drawing one stroke, left to expire."""
    ttl = arguments.ttl
    cap = 1000
    server = Server(arguments.strokekit, store, extra=["--session-ttl", f"{ttl}s", "--max-sessions", str(cap)],
                    cwd=arguments.workdir)
    try:
        client = Client(server.host, server.port)
        figures = {"store": redact(store), "ttl_seconds": ttl, "cap": cap, "rss_kib_start": server.rss_kib()}
        created = refused = 0
        wave = 0
        started = time.monotonic()
        while created < arguments.expire_sessions:
            wave_started = time.monotonic()
            for _ in range(min(cap // 2, arguments.expire_sessions - created)):
                status, _, payload = client.request("POST", "/api/sessions")
                if status != 200:
                    refused += 1
                    continue
                session = json.loads(payload)["session"]
                client.request("POST", f"/api/sessions/{session}/strokes", {"strokes": [strokes[0]]})
                created += 1
            wave += 1
            if wave == 1:
                figures["rss_kib_after_first_wave"] = server.rss_kib()
            # Let this wave expire before the next, so live sessions stay under the cap.
            time.sleep(max(0.0, ttl + 0.5 - (time.monotonic() - wave_started)))
        figures["rss_kib_after_all_created"] = server.rss_kib()
        time.sleep(ttl + min(60, max(0.2, ttl / 10)) + 1)
        status, _, _ = client.request("POST", "/api/sessions")
        figures.update({"sessions_created": created, "refused": refused, "waves": wave,
                        "seconds": round(time.monotonic() - started, 1),
                        "rss_kib_after_expiry": server.rss_kib()})
        return figures
    finally:
        server.stop()


class LoadAverage:
    """The machine's 1-minute load average sampled every 5 s while a run lasts: its mean and
    maximum (the machine is shared; the load includes this client and the server)."""

    def __init__(self):
        self.samples = [os.getloadavg()[0]]
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.sample, daemon=True)
        self.thread.start()

    def sample(self):
        while not self.done.wait(5):
            self.samples.append(os.getloadavg()[0])

    def stop(self):
        self.done.set()
        self.thread.join()
        self.samples.append(os.getloadavg()[0])
        return {"mean": round(statistics.mean(self.samples), 2), "max": round(max(self.samples), 2)}


def redact(url):
    return re.sub(r"//([^:/@]+):[^@]*@", r"//\1:***@", url)


def pace_range(text):
    low, _, high = text.partition("-")
    try:
        low, high = float(low), float(high or low)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--pace {text}: expected LOW-HIGH seconds, e.g. 0.5-1")
    if not 0 < low <= high:
        raise argparse.ArgumentTypeError(f"--pace {text}: expected 0 < LOW <= HIGH")
    return (low, high)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mode", choices=["load", "compare", "latency", "kill", "balanced", "expire"], default="load")
    parser.add_argument("--url", help="a running server (--mode load only; default: start strokekit serve --port 0)")
    parser.add_argument("--strokekit", default=os.environ.get("STROKEKIT", str(ROOT / ".build/release/strokekit")))
    parser.add_argument("--store", help="the started server's --store (default: sqlite: in a new temporary folder)")
    parser.add_argument("--sketch", help="ndjson diagram to replay, one stroke per request (default: synthesized, 30 strokes)")
    parser.add_argument("--repeats", type=int, default=20, help="diagrams drawn for the latency figures")
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--pace", type=pace_range, metavar="LOW-HIGH",
                        help="--mode load: seconds between one session's strokes, drawn uniformly in LOW-HIGH "
                             "(e.g. 0.5-1, a person drawing); default: no pause (closed loop)")
    parser.add_argument("--stores", default="memory:,sqlite:",
                        help="--mode compare: stores, comma-separated (sqlite: alone: a new file per run), "
                             "e.g. memory:,sqlite:,postgres://strokekit@127.0.0.1:55432/postgres")
    parser.add_argument("--runs", type=int, default=3, help="--mode compare: runs of each store, interleaved")
    parser.add_argument("--loops", default="paced,closed",
                        help="--mode compare: paced (a stroke every --pace seconds, default 0.5-1) and/or closed")
    parser.add_argument("--no-floor", dest="floor", action="store_false",
                        help="--mode compare: skip pgbench's run of the append statement alone on a postgres:// store")
    parser.add_argument("--server-option", action="append", default=[], metavar="OPTION",
                        help="an option passed to each started strokekit serve (repeat for several)")
    parser.add_argument("--expire-sessions", type=int, default=10_000, help="sessions created in --mode expire")
    parser.add_argument("--ttl", type=float, default=3, help="--session-ttl in seconds for --mode expire")
    parser.add_argument("--json", action="store_true")
    arguments = parser.parse_args()

    strokes = read_sketch(arguments.sketch) if arguments.sketch else synthesized_diagram()
    arguments.strokekit = os.path.abspath(arguments.strokekit)
    arguments.workdir = tempfile.mkdtemp(prefix="strokekit-bench-")
    store = arguments.store or f"sqlite:{arguments.workdir}/sessions.sqlite"
    try:
        if arguments.mode == "kill":
            result = {"kill": kill_test(arguments, strokes, store)}
            ok = result["kill"]["lost_strokes"] == 0 and result["kill"]["sessions_missing"] == 0
        elif arguments.mode == "balanced":
            result = {"balanced": balanced_test(arguments, strokes, store)}
            b = result["balanced"]
            ok = b["errors"] == 0 and b["lost_strokes"] == 0 and b["sessions_differing_between_servers"] == 0
        elif arguments.mode == "latency":
            result = {"latency": latency_mode(arguments, strokes, store)}
            ok = True
        elif arguments.mode == "compare":
            result = {"compare": compare_mode(arguments, strokes)}
            ok = all(row.get("errors", 0) == 0 and row.get("lost_strokes", 0) == 0 for row in result["compare"])
        elif arguments.mode == "expire":
            result = {"expire": expire_test(arguments, strokes, store)}
            ok = result["expire"]["refused"] == 0
        else:
            result, ok = load_mode(arguments, strokes, store)
    finally:
        shutil.rmtree(arguments.workdir, ignore_errors=True)
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
        for part, figures in ((key, value) for key, value in result.items() if key not in ("machine", "client")):
            if part == "compare":
                print_compare(figures)
            else:
                print(part + ": " + ", ".join(f"{key} {value}" for key, value in figures.items()))
    return 0 if ok else 1


def latency_mode(arguments, strokes, store):
    """The latency part alone, with its spread and the load average around it."""
    server = None if arguments.url else Server(arguments.strokekit, store, cwd=arguments.workdir)
    url = arguments.url or server.url
    try:
        parsed = urlparse(url)
        if not arguments.json:
            print(f"latency: {len(strokes)}-stroke diagram x {arguments.repeats} at {url} ({redact(store)})", file=sys.stderr)
        before = os.getloadavg()
        figures = latency(parsed.hostname, parsed.port, strokes, arguments.repeats, spread=True)
        after = os.getloadavg()
    finally:
        if server:
            server.stop()
    figures["load_average_1min_before_after"] = [round(before[0], 2), round(after[0], 2)]
    figures["logical_cores"] = os.cpu_count()
    return figures


COMPARED = ("strokes_per_second", "server_ms_p50", "server_ms_p95", "server_ms_p99", "store_ms_p50", "store_ms_p95",
            "store_ms_p99", "read_ms_p50", "read_ms_p95", "roundtrip_ms_p95")


def compare_mode(arguments, strokes):
    """Each store of --stores under the same load, --runs times, the stores interleaved (so that
    the shared machine's load falls on each alike), closed loop and/or paced: per store and loop,
    the median [min..max] over the runs of each figure, with the load average during the runs."""
    stores = [s.strip() for s in arguments.stores.split(",") if s.strip()]
    loops = [loop.strip() for loop in arguments.loops.split(",") if loop.strip()]
    for loop in loops:
        if loop not in ("closed", "paced"):
            raise SystemExit(f"--loops {arguments.loops}: expected closed and/or paced")
    pace = arguments.pace or (0.5, 1.0)
    runs = {(loop, store): [] for loop in loops for store in stores}
    floors = {}
    edit_bytes = len(json.dumps({"draw": {"strokes": [strokes[len(strokes) // 2]]}}))
    for run in range(arguments.runs):
        for loop in loops:
            for store in stores:
                location = store
                if store in ("sqlite:", "sqlite"):
                    location = f"sqlite:{arguments.workdir}/run{run}.sqlite"
                if not arguments.json:
                    print(f"run {run + 1}/{arguments.runs}, {loop} loop, {redact(store)}: {arguments.sessions} sessions "
                          f"for {arguments.seconds:g} s", file=sys.stderr)
                server = Server(arguments.strokekit, location, extra=arguments.server_option, cwd=arguments.workdir)
                try:
                    sampler = LoadAverage()
                    results, elapsed = load(server.host, server.port, strokes, arguments.sessions, arguments.seconds,
                                            pace=pace if loop == "paced" else None)
                    runs[(loop, store)].append(summarize(results, elapsed, arguments.sessions, loadavg=sampler.stop()))
                finally:
                    server.stop()
                if store.startswith(("postgres://", "postgresql://")) and arguments.floor:
                    sampler = LoadAverage()
                    floor = postgres_floor(store, arguments.sessions, pace if loop == "paced" else None,
                                           min(arguments.seconds, 30), edit_bytes, arguments.workdir)
                    if floor:
                        floor["loadavg_1min"] = sampler.stop()
                        floors.setdefault((loop, store), []).append(floor)

    def spread(values):
        values = [v for v in values if v is not None]
        return [statistics.median(values), min(values), max(values)] if values else None

    table = []
    for (loop, store), figures in runs.items():
        row = {"loop": loop if loop == "closed" else f"paced {pace[0]:g}-{pace[1]:g} s", "store": redact(store),
               "runs": len(figures)}
        for key in COMPARED:
            row[key] = spread([f.get(key) for f in figures])
        row["errors"] = sum(f["errors"] for f in figures)
        row["lost_strokes"] = sum(f["lost_strokes"] for f in figures)
        row["batch_mean"] = spread([f.get("batch_mean") for f in figures])
        row["loadavg_1min"] = [min(f["loadavg_1min"]["mean"] for f in figures), max(f["loadavg_1min"]["max"] for f in figures)]
        table.append(row)
        if (loop, store) in floors:
            found = floors[(loop, store)]
            table.append({"loop": row["loop"], "store": f"{redact(store)}: pgbench, the append statement alone",
                          "runs": len(found), "strokes_per_second": spread([f["transactions_per_second"] for f in found]),
                          "store_ms_p50": spread([f["ms_p50"] for f in found]),
                          "store_ms_p95": spread([f["ms_p95"] for f in found]),
                          "store_ms_p99": spread([f["ms_p99"] for f in found]),
                          "loadavg_1min": [min(f["loadavg_1min"]["mean"] for f in found),
                                           max(f["loadavg_1min"]["max"] for f in found)]})
    return table


def postgres_floor(store, sessions, pace, seconds, edit_bytes, workdir):
    """PostgreSQL's own time for the server's append (the same conditional UPDATE and INSERT in one
    statement, prepared, committed), from pgbench: --sessions clients, each with its own session,
    at the paced rate (or as fast as answered): the floor the database sets on this machine,
    measured beside the server. None when pgbench is absent."""
    import glob
    from urllib.parse import parse_qsl, urlencode, urlunparse
    tools = sorted(glob.glob("/usr/lib/postgresql/*/bin/pgbench")) or [shutil.which("pgbench")]
    if not tools or not tools[-1]:
        return None
    folder = os.path.dirname(tools[-1])
    parsed = urlparse(store)
    query = dict(parse_qsl(parsed.query))
    env = dict(os.environ)
    if "synchronous_commit" in query:
        env["PGOPTIONS"] = f"-c synchronous_commit={query.pop('synchronous_commit')}"
    url = urlunparse(parsed._replace(scheme="postgresql", query=urlencode(query)))
    prefix = f"floor{os.getpid()}-"
    subprocess.run([f"{folder}/psql", url, "-q", "-v", "ON_ERROR_STOP=1", "-c",
                    "INSERT INTO editor_sessions (id, model, version, created_ms, last_used_ms) "
                    f"SELECT '{prefix}' || g, 'floor', 0, 0, 0 FROM generate_series(0, {sessions - 1}) g"],
                   check=True, env=env, capture_output=True)
    script = f"{workdir}/floor.sql"
    with open(script, "w") as out:
        out.write("\\set now 1\n"
                  "WITH bumped AS (UPDATE editor_sessions SET version = version + 1, last_used_ms = :now "
                  f"WHERE id = '{prefix}' || :client_id AND last_used_ms >= 0 RETURNING id, version), "
                  "inserted AS (INSERT INTO editor_edits (session, version, edit) "
                  f"SELECT id, version, repeat('x', {edit_bytes}) FROM bumped RETURNING version) "
                  "SELECT EXISTS (SELECT 1 FROM inserted);\n")
    rate = [] if pace is None else ["-R", f"{sessions * 2 / (pace[0] + pace[1]):.1f}"]
    try:
        subprocess.run([tools[-1], url, "-n", "-M", "prepared", "-f", script, "-c", str(sessions), "-j", "2",
                        "-T", str(int(seconds)), "--log", f"--log-prefix={workdir}/pgbench-log", *rate],
                       check=True, env=env, capture_output=True)
        latencies = []
        for log in glob.glob(f"{workdir}/pgbench-log.*"):
            for line in open(log):
                fields = line.split()
                # time (µs), minus the schedule lag with -R: the statement's own time.
                latencies.append((int(fields[2]) - (int(fields[6]) if pace and len(fields) > 6 else 0)) / 1000)
            os.remove(log)
    finally:
        subprocess.run([f"{folder}/psql", url, "-q", "-c", f"DELETE FROM editor_sessions WHERE id LIKE '{prefix}%'"],
                       env=env, capture_output=True)
    if not latencies:
        return None
    return {"transactions_per_second": round(len(latencies) / seconds, 1),
            "ms_p50": round(statistics.median(latencies), 3), "ms_p95": round(percentile(latencies, 0.95), 3),
            "ms_p99": round(percentile(latencies, 0.99), 3)}


def print_compare(table):
    def show(value):
        if value is None:
            return "-"
        median, low, high = value
        return f"{median:,.1f} [{low:,.1f}..{high:,.1f}]" if high >= 100 else f"{median:.2f} [{low:.2f}..{high:.2f}]"

    print("median [min..max] over the runs; server: the stroke handler's time (Server-Timing recognize), "
          "store: queued to committed, read: the classifier; ms")
    for row in table:
        print(f"{row['loop']}, {row['store']} ({row['runs']} runs, load average {row['loadavg_1min'][0]:.1f}-"
              f"{row['loadavg_1min'][1]:.1f}): " + ", ".join(f"{key} {show(row[key])}" for key in COMPARED if key in row)
              + (f", batch_mean {show(row['batch_mean'])}, errors {row['errors']}, lost {row['lost_strokes']}"
                 if "errors" in row else ""))


def load_mode(arguments, strokes, store):
    server = None
    url = arguments.url
    if not url:
        server = Server(arguments.strokekit, store, cwd=arguments.workdir)
        url = server.url
    try:
        parsed = urlparse(url)
        if not arguments.json:
            print(f"latency: {len(strokes)}-stroke diagram x {arguments.repeats} at {url} ({redact(store)})", file=sys.stderr)
        result = {"latency": latency(parsed.hostname, parsed.port, strokes, arguments.repeats)}
        if not arguments.json:
            print(f"load: {arguments.sessions} sessions for {arguments.seconds:g} s"
                  + (f", a stroke every {arguments.pace[0]:g}-{arguments.pace[1]:g} s each" if arguments.pace
                     else ", no pause (closed loop)"), file=sys.stderr)
        sampler = LoadAverage()
        results, elapsed = load(parsed.hostname, parsed.port, strokes, arguments.sessions, arguments.seconds,
                                pace=arguments.pace)
        result["load"] = summarize(results, elapsed, arguments.sessions, loadavg=sampler.stop())
        result["load"]["store"] = redact(store) if server else "(running server)"
        result["load"]["pace_seconds"] = list(arguments.pace) if arguments.pace else "none (closed loop)"
    finally:
        if server:
            server.stop()
    return result, result["load"]["errors"] == 0 and result["load"]["lost_strokes"] == 0


if __name__ == "__main__":
    sys.exit(main())
