"""pith: the main content of web pages, from Python.

    >>> import pith
    >>> result = pith.extract(html_bytes, url="https://example.com/a", formats=("text", "markdown"))
    >>> result["content"]["text"], result["has_article"]["probability"], result["page_type"]["label"]

``extract`` answers one page, ``extract_many`` many on all cores, ``Extractor`` holds an engine with
other models or parameters, ``read_warc`` reads a crawl archive's HTML pages. Results are the dicts
``pith extract --format json`` prints. Errors are ``PithError`` subclasses (``pith.errors``).
``help(pith.extract)`` documents every argument and key.
"""

from __future__ import annotations

from pith._native import (
    ALGORITHMS,
    FORMATS,
    VERSION,
    Extractor,
    WarcRecords,
    extract,
    extract_many,
    read_warc,
)
from pith.errors import (
    BinaryInputError,
    ConfigError,
    EmptyInputError,
    InputTooLargeError,
    InternalError,
    InvalidArgumentError,
    NeedsRenderError,
    NoTemplateError,
    PageTooComplexError,
    PithError,
    PithIOError,
    UnknownAlgorithmError,
    UnknownCharsetError,
    UnknownFormatError,
    WarcError,
)

__version__ = VERSION

__all__ = [
    "ALGORITHMS",
    "FORMATS",
    "Extractor",
    "WarcRecords",
    "extract",
    "extract_many",
    "read_warc",
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
]
