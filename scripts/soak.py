#!/usr/bin/env python3
"""Soak test of `pith serve` on loopback: a mix of normal, huge and hostile pages and misbehaving
origins for a bounded time, then SIGTERM under load. Local only (not in CI).

    scripts/soak.py [--seconds 600] [--clients 6] [--bin target/release/pith] [--cache]

It starts the server with the container's memory settings (2 workers, memory budget 256 MiB, cache
64 MiB, queue 8: docker/kubernetes/configmap.yaml) and private fetches allowed (the origins are on
127.0.0.1), and local origins that answer normally, slowly (one byte a second), with a reset
connection, or without end. Clients POST raw HTML (normal pages from the datasets, 4, 6 and 8 MB
pages made of them, hostile pages from `pith adversarial --out`) and JSON `{"url": ...}` to the
origins. A probe thread times `/healthz` and an ordinary extraction every 200 ms. Reported and
checked:

* every answer's status is one the API documents for it (200, 400, 403, 413, 422, 429, 502, 503, 504);
* the server's RSS (sampled every second) stays under the pod limit and does not grow over the run
  (the last fifth's median against the second fifth's);
* /healthz and an ordinary extraction (the first cleaneval page, 29 KB, cache bypassed) answer
  within 100 ms at p99 while the rest runs;
* SIGTERM with requests in flight: every request the server had accepted gets a complete answer.
"""
import argparse, gzip, json, os, random, signal, socket, statistics, subprocess, sys, tempfile, threading, time
import http.client, http.server, socketserver, urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTED = {200, 400, 403, 413, 422, 429, 502, 503, 504}


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


class Origin(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    page = b"<html><body><article><p>" + b"Plain origin text for the soak test. " * 200 + b"</p></article></body></html>"

    def log_message(self, *a):
        pass

    def do_GET(self):
        try:
            if self.path.startswith("/slow"):
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", "100000")
                self.end_headers()
                for _ in range(60):
                    self.wfile.write(b"<")
                    self.wfile.flush()
                    time.sleep(1)
            elif self.path.startswith("/reset"):
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                self.connection.close()
            elif self.path.startswith("/endless"):
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.end_headers()
                chunk = b"<p>endless " * 1000
                for _ in range(100000):
                    self.wfile.write(chunk)
            else:
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(self.page)))
                self.end_headers()
                self.wfile.write(self.page)
        except OSError:
            pass


class ThreadingServer(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


def rss_kib(pid):
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return None


def request(port, method, path, body=None, ctype=None, timeout=120, no_cache=False):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        headers = {"Content-Type": ctype} if ctype else {}
        if no_cache:
            headers["Cache-Control"] = "no-cache"
        c.request(method, path, body=body, headers=headers)
        r = c.getresponse()
        r.read()
        return r.status
    finally:
        c.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=int, default=600)
    ap.add_argument("--clients", type=int, default=6)
    ap.add_argument("--bin", default=str(ROOT / "target/release/pith"))
    ap.add_argument("--cache", action="store_true",
                    help="let repeated pages be answered from the cache (default: every request bypasses it)")
    ap.add_argument("--datasets", default=str(ROOT.parent / "shared/datasets"))
    a = ap.parse_args()

    work = Path(tempfile.mkdtemp(prefix="pith-soak-"))
    subprocess.run([a.bin, "adversarial", "--out", str(work / "hostile"), "--mb", "1.5"], check=True,
                   stderr=subprocess.DEVNULL)
    hostile = [p.read_bytes() for p in sorted((work / "hostile").glob("*.html"))]
    normal = []
    for ds in ["cleaneval", "l3s-gn1", "zh-cwce"]:
        for f in sorted((Path(a.datasets) / ds / "html").glob("*.html.gz"))[:40]:
            normal.append(gzip.open(f).read())
    big = [b"".join(random.Random(k).sample(normal, 60))[: (4 + k) * 1_000_000] for k in range(0, 6, 2)]
    ordinary = normal[0]

    origin = ThreadingServer(("127.0.0.1", 0), Origin)
    threading.Thread(target=origin.serve_forever, daemon=True).start()
    oport = origin.server_address[1]

    port = free_port()
    env = dict(os.environ, PITH_SERVER__LISTEN=f"127.0.0.1:{port}", PITH_POOL__WORKERS="2",
               PITH_POOL__QUEUE_DEPTH="8", PITH_POOL__MEMORY_BUDGET_BYTES=str(256 << 20),
               PITH_CACHE__CAPACITY_BYTES=str(64 << 20), PITH_FETCH__ALLOW_PRIVATE_NETWORKS="true",
               PITH_FETCH__TOTAL_TIMEOUT_MS="15000", PITH_SERVER__SHUTDOWN_GRACE_MS="60000",
               PITH_LOG__LEVEL="warn")
    server = subprocess.Popen([a.bin, "serve"], env=env, stderr=open(work / "server.log", "wb"))
    for _ in range(100):
        try:
            if request(port, "GET", "/healthz", timeout=1) == 200:
                break
        except OSError:
            time.sleep(0.1)

    stop = threading.Event()
    statuses, bad, lock = {}, [], threading.Lock()
    probe_ms = {"healthz": [], "extract": []}
    rss = []

    def client(seed):
        rng = random.Random(seed)
        while not stop.is_set():
            kind = rng.choices(["normal", "big", "hostile", "fetch"], [6, 1, 2, 2])[0]
            try:
                if kind == "fetch":
                    path = rng.choice(["/ok", "/slow", "/reset", "/endless"])
                    body = json.dumps({"url": f"http://127.0.0.1:{oport}{path}?{rng.random()}"})
                    st = request(port, "POST", "/v1/extract", body, "application/json", no_cache=not a.cache)
                else:
                    page = rng.choice({"normal": normal, "big": big, "hostile": hostile}[kind])
                    st = request(port, "POST", "/v1/extract", page, "text/html", no_cache=not a.cache)
            except OSError as e:
                st = f"error {type(e).__name__}"
            with lock:
                statuses[(kind, st)] = statuses.get((kind, st), 0) + 1
                if st not in DOCUMENTED:
                    bad.append((kind, st))

    def probe():
        while not stop.is_set():
            for name, args in [("healthz", ("GET", "/healthz")),
                               ("extract", ("POST", "/v1/extract", ordinary, "text/html"))]:
                t = time.monotonic()
                try:
                    st = request(port, *args, timeout=30, no_cache=True)
                except OSError:
                    st = None
                ms = (time.monotonic() - t) * 1000
                probe_ms[name].append(ms if st == 200 else float("inf"))
            time.sleep(0.2)

    def sample():
        while not stop.is_set():
            r = rss_kib(server.pid)
            if r:
                rss.append(r)
            time.sleep(1)

    threads = [threading.Thread(target=client, args=(k,)) for k in range(a.clients)]
    threads += [threading.Thread(target=probe), threading.Thread(target=sample)]
    start = time.monotonic()
    for t in threads:
        t.start()
    time.sleep(a.seconds)
    stop.set()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - start

    # SIGTERM with requests in flight: start them, signal, and check each gets a full answer.
    results = []

    def inflight(k):
        try:
            results.append(request(port, "POST", "/v1/extract", normal[k % len(normal)] * 20, "text/html"))
        except OSError as e:
            results.append(f"error {type(e).__name__}")

    fl = [threading.Thread(target=inflight, args=(k,)) for k in range(6)]
    for t in fl:
        t.start()
    time.sleep(0.3)
    server.send_signal(signal.SIGTERM)
    for t in fl:
        t.join()
    code = server.wait(timeout=90)
    origin.shutdown()

    def p99(xs):
        xs = sorted(xs)
        return xs[min(len(xs) - 1, int(len(xs) * 0.99))] if xs else float("nan")

    n = len(rss)
    early = statistics.median(rss[n // 5: 2 * n // 5]) if n >= 5 else float("nan")
    late = statistics.median(rss[4 * n // 5:]) if n >= 5 else float("nan")
    total = sum(statuses.values())
    print(f"soak: {elapsed:.0f} s, {a.clients} clients, {total} requests ({total / elapsed:.1f}/s)")
    for (kind, st), c in sorted(statuses.items(), key=lambda kv: (kv[0][0], str(kv[0][1]))):
        print(f"  {kind:<8} {st!s:<22} {c}")
    print(f"RSS: max {max(rss) / 1024:.0f} MiB, median of 2nd fifth {early / 1024:.0f} MiB, of last fifth {late / 1024:.0f} MiB")
    for name, xs in probe_ms.items():
        print(f"{name} probe: {len(xs)} requests, p50 {statistics.median(xs):.1f} ms, p99 {p99(xs):.1f} ms, max {max(xs):.1f} ms")
    print(f"SIGTERM with 6 requests in flight: answers {results}, exit code {code}")
    failures = []
    if bad:
        failures.append(f"{len(bad)} answers outside the documented statuses: {sorted(set(map(str, bad)))[:10]}")
    if max(rss) > 512 * 1024:
        failures.append("RSS passed 512 MiB")
    if late > early * 1.25 + 32 * 1024:
        failures.append("RSS grew over the run")
    for name, xs in probe_ms.items():
        if p99(xs) > 100:
            failures.append(f"{name} p99 over 100 ms")
    if any(r != 200 for r in results) or code != 0:
        failures.append("a request accepted before SIGTERM was lost, or the exit was not clean")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
