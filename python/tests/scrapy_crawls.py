"""Crawls for test_scrapy.py, run in a process of their own (Twisted's reactor starts once per process):

    python scrapy_crawls.py '{"start_url": "http://127.0.0.1:PORT/", "crawls": {"name": {SETTINGS}}}'

Every crawl runs the same spider over the same site, at the same time, each with its own settings
(pith's middleware on, plus the settings given); one JSON object is printed: per crawl, the items
scraped and the crawl's stats.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import scrapy
from scrapy import signals
from scrapy.crawler import CrawlerProcess


class Page(scrapy.Item):
    url = scrapy.Field()
    pith = scrapy.Field()


class SiteSpider(scrapy.Spider):
    """One item per response, HTML or not; links followed on HTML pages."""

    name = "site"

    def __init__(self, start_url: str, item_class: str = "dict", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.start_urls = [start_url]
        self.item_class = item_class

    async def start(self) -> Any:
        # Filtered as duplicates like any other request, so the home page is crawled once.
        for url in self.start_urls:
            yield scrapy.Request(url, callback=self.parse)

    def parse(self, response: scrapy.http.Response, **kwargs: Any) -> Any:
        yield Page(url=response.url) if self.item_class == "item" else {"url": response.url}
        if isinstance(response, scrapy.http.HtmlResponse):
            yield from response.follow_all(css="a", callback=self.parse)


def main() -> None:
    spec = json.loads(sys.argv[1])
    process = CrawlerProcess({"LOG_LEVEL": "WARNING", "TELNETCONSOLE_ENABLED": False})
    results: dict[str, dict[str, Any]] = {}
    for name, extra in spec["crawls"].items():
        settings = {
            "SPIDER_MIDDLEWARES": {"pith.integrations.scrapy.PithMiddleware": 600},
            "CONCURRENT_REQUESTS": 4,
            **extra.get("settings", {}),
        }
        crawler = process.create_crawler(type("SiteSpider", (SiteSpider,), {"custom_settings": settings}))
        items: list[Any] = []

        def collect(item: Any, items: list[Any] = items, **_: Any) -> None:
            items.append(dict(item))

        # Signals hold their receivers weakly: the results keep this one alive.
        crawler.signals.connect(collect, signal=signals.item_scraped)
        results[name] = {"crawler": crawler, "items": items, "receiver": collect}
        process.crawl(crawler, start_url=spec["start_url"], item_class=extra.get("item_class", "dict"))
    process.start()
    print(
        json.dumps(
            {
                name: {"items": r["items"], "stats": r["crawler"].stats.get_stats()}
                for name, r in results.items()
            },
            default=str,
        )
    )


if __name__ == "__main__":
    main()
