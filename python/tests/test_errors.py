"""Errors: one `PithError` base, a class and a `code` per error, the CLI's message; in a batch, one
failed page is an entry, not an exception."""

from __future__ import annotations

import pytest
from conftest import FIXTURES, run_cli

import pith

ARTICLE = (FIXTURES / "article.html").read_bytes()
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4


@pytest.mark.parametrize(
    ("call", "cls", "code"),
    [
        (lambda: pith.extract(b""), pith.EmptyInputError, "empty-input"),
        (lambda: pith.extract(""), pith.EmptyInputError, "empty-input"),
        (lambda: pith.extract(PNG), pith.BinaryInputError, "binary-input"),
        (lambda: pith.extract(ARTICLE, charset="klingon"), pith.UnknownCharsetError, "unknown-charset"),
        (lambda: pith.extract(ARTICLE, algorithm="magic"), pith.UnknownAlgorithmError, "unknown-algorithm"),
        (lambda: pith.extract(ARTICLE, formats=("text", "pdf")), pith.UnknownFormatError, "bad-formats"),
        (lambda: pith.extract(ARTICLE, formats=[1]), pith.UnknownFormatError, "bad-formats"),
        (lambda: pith.extract(ARTICLE, formats=3), pith.UnknownFormatError, "bad-formats"),
        (lambda: pith.extract(ARTICLE, no_article_text="some"), pith.InvalidArgumentError, "invalid-argument"),
        (lambda: pith.extract(ARTICLE, algorithm="vips"), pith.NeedsRenderError, "needs-render"),
        (lambda: pith.extract_many([ARTICLE], jobs=0), pith.InvalidArgumentError, "invalid-argument"),
        (lambda: pith.extract_many([ARTICLE], urls=["a", "b"]), pith.InvalidArgumentError, "invalid-argument"),
        (lambda: pith.extract_many([ARTICLE], charsets=["gbk"], charset="gbk"), pith.InvalidArgumentError, "invalid-argument"),
        (lambda: pith.extract_many([ARTICLE], algorithm="magic"), pith.UnknownAlgorithmError, "unknown-algorithm"),
    ],
)
def test_each_error_has_its_class_and_code(call, cls, code):
    with pytest.raises(cls) as caught:
        call()
    error = caught.value
    assert isinstance(error, pith.PithError)
    assert error.code == code and type(error).code == code
    assert str(error) == error.message and error.message


def test_argument_errors_are_value_errors():
    for call in (lambda: pith.extract(b""), lambda: pith.extract(ARTICLE, algorithm="x"), lambda: pith.extract(ARTICLE, formats="pdf")):
        with pytest.raises(ValueError):
            call()


def test_not_a_page_is_a_type_error():
    with pytest.raises(TypeError, match="bytes or str"):
        pith.extract(42)
    with pytest.raises(TypeError):
        pith.extract_many([ARTICLE, None])
    with pytest.raises(TypeError, match="iterable of pages"):
        pith.extract_many(ARTICLE)


def test_messages_are_the_clis(cli, tmp_path):
    cases = [
        ([], b"", pith.EmptyInputError, {}),
        ([], PNG, pith.BinaryInputError, {}),
        (["--charset", "klingon"], ARTICLE, pith.UnknownCharsetError, {"charset": "klingon"}),
    ]
    for args, page, cls, keywords in cases:
        done = run_cli(cli, ["extract", *args], page)
        assert done.returncode == 2
        printed = done.stderr.decode().strip()
        with pytest.raises(cls) as caught:
            pith.extract(page, **keywords)
        assert printed == f"pith: {caught.value}"
    # clap checks --algorithm itself, and the CLI renders for vips where a browser is installed; the
    # library's messages for those are the service's.
    with pytest.raises(pith.UnknownAlgorithmError, match='unknown algorithm "magic"; known: .*auto'):
        pith.extract(ARTICLE, algorithm="magic")


def test_a_bad_page_in_a_batch_is_an_entry():
    results = pith.extract_many([ARTICLE, b"", PNG, "   ", ARTICLE], urls=["https://a.example/", "https://b.example/", None, None, None])
    assert [("error" in r) for r in results] == [False, True, True, True, False]
    assert results[1] == {
        "url": "https://b.example/",
        "error": {"code": "empty-input", "message": "empty input: there is nothing to extract"},
    }
    assert results[2]["error"]["code"] == "binary-input" and results[2]["url"] is None
    assert results[3]["error"]["code"] == "empty-input"
    assert results[0]["content"]["text"] == results[4]["content"]["text"] != ""


def test_error_for_unknown_codes_keeps_the_code():
    error = pith.errors.error_for("layout-mismatch", "the layout does not belong to this page")
    assert type(error) is pith.PithError and error.code == "layout-mismatch"
    assert isinstance(pith.errors.error_for("warc", "x"), OSError)
