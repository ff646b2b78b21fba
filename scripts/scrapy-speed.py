"""Pages/s of a Scrapy crawl with pith's middleware (pith.integrations.scrapy), against the same crawl
without it, and the middleware on the reactor's thread against Twisted's thread pool.

    python3 scripts/scrapy-speed.py [--datasets ../shared/datasets] [--sets wcxb-dev,zh-listdetail]
                                    [--concurrency 16] [--rounds 3]

Needs the package and Scrapy installed (pip install './python[scrapy]'). The datasets' pages are
served from loopback by a threaded http.server in this process; each crawl runs in a process of its
own (a Twisted reactor starts once per process), fetching every page once from a list of addresses
and yielding one item per page, so what differs between the crawls is pith alone. Rounds alternate
the configurations, so a shared machine's load moves them alike; the best round of each is printed,
with the crawl process's CPU seconds and how late a call the reactor should make every 10 ms came
(99th percentile and worst): what extraction on the reactor's thread costs the rest of the crawl.
"""

from __future__ import annotations

import argparse
import gzip
import json
import resource
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CONFIGS = {
    "scrapy alone": {},
    "pith, thread pool": {"SPIDER_MIDDLEWARES": {"pith.integrations.scrapy.PithMiddleware": 600}},
    "pith, reactor thread": {
        "SPIDER_MIDDLEWARES": {"pith.integrations.scrapy.PithMiddleware": 600},
        "PITH_THREADS": False,
    },
    "pith, site models": {
        "SPIDER_MIDDLEWARES": {"pith.integrations.scrapy.PithMiddleware": 600},
        "PITH_SITE_MODELS": True,
    },
}


def crawl(urls_file: str, settings_json: str) -> None:
    """In the child process: crawl every address once; print the crawl's seconds and stats."""
    import scrapy
    from scrapy.crawler import CrawlerProcess

    urls = Path(urls_file).read_text().split()

    class Pages(scrapy.Spider):
        name = "pages"

        async def start(self):
            for u in urls:
                yield scrapy.Request(u)

        def parse(self, response, **kwargs):
            yield {"url": response.url}

    settings = {"LOG_LEVEL": "ERROR", "TELNETCONSOLE_ENABLED": False, **json.loads(settings_json)}
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(Pages)
    # The reactor's responsiveness: a call every 10 ms, and how late each comes. Work done on the
    # reactor's thread (extraction without PITH_THREADS) makes them late.
    lags: list[float] = []
    last = [0.0]
    tickers = []

    def tick() -> None:
        now = time.perf_counter()
        if last[0]:
            lags.append(now - last[0] - 0.010)
        last[0] = now

    def start_ticking(**_) -> None:
        from twisted.internet import task  # here: Scrapy has installed its reactor by now

        tickers.append(task.LoopingCall(tick))
        tickers[0].start(0.010)

    def stop_ticking(**_) -> None:
        for ticker in tickers:
            if ticker.running:
                ticker.stop()

    crawler.signals.connect(start_ticking, signal=scrapy.signals.spider_opened, weak=False)
    crawler.signals.connect(stop_ticking, signal=scrapy.signals.spider_closed, weak=False)
    process.crawl(crawler)
    t = time.perf_counter()
    process.start()
    seconds = time.perf_counter() - t
    lags.sort()
    stats = crawler.stats.get_stats()
    cpu = resource.getrusage(resource.RUSAGE_SELF)
    print(
        json.dumps(
            {
                "seconds": seconds,
                "cpu": cpu.ru_utime + cpu.ru_stime,
                "items": stats.get("item_scraped_count", 0),
                "responses": stats.get("response_received_count", 0),
                "pith_pages": stats.get("pith/pages", 0),
                "errors": sum(v for k, v in stats.items() if k.startswith("pith/error/")),
                "lag_p99_ms": 1000 * lags[int(0.99 * (len(lags) - 1))] if lags else 0.0,
                "lag_max_ms": 1000 * lags[-1] if lags else 0.0,
            }
        )
    )


def blocking(pages: dict[str, bytes], base: str) -> None:
    """How long one page's extraction holds the thread that calls it (its CPU time, which a shared
    machine's load inflates less than wall time): what the reactor would wait per page without the
    thread pool."""
    import pith

    engine = pith.Extractor()
    times = []
    for path, html in pages.items():
        t = time.thread_time()
        try:
            engine.extract(html, url=base + path)
        except pith.PithError:
            pass
        times.append(1000 * (time.thread_time() - t))
    times.sort()
    q = lambda f: times[int(f * (len(times) - 1))]  # noqa: E731
    print(f"one page's extraction on the calling thread, CPU ms: median {q(0.5):.1f}, p90 {q(0.9):.1f}, "
          f"p99 {q(0.99):.1f}, max {times[-1]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", type=Path, default=ROOT.parent / "shared" / "datasets")
    parser.add_argument("--sets", default="wcxb-dev,zh-listdetail,zh-gne")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--crawl", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.crawl:
        crawl(*args.crawl)
        return

    pages: dict[str, bytes] = {}
    for name in args.sets.split(","):
        d = args.datasets / name
        for line in (d / "pages.jsonl").read_text(encoding="utf-8").split("\n"):
            if line.strip():
                page_id = json.loads(line)["id"]
                pages[f"/{name}/{page_id}.html"] = gzip.decompress((d / "html" / f"{page_id}.html.gz").read_bytes())

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"

        def do_GET(self) -> None:  # noqa: N802
            body = pages.get(self.path, b"")
            self.send_response(200 if self.path in pages else 404)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format, *a):  # noqa: A002
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    urls_file = Path(f"/tmp/scrapy-speed-{server.server_address[1]}.txt")
    urls_file.write_text("\n".join(base + p for p in pages))
    mib = sum(map(len, pages.values())) / 2**20
    print(f"{len(pages)} pages ({mib:.1f} MiB) of {args.sets}, CONCURRENT_REQUESTS={args.concurrency}")
    blocking(pages, base)
    best: dict[str, dict] = {}
    for r in range(args.rounds):
        for name, settings in CONFIGS.items():
            settings = {**settings, "CONCURRENT_REQUESTS": args.concurrency,
                        "CONCURRENT_REQUESTS_PER_DOMAIN": args.concurrency}
            out = subprocess.run(
                [sys.executable, __file__, "--crawl", str(urls_file), json.dumps(settings)],
                capture_output=True, text=True, check=True,
            )
            result = json.loads(out.stdout.strip().splitlines()[-1])
            if name not in best or result["seconds"] < best[name]["seconds"]:
                best[name] = result
            print(f"  round {r + 1} {name}: {result['items'] / result['seconds']:.1f} pages/s", flush=True)
    server.shutdown()
    urls_file.unlink()
    print(f"{'crawl':<22} {'items':>6} {'s':>7} {'pages/s':>8} {'CPU s':>7} {'reactor lag p99, max ms':>24}")
    for name, r in best.items():
        print(f"{name:<22} {r['items']:>6} {r['seconds']:>7.2f} {r['items'] / r['seconds']:>8.1f} "
              f"{r['cpu']:>7.2f} {r['lag_p99_ms']:>15.1f} {r['lag_max_ms']:>8.1f}")


if __name__ == "__main__":
    main()
