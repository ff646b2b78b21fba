"""The Scrapy middleware, in real Scrapy crawls of a small site served on loopback.

Skipped where Scrapy is not installed; `.ci/run` installs it and runs this file in its own stage with
PITH_SCRAPY_TESTS=1, which makes a missing Scrapy a failure instead.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

if os.environ.get("PITH_SCRAPY_TESTS"):
    import scrapy  # noqa: F401
else:
    pytest.importorskip("scrapy")

import pith  # noqa: E402

HERE = Path(__file__).resolve().parent

# A notice the site prints on every page, inside the main column: the page's own rules keep it (in a
# story it is one more paragraph of it); the site's template, once learned, leaves it out. A block
# goes only when it recurs on every other page of the site learned, so the home page has it too.
NOTICE = "Reprinting any story of the County Farming Gazette needs the written consent of its editors."

STORIES = [
    (
        "Rice growers try seedling trays",
        [
            "More than two hundred farmers gathered in the county town on Monday for a week of training on rice cultivation.",
            "Instructors from the provincial agricultural college showed how to raise seedlings in trays and when to apply fertiliser.",
            "One grower from the northern hills said the trays had halved the time her family spent transplanting last spring.",
        ],
    ),
    (
        "Cooperative opens a grain depot",
        [
            "The village cooperative opened a grain depot on Thursday that can hold four thousand tonnes of wheat and maize.",
            "Members will pay a small fee per tonne stored, far less than the private warehouses in the market town charge.",
            "The cooperative's chairman said the depot lets farmers wait for better prices instead of selling straight after harvest.",
        ],
    ),
    (
        "Evening classes for young farmers",
        [
            "The training centre will teach evening classes on bookkeeping and online sales to young farmers from next month.",
            "Places are free for those under thirty who have returned from the cities to work on their families' land.",
            "Teachers include two graduates of the centre who now sell their tea and honey to buyers across the province.",
        ],
    ),
    (
        "Orchard owners learn to prune in winter",
        [
            "Apple and pear growers spent three cold mornings in a demonstration orchard learning to prune while the trees are bare.",
            "The extension officer explained how removing crossing branches lets light reach the fruit and keeps disease away.",
            "Several growers said they would try the method on a few rows first and compare the yields in autumn.",
        ],
    ),
    (
        "Drip irrigation cuts water bills",
        [
            "Vegetable farmers on the river plain reported water bills a third lower after a season with drip irrigation.",
            "The county subsidised half the cost of the pipes and pumps for the first hundred households that applied.",
            "Engineers visited every plot twice to check the emitters and to show owners how to flush the lines of silt.",
        ],
    ),
]


def story_page(k: int) -> bytes:
    title, paragraphs = STORIES[k]
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return f"""<!doctype html><html lang="en"><head><title>{title} - County Farming Gazette</title></head><body>
<div id="header"><a href="/">Home</a> <a href="/news/0.html">News</a> <a href="/data.json">Data</a></div>
<div id="main"><h1>{title}</h1><div class="story">{body}<p class="notice">{NOTICE}</p></div></div>
<div id="footer">County Farming Gazette, 12 Market Street. <a href="/empty.html">Contact</a></div>
</body></html>""".encode()


def home_page() -> bytes:
    # A news site's front page: each story a card of its headline and its date.
    cards = "".join(
        f'<article><h3><a href="/news/{k}.html">{STORIES[k][0]}</a></h3>'
        f'<time datetime="2024-05-{10 + k}">May {10 + k}, 2024</time></article>'
        for k in range(len(STORIES))
    )
    return f"""<!doctype html><html lang="en"><head><title>County Farming Gazette</title></head><body>
<div id="header"><a href="/">Home</a></div>
<div id="main"><h1>Latest news</h1><div class="story"><div>{cards}</div><p class="notice">{NOTICE}</p></div></div>
<p><a href="/empty.html">Contact</a> <a href="/binary.html">Banner</a> <a href="/data.json">Data</a></p>
</body></html>""".encode()


SITE = {
    "/": ("text/html; charset=utf-8", home_page()),
    **{f"/news/{k}.html": ("text/html; charset=utf-8", story_page(k)) for k in range(len(STORIES))},
    # Served as HTML, refused by pith: nothing to read, and an image's bytes.
    "/empty.html": ("text/html", b""),
    "/binary.html": ("text/html", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8),
    # Not HTML: passed through.
    "/data.json": ("application/json", b'{"prices": {"wheat": 312, "maize": 287}}'),
}
ARTICLES = [f"/news/{k}.html" for k in range(len(STORIES))]


class Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802
        content_type, body = SITE.get(self.path, ("text/html", b"<p>not found"))
        self.send_response(200 if self.path in SITE else 404)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@pytest.fixture(scope="module")
def crawls():
    """Every crawl the tests look at, run at once in one Scrapy process against the site."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    start = f"http://127.0.0.1:{server.server_address[1]}/"
    spec = {
        "start_url": start,
        "crawls": {
            "plain": {},
            "markdown_inline": {"settings": {"PITH_FORMATS": ["text", "markdown"], "PITH_THREADS": False}},
            "articles": {"settings": {"PITH_MIN_ARTICLE_PROBABILITY": 0.5}},
            "flagged": {"settings": {"PITH_MIN_ARTICLE_PROBABILITY": 0.5, "PITH_KEEP_NON_ARTICLES": True}},
            # One page at a time: the order in which the template learns does not matter to what is
            # checked, but one request at a time keeps the crawl the same from run to run.
            "site_models": {"settings": {"PITH_SITE_MODELS": True, "CONCURRENT_REQUESTS": 1}},
            "scrapy_item": {"item_class": "item", "settings": {"PITH_SITE_MODELS": True}},
            "off": {"settings": {"PITH_ENABLED": False}},
        },
    }
    try:
        run = subprocess.run(
            [sys.executable, str(HERE / "scrapy_crawls.py"), json.dumps(spec)],
            capture_output=True,
            text=True,
            timeout=300,
        )
    finally:
        server.shutdown()
        server.server_close()
    assert run.returncode == 0, run.stderr[-3000:]
    results = json.loads(run.stdout.strip().splitlines()[-1])
    for r in results.values():
        r["by_path"] = {item["url"][len(start) - 1 :]: item for item in r["items"]}
        r["log"] = run.stderr
    return results


def test_html_items_get_the_extraction_and_the_crawl_survives_refused_pages(crawls):
    c = crawls["plain"]
    stats, by_path = c["stats"], c["by_path"]
    assert stats["finish_reason"] == "finished" and not stats.get("log_count/ERROR")
    assert set(by_path) == set(SITE), "every page's item, refused or not, goes on without a threshold"
    for path in ARTICLES:
        field = by_path[path]["pith"]
        title, paragraphs = STORIES[ARTICLES.index(path)]
        assert field["url"].endswith(path) and field["title"].startswith(title)
        assert all(p in field["text"] for p in paragraphs), field["text"]
        assert "12 Market Street" not in field["text"] and "markdown" not in field
        assert field["page_type"] == "article" and field["has_article"] > 0.5 and field["is_article"]
        assert field["lang"] == "en" and "template" not in field
        # The item's answer is the package's own for the same bytes.
        direct = pith.extract(SITE[path][1], url=field["url"], charset="utf-8")
        assert field["text"] == direct["content"]["text"]
        assert field["has_article"] == direct["has_article"]["probability"]
    home = by_path["/"]["pith"]
    assert home["page_type"] == "listing" and not home["is_article"]
    # Refused pages: their items carry the error; logged, counted, the crawl went on.
    assert by_path["/empty.html"]["pith"]["error"]["code"] == "empty-input"
    assert by_path["/binary.html"]["pith"]["error"]["code"] == "binary-input"
    assert stats["pith/error/empty-input"] == 1 and stats["pith/error/binary-input"] == 1
    assert c["log"].count("pith: http://127.0.0.1") >= 2
    # Not HTML: untouched.
    assert by_path["/data.json"] == {"url": by_path["/data.json"]["url"]}
    assert stats["pith/not_html"] == 1
    assert stats["pith/pages"] == 1 + len(ARTICLES)
    assert stats["pith/page_type/article"] == len(ARTICLES) and stats["pith/page_type/listing"] == 1


def test_markdown_when_asked_and_the_same_answer_without_threads(crawls):
    plain, inline = crawls["plain"]["by_path"], crawls["markdown_inline"]["by_path"]
    for path in ARTICLES:
        field = inline[path]["pith"]
        assert field["markdown"].startswith("# " + STORIES[ARTICLES.index(path)][0])
        assert field["text"] == plain[path]["pith"]["text"]


def test_min_article_probability_drops_non_articles_or_keeps_them_flagged(crawls):
    articles = crawls["articles"]
    assert set(articles["by_path"]) == set(ARTICLES) | {"/data.json"}, "not HTML: passed through"
    assert articles["stats"]["pith/dropped/not_article"] == 1
    assert articles["stats"]["pith/dropped/error"] == 2
    flagged = crawls["flagged"]["by_path"]
    assert set(flagged) == set(SITE)
    assert flagged["/"]["pith"]["is_article"] is False
    assert all(flagged[p]["pith"]["is_article"] for p in ARTICLES)


def test_site_models_learn_the_site_as_the_crawl_goes(crawls):
    c = crawls["site_models"]
    assert c["stats"]["pith/sites"] == 1
    learned = {p: c["by_path"][p]["pith"] for p in ARTICLES}
    assert all("template" in f for f in learned.values())
    # A block goes once it recurs on every other page learned, at least two: the notice is left out
    # of every story extracted after two others, and kept in those before.
    with_template = [f for f in learned.values() if f["template"]["pages"] >= 2]
    without = [f for f in learned.values() if f["template"]["pages"] < 2]
    assert with_template and without, [f["template"] for f in learned.values()]
    assert all(NOTICE not in f["text"] and f["template"]["blocks_removed"] >= 1 for f in with_template)
    assert all(NOTICE in f["text"] and f["template"]["blocks_removed"] == 0 for f in without)
    assert c["stats"]["pith/template/blocks_removed"] >= len(with_template)
    # The story itself stays.
    for path, f in learned.items():
        assert all(p in f["text"] for p in STORIES[ARTICLES.index(path)][1])


def test_scrapy_items_with_the_field_declared(crawls):
    c = crawls["scrapy_item"]
    assert not c["stats"].get("log_count/ERROR")
    assert all(c["by_path"][p]["pith"]["page_type"] == "article" for p in ARTICLES)


def test_disabled_leaves_items_alone(crawls):
    c = crawls["off"]
    assert set(c["by_path"]) == set(SITE)
    assert all(set(item) == {"url"} for item in c["items"])
    assert not any(k.startswith("pith/") for k in c["stats"])


def test_settings_are_checked_when_the_crawl_starts():
    from pith.integrations.scrapy import PithMiddleware
    from scrapy.utils.test import get_crawler

    with pytest.raises(pith.InvalidArgumentError, match="PITH_FORMATS"):
        PithMiddleware.from_crawler(get_crawler(settings_dict={"PITH_FORMATS": ["text", "pdf"]}))
    with pytest.raises(pith.UnknownAlgorithmError):
        PithMiddleware.from_crawler(get_crawler(settings_dict={"PITH_ALGORITHM": "magic"}))



def test_items_of_one_page_each_get_their_own_copy():
    import asyncio

    from pith.integrations.scrapy import PithMiddleware
    from scrapy import Request
    from scrapy.http import HtmlResponse
    from scrapy.utils.test import get_crawler

    crawler = get_crawler(settings_dict={"PITH_THREADS": False})
    middleware = PithMiddleware.from_crawler(crawler)
    url = "https://gazette.example/news/0.html"
    response = HtmlResponse(url, body=story_page(0), headers={"Content-Type": "text/html; charset=utf-8"})
    follow = Request("https://gazette.example/news/1.html")

    async def output():
        return [o async for o in middleware.process_spider_output(response, [{"n": 1}, follow, {"n": 2}])]

    first, request, second = asyncio.run(output())
    assert request is follow
    assert first["pith"] == second["pith"] and STORIES[0][0] in first["pith"]["text"]
    assert first["pith"] is not second["pith"] and first["pith"]["metadata"] is not second["pith"]["metadata"]
