"""pith in a Scrapy crawl: a spider middleware that puts each page's main content on the items the
spider yields from it.

    # settings.py
    SPIDER_MIDDLEWARES = {"pith.integrations.scrapy.PithMiddleware": 600}
    PITH_FORMATS = ["text", "markdown"]
    PITH_SITE_MODELS = True                 # learn each site's menus and footers as the crawl goes
    PITH_MIN_ARTICLE_PROBABILITY = 0.5      # drop items of pages without an article

    # the spider: nothing about pith
    def parse(self, response):
        yield {"url": response.url}
        yield from response.follow_all(css="a")

Why a spider middleware: it is the one place in Scrapy that sees a response together with the
items the spider made from it. An item pipeline sees items alone (the spider would have to carry the
HTML on every item, through every feed), and a downloader middleware sees responses before the
spider and no items at all. So the spider stays as it is, the HTML is extracted once per response
(however many items it gave), and requests pass through untouched. A response the spider makes no
item from is not extracted (and, with PITH_SITE_MODELS, does not teach its site's template).

For every item (dict, ``scrapy.Item``, dataclass, attrs: anything itemadapter takes) yielded from an
HTML response, the page is extracted in-process with the Python package and the item gains one field,
``pith`` (``PITH_ITEM_FIELD``), a dict:

    url, title, lang           as pith read them (``url`` is the response's)
    text                       the main content as text ("" when PITH_FORMATS leaves it out)
    markdown, html             when PITH_FORMATS asks for them
    has_article                the probability that the page holds an article
    is_article                 has_article >= PITH_MIN_ARTICLE_PROBABILITY when that is set, else
                               pith's own verdict
    page_type                  "article", "listing", "forum", "product", "collection",
                               "documentation" or "service"
    metadata                   pith's metadata object (authors, published, description, ...)
    template                   with PITH_SITE_MODELS: {"pages": the site's other pages learned from,
                               "blocks_removed": blocks of this page left out as the site's}

A ``scrapy.Item`` class must declare the field (``pith = scrapy.Field()``). Items of responses that are
not HTML (``HtmlResponse``: PDFs, images, JSON, feeds) pass through untouched. A page pith refuses
(empty, binary, over its complexity budget) is logged as a warning and counted, never raised: its items
carry ``{"url": ..., "error": {"code": ..., "message": ...}}`` instead, and are dropped when
PITH_MIN_ARTICLE_PROBABILITY is set (a page with no readable content has no article).

Settings (all optional):

    PITH_ENABLED                  True; False turns the middleware off
    PITH_FORMATS                  ["text"]; any of "text", "markdown", "html"
    PITH_SITE_MODELS              False; True learns each site's template (what the site repeats on
                                  its pages: channel menu, hot lists, notices, footer) from the pages
                                  crawled, per registered domain, and leaves it out of later pages'
                                  text once three of the site's pages are in (see
                                  ``help(pith.Extractor)``, ``site_templates``)
    PITH_MIN_ARTICLE_PROBABILITY  None; a probability under which a page counts as no article, and
                                  its items are dropped (stats ``pith/dropped/not_article``)
    PITH_KEEP_NON_ARTICLES        False; True keeps those items, flagged ``is_article: False``
    PITH_ITEM_FIELD               "pith"
    PITH_ALGORITHM                "auto"; another of ``pith.ALGORITHMS``
    PITH_INCLUDE_COMMENTS         None (pith's default: reader comments left out)
    PITH_NO_ARTICLE_TEXT          None; "lead" keeps only a short lead of pages without an article
    PITH_MODELS, PITH_PARAMS      trained models' directory and algorithm parameters, as for
                                  ``pith.Extractor``
    PITH_THREADS                  True: extract in the reactor's thread pool (Twisted's
                                  ``deferToThread``, REACTOR_THREADPOOL_MAXSIZE threads), so the
                                  crawl's I/O goes on while pages are extracted; False extracts on
                                  the reactor's thread

Stats, under ``pith/``: ``pages`` (responses extracted), ``not_html`` (items passed through),
``error/<code>`` (pages refused), ``page_type/<label>``, ``template/blocks_removed`` (blocks left out
as the site's, over the crawl), ``sites`` (sites learned, at the end), ``dropped/not_article``,
``dropped/error``.

The page's charset: the one the response's ``Content-Type`` names, else pith's own detection (BOM,
``<meta>``, statistics), which, unlike Scrapy's ``response.text``, does not trust a ``<meta>`` that
contradicts bytes that are valid UTF-8.

Needs Scrapy 2.13 or later (``pip install './python[scrapy]'``); importing this module without it raises
ImportError.
"""

from __future__ import annotations

import copy
import logging
import re
from collections.abc import AsyncIterator, Iterable, Mapping
from typing import Any

from itemadapter import ItemAdapter, is_item
from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, Response
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.threads import deferToThread

import pith

__all__ = ["PithMiddleware"]

logger = logging.getLogger(__name__)

_CHARSET = re.compile(r"""charset\s*=\s*["']?([^\s;"']+)""", re.I)
_TEXT_FORMATS = ("text", "markdown", "html")


class PithMiddleware:
    """Scrapy spider middleware: each HTML response's items gain pith's extraction (see the module's
    documentation for the field, the settings and the stats)."""

    def __init__(self, crawler: Any) -> None:
        settings = crawler.settings
        if not settings.getbool("PITH_ENABLED", True):
            raise NotConfigured("PITH_ENABLED is False")
        self.stats = crawler.stats
        self.formats = tuple(settings.getlist("PITH_FORMATS", ["text"]))
        unknown = [f for f in self.formats if f not in _TEXT_FORMATS]
        if unknown:
            raise pith.InvalidArgumentError(
                f"PITH_FORMATS: {', '.join(map(repr, unknown))}; known: {', '.join(_TEXT_FORMATS)}"
            )
        self.field = settings.get("PITH_ITEM_FIELD", "pith")
        threshold = settings.get("PITH_MIN_ARTICLE_PROBABILITY")
        self.min_article_probability = None if threshold in (None, "") else float(threshold)
        self.keep_non_articles = settings.getbool("PITH_KEEP_NON_ARTICLES", False)
        self.threads = settings.getbool("PITH_THREADS", True)
        self.keywords: dict[str, Any] = {
            "algorithm": settings.get("PITH_ALGORITHM", "auto"),
            "formats": self.formats,
            "include_comments": _optional_bool(settings.get("PITH_INCLUDE_COMMENTS")),
            "no_article_text": settings.get("PITH_NO_ARTICLE_TEXT") or None,
        }
        self.extractor = pith.Extractor(
            models=settings.get("PITH_MODELS") or None,
            params=settings.getdict("PITH_PARAMS") or None,
            site_templates=settings.getbool("PITH_SITE_MODELS", False),
        )
        # Refuse a wrong algorithm or option now, not once per page in the middle of the crawl.
        self.extractor.extract("<p>pith</p>", **{**self.keywords, "formats": ()})
        crawler.signals.connect(self._spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Any) -> PithMiddleware:
        return cls(crawler)

    async def process_spider_output(
        self, response: Response, result: AsyncIterator[Any] | Iterable[Any], spider: Any = None
    ) -> AsyncIterator[Any]:
        """Requests pass through; items of an HTML response gain the page's extraction (made once,
        on the first item) or are dropped as not articles."""
        extraction: dict[str, Any] | None = None
        given = 0
        async for obj in _aiter(result):
            if not is_item(obj):
                yield obj
                continue
            if not isinstance(response, HtmlResponse):
                self.stats.inc_value("pith/not_html")
                yield obj
                continue
            if extraction is None:
                extraction = await self._extract(response)
            if self._keep(extraction):
                # Several items of one page each get their own copy: a pipeline changing one item's
                # field must not change the others'.
                _put(obj, self.field, extraction if given == 0 else copy.deepcopy(extraction))
                given += 1
                yield obj

    async def _extract(self, response: HtmlResponse) -> dict[str, Any]:
        """The page's answer as the item's field, or an error entry; counted either way."""
        charset = _header_charset(response)
        if self.threads:
            answer = await maybe_deferred_to_future(deferToThread(self._extract_now, response, charset))
        else:
            answer = self._extract_now(response, charset)
        if "error" in answer:
            code = answer["error"]["code"]
            logger.warning("pith: %s: %s (%s)", response.url, answer["error"]["message"], code)
            self.stats.inc_value(f"pith/error/{code}")
            return answer
        self.stats.inc_value("pith/pages")
        if answer["page_type"]:
            self.stats.inc_value(f"pith/page_type/{answer['page_type']}")
        if answer.get("template"):
            self.stats.inc_value("pith/template/blocks_removed", answer["template"]["blocks_removed"])
        return answer

    def _extract_now(self, response: HtmlResponse, charset: str | None) -> dict[str, Any]:
        """Extract (on whichever thread calls it: the GIL is released while pith works)."""
        try:
            try:
                result = self.extractor.extract(response.body, url=response.url, charset=charset, **self.keywords)
            except pith.UnknownCharsetError:
                # A label the server made up: read the bytes as if it had named none.
                result = self.extractor.extract(response.body, url=response.url, **self.keywords)
        except pith.PithError as e:
            return {"url": response.url, "error": {"code": e.code, "message": str(e)}}
        return self._field(response.url, result)

    def _field(self, url: str, result: Mapping[str, Any]) -> dict[str, Any]:
        probability = result["has_article"]["probability"]
        if self.min_article_probability is None:
            is_article = result["has_article"]["is_article"]
        else:
            is_article = probability >= self.min_article_probability
        field: dict[str, Any] = {"url": url, "title": result["title"], "lang": result["lang"]}
        content = result["content"]
        field["text"] = content.get("text", "")
        for name in ("markdown", "html"):
            if name in self.formats:
                field[name] = content.get(name, "")
        field.update(
            {
                "has_article": probability,
                "is_article": is_article,
                "page_type": (result.get("page_type") or {}).get("label"),
                "metadata": result["metadata"],
            }
        )
        if "template" in result:
            field["template"] = result["template"]
        return field

    def _keep(self, extraction: Mapping[str, Any]) -> bool:
        """Whether an item with this extraction goes on (counted when it does not)."""
        if self.min_article_probability is None or self.keep_non_articles:
            return True
        if "error" in extraction:
            self.stats.inc_value("pith/dropped/error")
            return False
        if not extraction["is_article"]:
            logger.debug(
                "pith: dropped an item of %s: has-article probability %.3f < %s",
                extraction["url"],
                extraction["has_article"],
                self.min_article_probability,
            )
            self.stats.inc_value("pith/dropped/not_article")
            return False
        return True

    def _spider_closed(self, spider: Any = None, reason: str | None = None) -> None:
        if self.extractor.site_templates:
            self.stats.set_value("pith/sites", self.extractor.sites_learned)


def _put(item: Any, field: str, value: dict[str, Any]) -> None:
    adapter = ItemAdapter(item)
    try:
        adapter[field] = value
    except KeyError:
        raise KeyError(
            f"{type(item).__name__} has no field {field!r} for pith's extraction: declare it "
            f"({field} = scrapy.Field()) or name another with PITH_ITEM_FIELD"
        ) from None


def _header_charset(response: Response) -> str | None:
    content_type = response.headers.get(b"Content-Type")
    if not content_type:
        return None
    m = _CHARSET.search(content_type.decode("latin-1"))
    return m.group(1) if m else None


def _optional_bool(value: Any) -> bool | None:
    if value is None or value == "":
        return None
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes", "on")
    return bool(value)


async def _aiter(result: AsyncIterator[Any] | Iterable[Any]) -> AsyncIterator[Any]:
    if hasattr(result, "__aiter__"):
        async for obj in result:  # type: ignore[union-attr]
            yield obj
    else:
        for obj in result:  # type: ignore[union-attr]
            yield obj
