"""The datatrove step, where datatrove is installed (CI does not install it)."""

from __future__ import annotations

import pickle

import pytest
from conftest import FIXTURES

datatrove = pytest.importorskip("datatrove")

import pith  # noqa: E402
from datatrove.data import Document  # noqa: E402
from pith.integrations.datatrove import Pith  # noqa: E402

ARTICLE = (FIXTURES / "article.html").read_text(encoding="utf-8")
LISTING = (FIXTURES / "listing.html").read_text(encoding="utf-8")
ZH_NEWS = (FIXTURES / "zh-news.html").read_text(encoding="utf-8")


def documents():
    return [
        Document(text=ARTICLE, id="a", metadata={"url": "https://example.com/rice"}),
        Document(text="", id="empty", metadata={}),
        Document(text=LISTING, id="listing", metadata={"url": "https://example.com/"}),
        Document(text=ZH_NEWS, id="zh", metadata={"url": "https://nongpei.example/news/2024/0305.html"}),
    ]


def test_documents_get_pith_text_and_metadata():
    step = Pith(batch_size=3, jobs=2)
    out = list(step(documents()))
    assert [d.id for d in out] == ["a", "listing", "zh"]
    assert out[0].text == pith.extract(ARTICLE, url="https://example.com/rice")["content"]["text"]
    assert out[0].metadata["page_type"] == "article" and out[0].metadata["has_article"] > 0.5
    assert out[0].metadata["url"] == "https://example.com/rice"
    assert out[2].metadata["published"] == "2024-03-05" and out[2].metadata["lang"] == "zh-CN"
    stats = step.stats
    assert stats["total"].total == 4 and stats["clean_error"].total == 1 and stats["error_empty-input"].total == 1
    assert stats["forwarded"].total == 3


def test_markdown_and_article_filter():
    step = Pith(output="markdown", min_article_probability=0.5)
    out = list(step(documents()))
    assert "listing" not in [d.id for d in out]
    assert out[-1].text.startswith("# 水稻育秧技术培训班结业")
    assert step.stats["not_article"].total >= 1


def test_the_step_pickles_for_datatrove_workers_and_extracts_one():
    step = Pith()
    assert step.extract(ARTICLE).startswith("Farmers learn new rice methods")
    copy = pickle.loads(pickle.dumps(step))
    assert copy.extract(ARTICLE) == step.extract(ARTICLE)
    with pytest.raises(pith.InvalidArgumentError):
        Pith(output="pdf")
