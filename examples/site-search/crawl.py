"""Crawl a site with Scrapy and pith's middleware; one JSON line per page.

    python examples/site-search/crawl.py http://127.0.0.1:8000/ --output items.jsonl

The spider follows every link that stays on the start address's host, and yields one item per HTML
page: ``{"url": ...}``, to which ``pith.integrations.scrapy.PithMiddleware`` adds the page's main
content, title, has-article probability, page type and metadata as ``item["pith"]``. With
``--without-pith`` the middleware is off and the item carries the whole page's visible text instead
(``raw_text``), as a crawler that indexes pages as they are would: the comparison the site search's
test makes.

The pith settings this crawl uses, as any Scrapy project would set them:

    SPIDER_MIDDLEWARES = {"pith.integrations.scrapy.PithMiddleware": 600}
    PITH_FORMATS = ["text"]
    PITH_SITE_MODELS = True                 # --no-site-models turns it off
    PITH_MIN_ARTICLE_PROBABILITY = 0.5      # --min-article-probability; "none" keeps every page

On the last line the crawl prints its figures (pages, items, pith's stats) as JSON, for the test and
for a person.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import scrapy
from scrapy.crawler import CrawlerProcess
from scrapy.linkextractors import LinkExtractor


class SiteSpider(scrapy.Spider):
    """Every page of one site: from the start address, each link on its host, once."""

    name = "site"

    def __init__(self, start_url: str, raw_text: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.start_urls = [start_url]
        self.raw_text = raw_text
        # Links to the start address's scheme, host and port: the site's pages. A real site's spider
        # would narrow them with more allow= / deny= patterns (its search page, calendars, print
        # views) and set allowed_domains.
        parts = urlsplit(start_url)
        self.links = LinkExtractor(allow=[f"^{re.escape(f'{parts.scheme}://{parts.netloc}/')}"])

    async def start(self) -> Any:
        # Not dont_filter, as start requests are by default: the site's links back to its home page
        # are then duplicates, and the home page is crawled (and indexed) once.
        for url in self.start_urls:
            yield scrapy.Request(url, callback=self.parse)

    def parse(self, response: scrapy.http.Response, **kwargs: Any) -> Any:
        if not isinstance(response, scrapy.http.HtmlResponse):
            return
        item: dict[str, Any] = {"url": response.url, "title": response.css("title::text").get("").strip()}
        if self.raw_text:
            item["raw_text"] = visible_text(response)
        yield item
        for link in self.links.extract_links(response):
            yield response.follow(link, callback=self.parse)


def visible_text(response: scrapy.http.HtmlResponse) -> str:
    """The text of the page's body, scripts and styles aside: what gets indexed without extraction."""
    texts = response.xpath(
        "//body//text()[not(ancestor::script) and not(ancestor::style) and not(ancestor::noscript)]"
    ).getall()
    return "\n".join(t.strip() for t in texts if t.strip())


def settings(output: Path, args: argparse.Namespace) -> dict[str, Any]:
    s: dict[str, Any] = {
        "FEEDS": {str(output): {"format": "jsonlines", "encoding": "utf-8", "overwrite": True}},
        "LOG_LEVEL": args.log_level,
        "ROBOTSTXT_OBEY": args.obey_robots,
        "CONCURRENT_REQUESTS": args.concurrency,
        "CONCURRENT_REQUESTS_PER_DOMAIN": args.concurrency,
        "TELNETCONSOLE_ENABLED": False,
    }
    if not args.without_pith:
        s.update(
            {
                "SPIDER_MIDDLEWARES": {"pith.integrations.scrapy.PithMiddleware": 600},
                "PITH_FORMATS": ["text"],
                "PITH_SITE_MODELS": args.site_models,
                "PITH_MIN_ARTICLE_PROBABILITY": args.min_article_probability,
            }
        )
    return s


def _probability(value: str) -> float | None:
    return None if value.lower() == "none" else float(value)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Crawl a site with Scrapy and pith; one JSON line per page.")
    parser.add_argument("start_url")
    parser.add_argument("--output", type=Path, required=True, help="the items, JSON lines")
    parser.add_argument("--without-pith", action="store_true", help="no pith: items carry the raw page text")
    parser.add_argument("--no-site-models", dest="site_models", action="store_false")
    parser.add_argument("--min-article-probability", type=_probability, default=0.5, help='or "none"')
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--obey-robots", action="store_true", help="a real site's robots.txt")
    parser.add_argument("--log-level", default="WARNING")
    args = parser.parse_args(argv)

    process = CrawlerProcess(settings(args.output, args))
    crawler = process.create_crawler(SiteSpider)
    started = time.perf_counter()
    process.crawl(crawler, start_url=args.start_url, raw_text=args.without_pith)
    process.start()
    seconds = time.perf_counter() - started
    stats = crawler.stats.get_stats()
    pages = stats.get("response_received_count", 0)
    figures = {
        "responses": pages,
        "items": stats.get("item_scraped_count", 0),
        "seconds": round(seconds, 3),
        "pith": {k[len("pith/") :]: v for k, v in sorted(stats.items()) if k.startswith("pith/")},
    }
    print(json.dumps(figures, ensure_ascii=False), flush=True)
    if stats.get("log_count/ERROR", 0):
        sys.exit(f"crawl: {stats['log_count/ERROR']} errors logged")


if __name__ == "__main__":
    main()
