"""Threads: `extract_many` answers what a loop of `extract` answers, in input order, whatever the
thread count; Python threads calling `extract` at once get the same answers; the GIL is released."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

from conftest import canonical

import pith


def loop(pages, **keywords):
    return [pith.extract(p.html, url=p.url, **keywords) for p in pages]


def test_extract_many_equals_a_loop_of_extract(sample_pages):
    keywords = {"formats": ("text", "html", "markdown"), "blocks": True}
    expected = [canonical(r) for r in loop(sample_pages, **keywords)]
    for jobs in (1, 2, 3, None):
        got = pith.extract_many([p.html for p in sample_pages], urls=[p.url for p in sample_pages], jobs=jobs, **keywords)
        assert [canonical(r) for r in got] == expected, jobs


def test_extract_many_takes_any_iterable_and_per_page_charsets(sample_pages):
    pages = sample_pages[:6]
    from_generator = pith.extract_many((p.html for p in pages), jobs=2)
    assert [r["content"]["text"] for r in from_generator] == [r["content"]["text"] for r in loop(pages[:6])]
    assert pith.extract_many([]) == []
    zh = [p for p in sample_pages if p.dataset == "zh-cwce"][:3]
    labelled = pith.extract_many([p.html for p in zh], charsets=[None, "utf-8", None])
    assert labelled[0]["charset"] == pith.extract(zh[0].html)["charset"]
    assert labelled[1]["charset"] == "UTF-8"


def test_python_threads_extract_at_once(sample_pages):
    expected = [canonical(r) for r in loop(sample_pages)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        got = list(pool.map(lambda p: canonical(pith.extract(p.html, url=p.url)), sample_pages))
    assert got == expected
    engine = pith.Extractor()
    with ThreadPoolExecutor(max_workers=3) as pool:
        got = list(pool.map(lambda p: canonical(engine.extract(p.html, url=p.url)), sample_pages))
    assert got == expected


def test_the_gil_is_released_while_pages_are_extracted(sample_pages):
    # A Python thread that counts while extract_many runs: with the GIL held for the whole call it
    # could not count at all until the call returned.
    ticks_during_call = []
    running = threading.Event()
    stop = threading.Event()

    def count():
        n = 0
        running.set()
        while not stop.is_set():
            n += 1
            time.sleep(0.0005)
            ticks_during_call.append(n)

    ticker = threading.Thread(target=count)
    ticker.start()
    running.wait()
    before = len(ticks_during_call)
    pith.extract_many([p.html for p in sample_pages] * 2, jobs=1)
    during = len(ticks_during_call) - before
    stop.set()
    ticker.join()
    assert during > 20, during
