"""`pith.extract` and `pith.Extractor`: inputs, formats, options, engines, documentation."""

from __future__ import annotations

import doctest
import inspect
import pickle

import pytest
from conftest import FIXTURES, canonical

import pith

ARTICLE = (FIXTURES / "article.html").read_bytes()
LISTING = (FIXTURES / "listing.html").read_bytes()
ZH_NEWS = (FIXTURES / "zh-news.html").read_bytes()


def test_extracts_the_article_text():
    result = pith.extract(ARTICLE)
    assert result["content"]["text"].startswith("Farmers learn new rice methods")
    assert result["has_article"]["is_article"] is True
    assert result["page_type"]["label"] == "article"
    assert result["algorithm"] == "auto"
    assert result["blocks"] == []
    assert result["content"]["html"] == ""
    assert "markdown" not in result["content"]


def test_formats_fill_their_content():
    result = pith.extract(ZH_NEWS, url="https://nongpei.example/news/2024/0305.html", formats=["markdown", "html", "explain"])
    content = result["content"]
    assert content["text"] == ""
    assert content["markdown"].startswith("# 水稻育秧技术培训班结业")
    assert "[育秧](https://nongpei.example/rice/seedlings)" in content["markdown"]
    assert content["html"].startswith("<")
    assert content["explain"].lstrip().lower().startswith("<!doctype html")
    assert pith.extract(ZH_NEWS, formats="text,markdown")["content"].keys() >= {"text", "markdown"}


def test_no_formats_gives_the_verdicts_alone():
    result = pith.extract(ARTICLE, formats=())
    assert result["content"]["text"] == "" and result["content"]["html"] == ""
    assert result["has_article"]["probability"] == pith.extract(ARTICLE)["has_article"]["probability"]
    assert result["metadata"]["title"]


def test_every_result_has_the_texts_fingerprint():
    # 16 lower-case hex digits, the same whatever formats are asked for, and the CLI's.
    fingerprint = pith.extract(ARTICLE)["content"]["fingerprint"]
    assert len(fingerprint) == 16 and all(c in "0123456789abcdef" for c in fingerprint)
    assert pith.extract(ARTICLE, formats=())["content"]["fingerprint"] == fingerprint
    assert pith.extract(ARTICLE, formats=("html", "markdown"))["content"]["fingerprint"] == fingerprint
    assert pith.extract(LISTING)["content"]["fingerprint"] != fingerprint


def test_str_is_read_as_utf8_and_equals_its_utf8_bytes():
    text = ZH_NEWS.decode("utf-8")
    from_str = pith.extract(text, formats=("text", "html"), blocks=True)
    from_bytes = pith.extract(ZH_NEWS, formats=("text", "html"), blocks=True, charset="utf-8")
    assert canonical(from_str) == canonical(from_bytes)
    assert from_str["charset"] == "UTF-8"
    assert pith.extract(bytearray(ZH_NEWS))["content"]["text"] == from_bytes["content"]["text"]


def test_bytes_go_through_charset_detection():
    gbk = ZH_NEWS.decode("utf-8").replace('charset="utf-8"', "").replace("charset=utf-8", "").encode("gbk")
    detected = pith.extract(gbk)
    assert detected["charset"].upper() in {"GBK", "GB18030"}
    assert detected["content"]["text"] == pith.extract(ZH_NEWS)["content"]["text"]
    assert pith.extract(gbk, charset="gbk")["content"]["text"] == detected["content"]["text"]


def test_url_and_blocks():
    result = pith.extract(ARTICLE, url="https://example.com/rice", blocks=True)
    assert result["url"] == "https://example.com/rice"
    assert result["blocks"] and {"id", "path", "tag", "scores", "content"} <= result["blocks"][0].keys()


def test_other_algorithms():
    for name in ("cetd-ds", "p-value", "line-density"):
        result = pith.extract(ARTICLE, algorithm=name)
        assert result["algorithm"] == name and result["page_type"] is None
    assert "auto" in pith.ALGORITHMS and pith.FORMATS == ["text", "html", "markdown", "explain"]


def test_no_article_text_per_call_and_by_params():
    full = pith.extract(LISTING)["content"]["text"]
    lead = pith.extract(LISTING, no_article_text="lead")["content"]["text"]
    assert len(lead) < len(full)
    by_params = pith.Extractor(params={"auto": {"no_article_text": "lead"}})
    assert by_params.extract(LISTING)["content"]["text"] == lead
    # The call's argument wins over the engine's setting.
    assert by_params.extract(LISTING, no_article_text="full")["content"]["text"] == full


def test_extractor_with_defaults_equals_the_module_functions():
    engine = pith.Extractor()
    assert canonical(engine.extract(ARTICLE, blocks=True)) == canonical(pith.extract(ARTICLE, blocks=True))
    assert [r["content"]["text"] for r in engine.extract_many([ARTICLE, LISTING])] == [
        pith.extract(ARTICLE)["content"]["text"],
        pith.extract(LISTING)["content"]["text"],
    ]
    assert repr(engine) == "Extractor(models=None, params=None, sites=None)"


def test_params_are_checked_by_key():
    with pytest.raises(pith.ConfigError, match="no_such_key") as caught:
        pith.Extractor(params={"auto": {"no_such_key": 1}})
    assert caught.value.code == "config"
    with pytest.raises(pith.ConfigError):
        pith.Extractor(params={"auto": {"block_threshold": "high"}})
    with pytest.raises(pith.ConfigError):
        pith.Extractor(params=[1, 2])
    strict = pith.Extractor(params={"auto": {"block_threshold": 0.99}})
    assert len(strict.extract(ARTICLE)["content"]["text"]) <= len(pith.extract(ARTICLE)["content"]["text"])


def test_models_directory_must_exist(tmp_path):
    with pytest.raises(pith.ConfigError, match="not a directory"):
        pith.Extractor(models=tmp_path / "missing")
    # An empty directory keeps every embedded model.
    assert pith.Extractor(models=tmp_path).extract(ARTICLE)["content"]["text"] == pith.extract(ARTICLE)["content"]["text"]


def test_help_is_enough_to_use_it():
    doc = pith.extract.__doc__
    for word in ("html", "url", "algorithm", "formats", "blocks", "charset", "include_comments", "no_article_text",
                 "has_article", "page_type", "metadata", "PithError", "Example"):
        assert word in doc, word
    signature = inspect.signature(pith.extract)
    assert list(signature.parameters)[:3] == ["html", "url", "algorithm"]
    assert "formats=('text',)" in pith.extract.__text_signature__
    for word in ("urls", "jobs", "error", "order"):
        assert word in pith.extract_many.__doc__, word
    assert "models" in pith.Extractor.__doc__ and "params" in pith.Extractor.__doc__
    assert "record_id" in pith.read_warc.__doc__


def test_the_docstring_example_runs():
    examples = doctest.DocTestParser().get_doctest(pith.extract.__doc__, {"pith": pith}, "pith.extract", None, 0)
    assert len(examples.examples) == 5
    runner = doctest.DocTestRunner()
    runner.run(examples)
    assert runner.summarize(verbose=False).failed == 0


def test_extractor_is_not_picklable_but_says_so():
    with pytest.raises(TypeError):
        pickle.dumps(pith.Extractor())
