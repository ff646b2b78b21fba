"""`pith.read_warc` on archives the test writes: which records are pages, what each dict holds, gzip
per record or whole, codings, and broken archives."""

from __future__ import annotations

import gzip
import zlib

import pytest
from conftest import FIXTURES

import pith

ARTICLE = (FIXTURES / "article.html").read_bytes()
ZH_GBK = (FIXTURES / "zh-news.html").read_bytes().decode("utf-8").encode("gbk")


def record(kind: str, uri: str, block: bytes, rid: str, content_type: str = "application/http; msgtype=response") -> bytes:
    head = (
        f"WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Target-URI: {uri}\r\nWARC-Date: 2026-01-01T00:00:00Z\r\n"
        f"WARC-Record-ID: <urn:uuid:{rid}>\r\nContent-Type: {content_type}\r\nContent-Length: {len(block)}\r\n\r\n"
    )
    return head.encode() + block + b"\r\n\r\n"


def http(status: str, content_type: str | None, body: bytes, extra: str = "") -> bytes:
    ctype = f"Content-Type: {content_type}\r\n" if content_type else ""
    return f"HTTP/1.1 {status}\r\n{ctype}{extra}\r\n".encode() + body


def chunked(body: bytes) -> bytes:
    half = len(body) // 2
    parts = [body[:half], body[half:]]
    return b"".join(f"{len(p):x}\r\n".encode() + p + b"\r\n" for p in parts) + b"0\r\n\r\n"


RECORDS = [
    record("warcinfo", "", b"software: test", "info", "application/warc-fields"),
    record("request", "https://a.example/", b"GET / HTTP/1.1\r\n\r\n", "req", "application/http; msgtype=request"),
    record("response", "https://a.example/", http("200 OK", "text/html; charset=utf-8", ARTICLE), "a"),
    record("response", "https://zh.example/", http("200 OK", 'text/html; charset="GBK"', chunked(ZH_GBK), "Transfer-Encoding: chunked\r\n"), "zh"),
    record("response", "https://gz.example/", http("200 OK", "text/html", gzip.compress(ARTICLE), "Content-Encoding: gzip\r\n"), "gz"),
    record("response", "https://img.example/x.png", http("200 OK", "image/png", b"\x89PNG...."), "png"),
    record("response", "https://gone.example/", http("404 Not Found", "text/html", b"<p>gone</p>"), "404"),
    record("response", "https://raw.example/", http("200 OK", None, zlib.compress(ARTICLE), "Content-Encoding: deflate\r\n"), "deflate"),
    record("resource", "file:///page.html", ARTICLE, "res", "text/html"),
    record("response", "https://big.example/", http("200 OK", "text/html", b"x" * 5000), "big"),
]


@pytest.fixture(params=["plain", "gzip-members", "gzip-whole"])
def archive(request, tmp_path):
    if request.param == "plain":
        data = b"".join(RECORDS)
    elif request.param == "gzip-members":
        data = b"".join(gzip.compress(r) for r in RECORDS)
    else:
        data = gzip.compress(b"".join(RECORDS))
    path = tmp_path / ("crawl.warc" if request.param == "plain" else "crawl.warc.gz")
    path.write_bytes(data)
    return path


def test_html_responses_and_resources(archive):
    records = pith.read_warc(archive, max_record_bytes=4096)
    pages = list(records)
    assert [p["url"] for p in pages] == [
        "https://a.example/",
        "https://zh.example/",
        "https://gz.example/",
        "https://raw.example/",
        "file:///page.html",
    ]
    a, zh, gz, raw, res = pages
    assert a == {
        "url": "https://a.example/",
        "record_id": "<urn:uuid:a>",
        "date": "2026-01-01T00:00:00Z",
        "digest": None,
        "kind": "response",
        "status": 200,
        "content_type": "text/html",
        "charset": "utf-8",
        "html": ARTICLE,
    }
    assert zh["charset"] == "GBK" and zh["html"] == ZH_GBK
    assert gz["html"] == ARTICLE and raw["html"] == ARTICLE and raw["content_type"] is None
    assert res["kind"] == "resource" and res["status"] is None and res["html"] == ARTICLE
    assert (records.other_records, records.not_html, records.not_ok, records.oversize) == (2, 1, 1, 1)


def test_records_feed_extract_many(archive):
    pages = list(pith.read_warc(archive))
    results = pith.extract_many([p["html"] for p in pages], urls=[p["url"] for p in pages], charsets=[p["charset"] for p in pages])
    assert results[0]["url"] == "https://a.example/"
    # The header's GBK, decoded as its superset GB18030, as pith names it.
    assert results[1]["charset"] == "gb18030"
    assert results[1]["content"]["text"] == pith.extract((FIXTURES / "zh-news.html").read_bytes())["content"]["text"]
    assert results[0]["content"]["text"] == results[2]["content"]["text"] == results[4]["content"]["text"]


def test_broken_archives(tmp_path):
    with pytest.raises(pith.WarcError) as caught:
        pith.read_warc(tmp_path / "missing.warc")
    assert isinstance(caught.value, OSError) and caught.value.code == "warc"
    assert "missing.warc" in str(caught.value)
    cut = tmp_path / "cut.warc"
    whole = b"".join(RECORDS[:3])
    cut.write_bytes(whole[:-200])
    records = pith.read_warc(cut)
    with pytest.raises(pith.WarcError, match="ends inside a record"):
        list(records)
    not_warc = tmp_path / "page.html"
    not_warc.write_bytes(ARTICLE)
    with pytest.raises(pith.WarcError, match="not a WARC record"):
        next(pith.read_warc(not_warc))


def test_pages_read_before_a_break_are_yielded(tmp_path):
    cut = tmp_path / "cut.warc.gz"
    data = gzip.compress(b"".join(RECORDS[:4]))
    cut.write_bytes(data[: len(data) * 3 // 4])
    got = []
    with pytest.raises(pith.WarcError):
        for page in pith.read_warc(cut):
            got.append(page["url"])
    assert got[:1] == ["https://a.example/"]


def test_failures_are_the_records_pith_batch_reports(archive):
    records = pith.read_warc(archive, max_record_bytes=4096, failures=True)
    failed = [r for r in records if "error" in r]
    assert [(r["url"], r["status"], r["html"], r["error"]["kind"]) for r in failed] == [
        ("https://gone.example/", 404, None, "origin_status"),
        ("https://big.example/", None, None, "too_large"),
    ]
    assert failed[0]["error"]["message"] == "the origin answered 404"
    # Counted as without failures=True: the counts say what was not a page, whatever was yielded.
    assert (records.other_records, records.not_html, records.not_ok, records.oversize) == (2, 1, 1, 1)
