"""pith as a datatrove pipeline step: ``Pith`` takes the place of datatrove's ``Trafilatura`` extractor.

    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.readers import WarcReader
    from datatrove.pipeline.writers import JsonlWriter
    from pith.integrations.datatrove import Pith

    LocalPipelineExecutor(pipeline=[
        WarcReader("crawl/", glob_pattern="*.warc.gz"),
        Pith(min_article_probability=0.5),
        JsonlWriter("out/"),
    ], tasks=4).run()

Each document's ``text`` (the page's HTML, as datatrove's readers give it) becomes the extracted text
(or Markdown), and its ``metadata`` gains what pith says about the page: ``has_article`` (the
probability), ``page_type``, ``title``, ``lang`` and ``published`` (an ISO date or None). The page's
``metadata["url"]``, which datatrove's WARC reader sets, is passed to pith.

It is a ``BaseExtractor``, so it fits where datatrove expects one, but it does not run each document
in a sandbox process with a timeout the way the base class does for Python extractors: pith bounds
its own work per page (a page over its complexity budget is refused, not stalled on), releases the
GIL, and turns a panic into an error, so documents are extracted in batches with ``extract_many`` on
``jobs`` threads. A document pith cannot extract (empty, binary, too complex) is dropped and counted
under ``clean_error`` and ``error_<code>``; one with no text left is dropped as ``dropped``.

Needs datatrove (``pip install datatrove``); importing this module without it raises ImportError.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from datatrove.data import Document, DocumentsPipeline
from datatrove.pipeline.extractors.base import BaseExtractor
from datatrove.utils.typeshelper import StatHints

import pith

__all__ = ["Pith"]


class Pith(BaseExtractor):
    """Extract the main content of each document's HTML with pith.

    Args:
        output: what replaces the HTML: ``"text"`` or ``"markdown"``.
        algorithm: pith's algorithm (``"auto"``, the default pipeline; see ``pith.ALGORITHMS``).
        min_article_probability: drop documents whose has-article probability is below this (counted
            as ``not_article``); None keeps every page type (listings, forums, products...).
        include_comments: keep reader comments in the text.
        no_article_text: ``"lead"`` keeps only a short lead of pages that are not articles;
            ``"full"`` (the default) their whole main content.
        params: algorithm parameters over pith's defaults, as for ``pith.Extractor``.
        models: a directory of trained models, as for ``pith.Extractor``.
        batch_size: documents extracted together (one ``extract_many`` call).
        jobs: threads per batch (default: the number of CPUs). With several datatrove tasks on one
            machine, set it so that tasks × jobs is about the number of cores.
    """

    name = "🍊 pith"
    _requires_dependencies: list[str] = []

    def __init__(
        self,
        output: str = "text",
        algorithm: str = "auto",
        min_article_probability: float | None = None,
        include_comments: bool = False,
        no_article_text: str | None = None,
        params: Mapping[str, Mapping[str, Any]] | None = None,
        models: str | None = None,
        batch_size: int = 64,
        jobs: int | None = None,
    ) -> None:
        super().__init__()
        if output not in ("text", "markdown"):
            raise pith.InvalidArgumentError(f'output must be "text" or "markdown", not {output!r}')
        if batch_size < 1:
            raise pith.InvalidArgumentError(f"batch_size must be at least 1, not {batch_size}")
        self.output = output
        self.algorithm = algorithm
        self.min_article_probability = min_article_probability
        self.include_comments = include_comments
        self.no_article_text = no_article_text
        self.params = dict(params) if params is not None else None
        self.models = models
        self.batch_size = batch_size
        self.jobs = jobs
        self._engine: pith.Extractor | None = None

    def __getstate__(self) -> dict[str, Any]:
        # datatrove ships steps to worker processes by pickling them; the engine is native and is
        # built again where it is used.
        state = self.__dict__.copy()
        state["_engine"] = None
        return state

    @property
    def engine(self) -> pith.Extractor:
        """The engine, built on first use (in the process that runs the step)."""
        if self._engine is None:
            self._engine = pith.Extractor(models=self.models, params=self.params)
        return self._engine

    def _keywords(self) -> dict[str, Any]:
        return {
            "algorithm": self.algorithm,
            "formats": (self.output,),
            "include_comments": self.include_comments,
            "no_article_text": self.no_article_text,
        }

    def extract(self, text: str) -> str:
        """The extracted text (or Markdown) of one page's HTML; raises ``pith.PithError``."""
        return self.engine.extract(text, **self._keywords())["content"][self.output]

    def run(self, data: DocumentsPipeline, rank: int = 0, world_size: int = 1) -> DocumentsPipeline:
        """Extract the documents in batches; yield those with text left, metadata added."""
        if data is None:
            return
        for batch in _batches(data, self.batch_size):
            with self.track_time(unit="batch"):
                results = self.engine.extract_many(
                    [doc.text for doc in batch],
                    urls=[_url(doc) for doc in batch],
                    jobs=self.jobs,
                    **self._keywords(),
                )
            for doc, result in zip(batch, results):
                if self._take(doc, result):
                    yield doc

    def _take(self, doc: Document, result: Mapping[str, Any]) -> bool:
        """Put one result into its document; whether the document goes on down the pipeline."""
        self.stat_update(StatHints.total)
        if "error" in result:
            self.stat_update("clean_error", f"error_{result['error']['code']}")
            return False
        self.stat_update("extracted")
        probability = result["has_article"]["probability"]
        if self.min_article_probability is not None and probability < self.min_article_probability:
            self.stat_update("not_article", StatHints.dropped)
            return False
        doc.text = result["content"][self.output]
        if not doc.text:
            self.stat_update(StatHints.dropped)
            return False
        published = (result.get("metadata") or {}).get("published")
        doc.metadata.update(
            {
                "has_article": probability,
                "page_type": (result.get("page_type") or {}).get("label"),
                "title": result.get("title"),
                "lang": result.get("lang"),
                "published": published.get("value") if published else None,
            }
        )
        self.stat_update(StatHints.forwarded)
        self.update_doc_stats(doc)
        return True


def _url(doc: Document) -> str | None:
    url = doc.metadata.get("url")
    return url if isinstance(url, str) and url else None


def _batches(docs: Iterable[Document], size: int) -> Iterator[list[Document]]:
    batch: list[Document] = []
    for doc in docs:
        batch.append(doc)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch
