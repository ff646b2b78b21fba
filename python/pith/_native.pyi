"""Types of pith's native module (python/src/). Import them from ``pith``."""

from collections.abc import Iterable, Iterator, Mapping, Sequence
from os import PathLike
from typing import Any, Literal, TypedDict, final

from typing_extensions import NotRequired

Format = Literal["text", "html", "markdown", "explain"]
NoArticleText = Literal["full", "lead"]
Html = bytes | bytearray | str

ALGORITHMS: list[str]
FORMATS: list[str]
VERSION: str

class Content(TypedDict):
    text: str
    html: str
    fingerprint: str
    """64-bit SimHash of the main text as 16 lower-case hex digits, present whatever ``formats`` asks
    for: near-duplicates (a few words changed, other menus) are a few bits apart, unrelated pages about
    32. Recipe (fixed across releases): the text ``content.text`` gives, Unicode NFKC; words as pith
    splits them (letters, digits, marks and ``_``, lower-cased; each Han, kana, Hangul, Thai character a
    word); shingles of 3 consecutive words (fewer words: one shingle); each shingle's words joined by a
    space, UTF-8, hashed with 64-bit FNV-1a then MurmurHash3's fmix64; bit b set when more than half the
    shingles set it. No words: ``"0000000000000000"``."""
    markdown: NotRequired[str]
    explain: NotRequired[str]

class HasArticle(TypedDict):
    probability: float
    is_article: bool
    signals: dict[str, float]

class PageType(TypedDict):
    label: Literal["article", "forum", "product", "collection", "listing", "documentation", "service"]
    probabilities: dict[str, float]

class Extraction(TypedDict):
    """What ``pith extract --format json`` prints for one page."""

    url: str | None
    title: str | None
    lang: str | None
    charset: str
    algorithm: str
    content: Content
    has_article: HasArticle
    page_type: PageType | None
    metadata: dict[str, Any]
    blocks: list[dict[str, Any]]
    template: NotRequired[dict[str, int]]
    timings_ms: dict[str, float]

class ErrorDetail(TypedDict):
    code: str
    message: str

class PageError(TypedDict):
    """``extract_many``'s entry for a page that failed."""

    url: str | None
    error: ErrorDetail

class WarcFailure(TypedDict):
    kind: Literal["too_large", "http", "origin_status"]
    message: str

class WarcRecord(TypedDict):
    url: str | None
    record_id: str | None
    date: str | None
    digest: str | None
    kind: Literal["response", "resource"]
    status: int | None
    content_type: str | None
    charset: str | None
    # None for a record read_warc(failures=True) yields as a failure (its `error` says why).
    html: bytes | None
    error: NotRequired[WarcFailure]

def extract(
    html: Html,
    *,
    url: str | None = None,
    algorithm: str = "auto",
    formats: str | Iterable[Format] | None = ("text",),
    blocks: bool = False,
    charset: str | None = None,
    include_comments: bool | None = None,
    no_article_text: NoArticleText | None = None,
) -> Extraction: ...
def extract_many(
    pages: Iterable[Html],
    *,
    urls: Sequence[str | None] | None = None,
    charsets: Sequence[str | None] | None = None,
    jobs: int | None = None,
    algorithm: str = "auto",
    formats: str | Iterable[Format] | None = ("text",),
    blocks: bool = False,
    charset: str | None = None,
    include_comments: bool | None = None,
    no_article_text: NoArticleText | None = None,
) -> list[Extraction | PageError]: ...
@final
class Extractor:
    def __init__(
        self,
        models: str | PathLike[str] | None = None,
        params: Mapping[str, Mapping[str, Any]] | None = None,
        sites: str | PathLike[str] | None = None,
        site_templates: bool = False,
    ) -> None: ...
    @property
    def site_templates(self) -> bool: ...
    @property
    def sites_learned(self) -> int: ...
    def site_pages(self, url: str) -> int: ...
    def extract(
        self,
        html: Html,
        *,
        url: str | None = None,
        algorithm: str = "auto",
        formats: str | Iterable[Format] | None = ("text",),
        blocks: bool = False,
        charset: str | None = None,
        include_comments: bool | None = None,
        no_article_text: NoArticleText | None = None,
    ) -> Extraction: ...
    def extract_many(
        self,
        pages: Iterable[Html],
        *,
        urls: Sequence[str | None] | None = None,
        charsets: Sequence[str | None] | None = None,
        jobs: int | None = None,
        algorithm: str = "auto",
        formats: str | Iterable[Format] | None = ("text",),
        blocks: bool = False,
        charset: str | None = None,
        include_comments: bool | None = None,
        no_article_text: NoArticleText | None = None,
    ) -> list[Extraction | PageError]: ...

@final
class WarcRecords(Iterator[WarcRecord]):
    def __iter__(self) -> WarcRecords: ...
    def __next__(self) -> WarcRecord: ...
    @property
    def not_html(self) -> int: ...
    @property
    def other_records(self) -> int: ...
    @property
    def not_ok(self) -> int: ...
    @property
    def oversize(self) -> int: ...

def read_warc(
    path: str | PathLike[str], *, max_record_bytes: int = 16777216, failures: bool = False
) -> WarcRecords: ...
