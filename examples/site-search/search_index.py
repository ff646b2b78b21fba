"""The site's search index: crawled items into tantivy, and queries against it.

    python examples/site-search/search_index.py build items.jsonl --index index/
    python examples/site-search/search_index.py query --index index/ 水稻 种植技术

Chinese is indexed as overlapping character pairs (bigrams: 水稻种植 → 水稻 稻种 种植), the way
Lucene's CJK analyzer does, and other scripts as lowercased words. Pairs need no dictionary, never
split a query differently from the text, and a query's pairs in order are a phrase query, so a
phrase finds exactly the pages that contain it; BM25 ranks them, a match in the title counting extra.

One document per item of the crawl (``crawl.py``'s JSON lines). What is indexed, per document:

    url         stored, and a raw term (one document per address: a page crawled twice counts once)
    title       pith's title (the page's headline), else the HTML <title>; stored and searched
    text        the page's main content from pith (``item["pith"]["text"]``), or with
                ``--text-from raw`` the whole page's text as a crawler without pith has it
                (``item["raw_text"]``); stored (for snippets) and searched
    page_type   pith's page type ("article", "listing", ...; "" without pith), a raw term to filter on
    has_article pith's probability (-1 without pith), stored
    published   the page's publication date from pith's metadata, stored
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import tantivy

# Runs of CJK ideographs (and kana and hangul, which pair the same way), and words of other scripts.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_TOKENS = re.compile(rf"[{_CJK}]+|[^\W{_CJK}]+")
_CJK_CHAR = re.compile(rf"[{_CJK}]")


def terms(text: str) -> list[str]:
    """The terms of a text, in order: each CJK run as its overlapping pairs (a lone character as
    itself), every other word lowercased."""
    out: list[str] = []
    for m in _TOKENS.finditer(text):
        run = m.group()
        if _CJK_CHAR.match(run):
            out.extend(run[i : i + 2] for i in range(max(1, len(run) - 1)))
        else:
            out.append(run.lower())
    return out


def _schema() -> tantivy.Schema:
    b = tantivy.SchemaBuilder()
    b.add_text_field("url", stored=True, tokenizer_name="raw")
    b.add_text_field("title", stored=True, index_option="basic")  # shown, not searched as is
    b.add_text_field("title_terms", stored=False, tokenizer_name="whitespace", index_option="position")
    b.add_text_field("text", stored=True, index_option="basic")
    b.add_text_field("text_terms", stored=False, tokenizer_name="whitespace", index_option="position")
    b.add_text_field("page_type", stored=True, tokenizer_name="raw")
    b.add_float_field("has_article", stored=True)
    b.add_text_field("published", stored=True, tokenizer_name="raw")
    return b.build()


@dataclass
class Page:
    url: str
    title: str
    text: str
    page_type: str
    has_article: float
    published: str


def pages_of(items: Iterable[dict], text_from: str) -> Iterator[Page]:
    """The pages to index from the crawl's items: with pith's extraction (``text_from="pith"``; items
    without it, such as pages pith refused, are left out) or the raw page text."""
    for item in items:
        extraction = item.get("pith") or {}
        if text_from == "pith":
            if "text" not in extraction:
                continue
            text = extraction["text"]
        else:
            text = item.get("raw_text") or ""
        published = ((extraction.get("metadata") or {}).get("published") or {}).get("value") or ""
        yield Page(
            url=item["url"],
            title=extraction.get("title") or item.get("title") or "",
            text=text,
            page_type=extraction.get("page_type") or "",
            has_article=float(extraction.get("has_article", -1.0)),
            published=published,
        )


def build(pages: Iterable[Page], index_dir: Path) -> int:
    """A new index of `pages` in `index_dir` (what was there is replaced); the documents written."""
    if index_dir.exists():
        shutil.rmtree(index_dir)
    index_dir.mkdir(parents=True)
    index = tantivy.Index(_schema(), path=str(index_dir))
    writer = index.writer(heap_size=50_000_000, num_threads=1)
    # One document per address: a page crawled twice is indexed as last crawled.
    latest = {p.url: p for p in pages}
    for p in latest.values():
        writer.add_document(
            tantivy.Document(
                url=p.url,
                title=p.title,
                title_terms=" ".join(terms(p.title)),
                text=p.text,
                text_terms=" ".join(terms(p.text)),
                page_type=p.page_type,
                has_article=p.has_article,
                published=p.published,
            )
        )
    writer.commit()
    writer.wait_merging_threads()
    return len(latest)


@dataclass
class Hit:
    score: float
    url: str
    title: str
    page_type: str
    snippet: str


def _clause(index: tantivy.Index, field: str, words: list[str]) -> tantivy.Query:
    if len(words) == 1:
        return tantivy.Query.term_query(index.schema, field, words[0])
    return tantivy.Query.phrase_query(index.schema, field, words)


def search(index_dir: Path, query: str, limit: int = 10, page_type: str | None = None) -> list[Hit]:
    """Pages whose text holds every part of `query` (parts are separated by spaces; each is a phrase),
    best first: BM25 over the text, plus a title that holds the part."""
    index = tantivy.Index.open(str(index_dir))
    index.reload()
    parts = [terms(part) for part in query.split()]
    parts = [p for p in parts if p]
    if not parts:
        return []
    must = []
    for words in parts:
        in_text = _clause(index, "text_terms", words)
        in_title = tantivy.Query.boost_query(_clause(index, "title_terms", words), 2.0)
        # Each part must be in the text; its presence in the title adds to the score.
        must.append(
            (
                tantivy.Occur.Must,
                tantivy.Query.boolean_query([(tantivy.Occur.Must, in_text), (tantivy.Occur.Should, in_title)]),
            )
        )
    if page_type:
        must.append((tantivy.Occur.Must, tantivy.Query.term_query(index.schema, "page_type", page_type)))
    searcher = index.searcher()
    hits = []
    for score, address in searcher.search(tantivy.Query.boolean_query(must), limit).hits:
        doc = searcher.doc(address)
        text = doc.get_first("text") or ""
        hits.append(
            Hit(
                score=score,
                url=doc.get_first("url"),
                title=doc.get_first("title") or "",
                page_type=doc.get_first("page_type") or "",
                snippet=snippet(text, query.split()),
            )
        )
    return hits


def snippet(text: str, parts: list[str], width: int = 36) -> str:
    """Some `width` characters either side of the first place the text holds a part of the query,
    the part in 【】; the text's start when none is found verbatim."""
    flat = " ".join(text.split())
    low = flat.lower()
    for part in parts:
        at = low.find(part.lower())
        if at >= 0:
            start, end = max(0, at - width), min(len(flat), at + len(part) + width)
            return (
                ("…" if start > 0 else "")
                + flat[start:at]
                + "【"
                + flat[at : at + len(part)]
                + "】"
                + flat[at + len(part) : end]
                + ("…" if end < len(flat) else "")
            )
    return flat[: 2 * width] + ("…" if len(flat) > 2 * width else "")


def _read_items(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Build the site's search index, or query it.")
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="index a crawl's items (JSON lines)")
    b.add_argument("items", type=Path)
    b.add_argument("--index", type=Path, required=True)
    b.add_argument("--text-from", choices=("pith", "raw"), default="pith")
    q = sub.add_parser("query", help="print ranked results: title, URL and a snippet")
    q.add_argument("query", nargs="+")
    q.add_argument("--index", type=Path, required=True)
    q.add_argument("-n", "--limit", type=int, default=10)
    q.add_argument("--page-type", help='only pages of this type ("article", "listing", ...)')
    q.add_argument("--json", action="store_true", help="one JSON object per result")
    args = parser.parse_args(argv)
    if args.command == "build":
        n = build(pages_of(_read_items(args.items), args.text_from), args.index)
        print(f"search_index: {n} pages indexed in {args.index} (text from {args.text_from})", file=sys.stderr)
        return
    hits = search(args.index, " ".join(args.query), args.limit, args.page_type)
    for rank, hit in enumerate(hits, 1):
        if args.json:
            print(json.dumps({"rank": rank, **hit.__dict__}, ensure_ascii=False))
        else:
            kind = f" [{hit.page_type}]" if hit.page_type else ""
            print(f"{rank}. {hit.title}{kind}  ({hit.score:.2f})\n   {hit.url}\n   {hit.snippet}\n")
    if not args.json:
        print(f"{len(hits)} result{'s' if len(hits) != 1 else ''}", file=sys.stderr)


if __name__ == "__main__":
    main()
