"""`pith.Extractor(site_templates=True)`: each site's template learned from the pages extracted."""

from __future__ import annotations

import pith
import pytest

# Printed inside the main column of every page of the site: a paragraph like the story's own, which
# only the site's template tells apart.
NOTICE = "All stories of the Valley Growers Bulletin may be reprinted with the editors' written consent."

HEADLINES = ["Two potatoes for next year", "Hail on the eastern slopes", "Hives move to the clover", "Cattle prices up", "A hedge by the cycle path"]
BODIES = [
    "Potato growers compared three new varieties on the cooperative's trial field and chose two for next year.",
    "A hailstorm on Sunday damaged the vineyards on the eastern slopes, and the county will assess the losses.",
    "Beekeepers moved their hives to the clover meadows as the rape fields finished flowering this week.",
    "The cattle market reopened after the winter with prices for young stock higher than a year ago.",
    "Students from the agricultural school planted a hedge of native shrubs along the new cycle path.",
]


def page(k: int) -> str:
    return f"""<html lang="en"><head><title>{HEADLINES[k]} - Valley Growers Bulletin</title></head><body>
<div id="main"><h1>{HEADLINES[k]}</h1><div class="story">
<p>{BODIES[k]}</p><p>{BODIES[k].replace("the", "this")} More details follow in the next issue.</p>
<p class="notice">{NOTICE}</p></div></div></body></html>"""


def test_a_site_learned_leaves_its_repeated_blocks_out():
    crawl = pith.Extractor(site_templates=True)
    assert crawl.site_templates and crawl.sites_learned == 0
    answers = [crawl.extract(page(k), url=f"https://news.valley.example/{k}.html") for k in range(5)]
    assert [a["template"]["pages"] for a in answers] == [0, 1, 2, 3, 4]
    # Two other pages are the least evidence: the first two keep the notice, the rest lose it.
    assert [NOTICE in a["content"]["text"] for a in answers] == [True, True, False, False, False]
    assert [a["template"]["blocks_removed"] for a in answers] == [0, 0, 1, 1, 1]
    assert all(HEADLINES[k] in a["content"]["text"] and BODIES[k] in a["content"]["text"] for k, a in enumerate(answers))
    # One site: the registered domain, whatever the host.
    assert crawl.sites_learned == 1
    assert crawl.site_pages("http://www.valley.example/") == 5
    assert crawl.site_pages("https://elsewhere.example/") == 0


def test_a_page_is_never_its_own_evidence():
    crawl = pith.Extractor(site_templates=True)
    first = crawl.extract(page(0), url="https://valley.example/0.html")
    for k in (1, 2, 3):
        crawl.extract(page(k), url=f"https://valley.example/{k}.html")
    # Extracted again, the first page is learned already: the other three are its evidence.
    again = crawl.extract(page(0), url="https://valley.example/0.html")
    assert again["template"]["pages"] == 3 and NOTICE not in again["content"]["text"]
    assert NOTICE in first["content"]["text"]
    assert crawl.site_pages("https://valley.example/") == 4, "a page learned twice counts once"


def test_sites_apart_and_pages_without_a_site():
    crawl = pith.Extractor(site_templates=True)
    for k in range(4):
        crawl.extract(page(k), url=f"https://a.example/{k}")
    other = crawl.extract(page(4), url="https://b.example/4")
    assert other["template"]["pages"] == 0 and NOTICE in other["content"]["text"]
    # No URL, or not http(s): no site, nothing learned, no "template" in the answer.
    for url in (None, "file:///tmp/x.html"):
        alone = crawl.extract(page(4), url=url)
        assert "template" not in alone and NOTICE in alone["content"]["text"]
    assert crawl.sites_learned == 2


def test_extract_many_learns_too():
    crawl = pith.Extractor(site_templates=True)
    urls = [f"https://valley.example/{k}" for k in range(5)]
    crawl.extract_many([page(k) for k in range(5)], urls=urls, jobs=2)
    assert crawl.site_pages(urls[0]) == 5
    late = crawl.extract(page(4), url=urls[4])
    assert late["template"]["pages"] == 4 and NOTICE not in late["content"]["text"]


def test_off_by_default_and_in_the_module_functions():
    plain = pith.Extractor()
    assert not plain.site_templates and plain.sites_learned == 0
    for k in range(4):
        answer = plain.extract(page(k), url=f"https://valley.example/{k}")
        assert "template" not in answer and NOTICE in answer["content"]["text"]
        assert "template" not in pith.extract(page(k), url=f"https://valley.example/{k}")
    assert plain.site_pages("https://valley.example/") == 0
    assert repr(pith.Extractor(site_templates=True)) == "Extractor(models=None, params=None, sites=None, site_templates=True)"
    assert "site_templates" in pith.Extractor.__doc__


def test_refused_pages_teach_nothing():
    crawl = pith.Extractor(site_templates=True)
    with pytest.raises(pith.EmptyInputError):
        crawl.extract(b"", url="https://valley.example/empty")
    assert crawl.sites_learned == 0
