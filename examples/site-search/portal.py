"""A small portal on loopback, made of one real site's pages from a developer dataset.

    python examples/site-search/portal.py --port 8000          # then open http://127.0.0.1:8000/

The pages are served as their site served them, at their own paths (each page's canonical address,
from its ``<link rel="canonical">`` or ``og:url``), with the site's own menus, hot lists and footer;
links to the site's absolute address are rewritten to the portal's root so that a crawler stays on
loopback. Addresses the dataset has no page for answer 404, as a real site's missing pages would.

The default site is qbitai.com's home page and thirteen of its articles (zh-listdetail, Chinese, the
home page linking every article). ``--dataset`` and ``--site`` pick another: the site is the prefix
of the pages' file names in the dataset's ``source`` field (``sspai_com``, ``36kr_com``...).
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

HERE = Path(__file__).resolve().parent
DATASETS = HERE.parents[2] / "shared" / "datasets"

# A page's own address, as it declares it.
_CANONICAL = [
    re.compile(rb'<link[^>]*rel=["\']canonical["\'][^>]*href=["\']([^"\']+)["\']', re.I),
    re.compile(rb'<link[^>]*href=["\']([^"\']+)["\'][^>]*rel=["\']canonical["\']', re.I),
    re.compile(rb'<meta[^>]*property=["\']og:url["\'][^>]*content=["\']([^"\']+)["\']', re.I),
]


@dataclass(frozen=True)
class Page:
    id: str
    path: str
    body: bytes
    charset: str
    has_article: bool | None
    gold: str | None


def _declared_address(html: bytes) -> str | None:
    for pattern in _CANONICAL:
        m = pattern.search(html)
        if m:
            return m.group(1).decode("ascii", "replace").strip()
    return None


def load_site(dataset: Path, site: str) -> tuple[str | None, list[Page]]:
    """The site's pages from a dataset (``pages.jsonl`` and ``html/<id>.html.gz``): its origin
    (``https://www.qbitai.com``, None when the pages give only paths) and each page at its path, with
    the origin's links made root-relative. Pages that do not say their address are left out."""
    rows = []
    with open(dataset / "pages.jsonl", encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            name = (row.get("source") or "").rsplit("/", 1)[-1]
            if name.startswith(site):
                rows.append(row)
    found = []
    origins = set()
    for row in rows:
        html = gzip.decompress((dataset / "html" / f"{row['id']}.html.gz").read_bytes())
        address = row.get("url") or _declared_address(html)
        if not address:
            print(f"portal: {row['id']} says no address of its own; left out", file=sys.stderr)
            continue
        parts = urlsplit(address)
        if parts.scheme and parts.netloc:
            origins.add(f"{parts.scheme}://{parts.netloc}")
        path = parts.path or "/"
        if parts.query:
            path += "?" + parts.query
        found.append((row, html, path))
    origin = sorted(origins)[0] if origins else None
    pages = []
    for row, html, path in found:
        if origin:
            host = urlsplit(origin).netloc.encode()
            for prefix in (b"https://" + host, b"http://" + host, b"//" + host):
                html = html.replace(prefix + b"/", b"/").replace(prefix + b'"', b'/"')
        pages.append(
            Page(
                id=row["id"],
                path=path,
                body=html,
                charset=row.get("charset") or "utf-8",
                has_article=row.get("has_article"),
                gold=row.get("gold"),
            )
        )
    return origin, pages


class Portal:
    """The pages served by a threaded HTTP server on 127.0.0.1 (``port=0``: any free port)."""

    def __init__(self, pages: list[Page], port: int = 0) -> None:
        self.pages = {p.path: p for p in pages}
        by_path = self.pages

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                page = by_path.get(self.path)
                if page is None:
                    body = b"<!doctype html><title>404</title><p>Not found"
                    self.send_response(404)
                    self.send_header("Content-Type", "text/html; charset=utf-8")
                else:
                    body = page.body
                    self.send_response(200)
                    self.send_header("Content-Type", f"text/html; charset={page.charset}")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/"

    def start(self) -> Portal:
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", type=Path, default=DATASETS, help="the developer datasets' folder")
    parser.add_argument("--dataset", default="zh-listdetail")
    parser.add_argument("--site", default="qbitai_com", help="prefix of the site's file names in `source`")
    parser.add_argument("--port", type=int, default=8000, help="0: any free port (printed)")
    args = parser.parse_args()
    origin, pages = load_site(args.datasets / args.dataset, args.site)
    if not pages:
        sys.exit(f"portal: no page of {args.site} in {args.dataset}")
    portal = Portal(pages, args.port)
    print(f"portal: {len(pages)} pages of {origin or args.site} at {portal.url}", flush=True)
    try:
        portal.server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
