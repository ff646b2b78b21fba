"""The package answers what `pith extract --format json` prints: same keys, same values, timings
aside, on a sample of dataset pages (tests/compare_all.py does every page of every dataset)."""

from __future__ import annotations

from conftest import DatasetPage, canonical, cli_extract

import pith


def python_extract(page: DatasetPage) -> dict:
    # The CLI's JSON format: text and HTML, with the block report.
    return pith.extract(page.html, url=page.url, formats=("text", "html"), blocks=True)


def test_sample_matches_the_cli(cli, sample_pages):
    differ = []
    for page in sample_pages:
        ours, theirs = python_extract(page), cli_extract(cli, page.html, page.url)
        if canonical(ours) != canonical(theirs):
            keys = sorted(k for k in theirs if k != "timings_ms" and ours.get(k) != theirs.get(k))
            differ.append(f"{page.name}: {keys}")
    assert not differ, "differs from the CLI:\n" + "\n".join(differ)


def test_sample_has_gbk_pages_decoded_by_detection(sample_pages):
    # zh-cwce's GB2312/GBK pages come as bytes with no caller charset: detection must find it.
    charsets = {pith.extract(p.html, formats=())["charset"] for p in sample_pages if p.dataset == "zh-cwce"}
    assert charsets & {"GBK", "gb18030", "GB18030", "GB2312"}, charsets


def test_the_keys_the_cli_prints(cli, sample_pages):
    page = sample_pages[0]
    ours, theirs = python_extract(page), cli_extract(cli, page.html, page.url)
    assert list(ours) == list(theirs)
    assert set(ours["timings_ms"]) == set(theirs["timings_ms"])
