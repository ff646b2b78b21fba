#!/usr/bin/env python3
"""What a learned site template costs a service extraction: two `pith serve` processes on loopback, one
with `[site_templates]` on and one off (result cache off in both), the same pages POSTed to each in
turn, one request at a time, each server's CPU time read from /proc before and after.

    python3 scripts/site-templates-overhead.py [--rounds 5] [--min-site-pages 3] DATASET_DIR...

The pages are those of the datasets whose site (host of the URL) has at least --min-site-pages pages.
A first round teaches the enabled server every site's template (and warms both); then each round
sends every page to both servers, alternating which goes first, and the script prints each server's
CPU seconds and their ratio per round and the median ratio: the cost of serving the same requests
(HTTP, extraction, and with templates on, the page's signatures and the template lookup), with the
template learned and in use (`template` in the answer).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from pathlib import Path


def pages(datasets: list[str], min_site_pages: int) -> list[tuple[str, str]]:
    found = []
    for d in datasets:
        for line in (Path(d) / "pages.jsonl").read_text(encoding="utf-8").split("\n"):
            if not line.strip():
                continue
            page = json.loads(line)
            if page.get("url"):
                raw = gzip.decompress((Path(d) / "html" / f"{page['id']}.html.gz").read_bytes())
                found.append((page["url"], raw.decode("utf-8", errors="replace")))
    hosts = Counter(url.split("/")[2] for url, _ in found)
    return [(u, h) for u, h in found if hosts[u.split("/")[2]] >= min_site_pages]


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def serve(binary: str, templates: bool) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = dict(
        os.environ,
        PITH_SERVER__LISTEN=f"127.0.0.1:{port}",
        PITH_CACHE__ENABLED="false",
        PITH_RATE_LIMIT__ENABLED="false",
        PITH_LOG__LEVEL="warn",
        PITH_SITE_TEMPLATES__ENABLED="true" if templates else "false",
        PITH_POOL__WORKERS="1",
    )
    proc = subprocess.Popen([binary, "serve"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            urllib.request.urlopen(base + "/readyz", timeout=1)
            return proc, base
        except OSError:
            time.sleep(0.1)
    proc.kill()
    sys.exit("the server did not start")


def extract(base: str, url: str, html: str) -> dict:
    body = json.dumps({"html": html, "url": url, "formats": ["text"]}).encode()
    req = urllib.request.Request(base + "/v1/extract", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def cpu_seconds(proc: subprocess.Popen) -> float:
    """The server process's user + system CPU time so far (Linux /proc)."""
    fields = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def round_seconds(server: tuple[subprocess.Popen, str], work: list[tuple[str, str]]) -> float:
    """The server's CPU seconds for one pass over the pages: the machine is shared, and CPU time is
    what another process's load changes least."""
    proc, base = server
    before = cpu_seconds(proc)
    for url, html in work:
        extract(base, url, html)
    return cpu_seconds(proc) - before


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("datasets", nargs="+")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--min-site-pages", type=int, default=3)
    ap.add_argument("--bin", default="target/release/pith")
    a = ap.parse_args()
    work = pages(a.datasets, a.min_site_pages)
    on, off = serve(a.bin, True), serve(a.bin, False)
    try:
        used = sum(1 for url, html in work if extract(on[1], url, html).get("template"))
        round_seconds(off, work)
        used = sum(1 for url, html in work if extract(on[1], url, html).get("template"))
        print(f"{len(work)} pages, {used} answered with a learned template")
        ratios = []
        for k in range(a.rounds):
            if k % 2 == 0:
                t_on, t_off = round_seconds(on, work), round_seconds(off, work)
            else:
                t_off, t_on = round_seconds(off, work), round_seconds(on, work)
            ratios.append(t_on / t_off)
            print(f"round {k + 1}: server CPU, templates on {t_on:.2f} s, off {t_off:.2f} s, ratio {t_on / t_off:.3f}")
        print(f"median ratio on/off: {statistics.median(ratios):.3f}")
    finally:
        on[0].kill()
        off[0].kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
