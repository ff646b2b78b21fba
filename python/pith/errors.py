"""The exceptions pith raises: one base, ``PithError``, and a subclass per error code.

Every exception's message is what ``pith extract`` prints after ``pith: `` for the same error, and its
``code`` is the stable machine-readable code of ``pith::Error::code()`` (the service's problem
``type``): ``"empty-input"``, ``"unknown-charset"``... Errors about an argument also derive from
``ValueError``, errors about files from ``OSError``, so ``except ValueError`` keeps working for code
that does not know pith.

``extract_many`` does not raise for a page that fails: that page's entry is
``{"url": ..., "error": {"code": ..., "message": ...}}`` with the same code and message.
"""

from __future__ import annotations

__all__ = [
    "PithError",
    "EmptyInputError",
    "BinaryInputError",
    "InputTooLargeError",
    "UnknownCharsetError",
    "UnknownAlgorithmError",
    "UnknownFormatError",
    "InvalidArgumentError",
    "NoTemplateError",
    "NeedsRenderError",
    "PageTooComplexError",
    "ConfigError",
    "PithIOError",
    "WarcError",
    "InternalError",
    "error_for",
]


class PithError(Exception):
    """Anything pith could not do. ``code`` says what, in the words of ``pith::Error::code()``."""

    code: str = "error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        """The message, as ``pith extract`` prints it after ``pith: ``."""
        return str(self.args[0]) if self.args else ""


class EmptyInputError(PithError, ValueError):
    """The page had no bytes at all."""

    code = "empty-input"


class BinaryInputError(PithError, ValueError):
    """The page looks like a binary file (an image, a PDF, an archive), not HTML or text."""

    code = "binary-input"


class InputTooLargeError(PithError, ValueError):
    """The page is larger than the engine's input limit."""

    code = "too-large"


class UnknownCharsetError(PithError, ValueError):
    """``charset`` is not a label pith's decoder knows (WHATWG Encoding labels: ``"gbk"``, ``"latin1"``...)."""

    code = "unknown-charset"


class UnknownAlgorithmError(PithError, ValueError):
    """``algorithm`` is not one of ``pith.ALGORITHMS``; the message lists them."""

    code = "unknown-algorithm"


class InvalidArgumentError(PithError, ValueError):
    """A keyword argument has a value no call can use (``no_article_text``, ``jobs``, per-page lists
    of the wrong length)."""

    code = "invalid-argument"


class UnknownFormatError(InvalidArgumentError):
    """``formats`` names something other than ``"text"``, ``"html"``, ``"markdown"``, ``"explain"``.
    The code is the service's problem type for the same mistake."""

    code = "bad-formats"


class NoTemplateError(PithError):
    """``algorithm="template"`` was asked for, and no site rule matches the page."""

    code = "no-template"


class NeedsRenderError(PithError):
    """The algorithm reads the page's layout (``vips``, ``cehtd-ds``), which needs a browser: use the
    service or ``pith extract --render`` for those."""

    code = "needs-render"


class PageTooComplexError(PithError):
    """The page would cost more than the work budget allows (too many elements or nodes); it is
    refused before the work is done."""

    code = "page-too-complex"


class ConfigError(PithError):
    """An ``Extractor``'s models, site rules or ``params`` could not be read or are invalid."""

    code = "config"


class PithIOError(PithError, OSError):
    """Reading a file failed."""

    code = "io"


class WarcError(PithError, OSError):
    """A WARC archive could not be opened, or is cut short or malformed past the records read."""

    code = "warc"


class InternalError(PithError):
    """A bug in pith (a panic, caught before it reached Python). Please report it with the page."""

    code = "panic"


_BY_CODE: dict[str, type[PithError]] = {
    cls.code: cls
    for cls in (
        EmptyInputError,
        BinaryInputError,
        InputTooLargeError,
        UnknownCharsetError,
        UnknownAlgorithmError,
        InvalidArgumentError,
        UnknownFormatError,
        NoTemplateError,
        NeedsRenderError,
        PageTooComplexError,
        ConfigError,
        PithIOError,
        WarcError,
        InternalError,
    )
}


def error_for(code: str, message: str) -> PithError:
    """The exception for an error code: its class, or ``PithError`` with that ``code`` for a code this
    version has no class for (``render``, ``layout-mismatch``: rendering is not available here)."""
    cls = _BY_CODE.get(code)
    return cls(message) if cls is not None else PithError(message, code)
