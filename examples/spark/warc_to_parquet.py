"""Extract the main content of every HTML response in crawl archives with pith, on Spark.

One Spark task per WARC / WARC.gz file: the task streams the file's records through pith's own
reader (``pith.read_warc``), extracts each HTML page with one ``pith.Extractor`` (models loaded once
per task, not per page), and yields one row per record. The rows are written as Parquet.

Local run (a PySpark from PyPI and a Java runtime are all it needs)::

    python examples/spark/warc_to_parquet.py --master 'local[2]' --output out.parquet a.warc.gz b.warc.gz

On a cluster, submit the same file with ``spark-submit`` (examples/spark/README.md). Scaling comes
from the number of files: a file is read by one task from start to end, as archives are
written (gzip members cannot be split without an index), so give a job at least as many files as it
has cores.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Iterator

# Column order of the output; `error` is set (and the content columns null) for a record pith could
# not extract, so that a bad page costs one row, not the task: "kind: message", as `pith batch`'s error
# line has them (`origin_status`, `too_large` and `http` for responses pith cannot use, `extract` for a
# page the extraction refused).
COLUMNS = (
    ("warc_file", "string"),
    ("url", "string"),
    ("warc_record_id", "string"),
    ("title", "string"),
    ("text", "string"),
    ("markdown", "string"),
    ("has_article", "double"),
    ("page_type", "string"),
    ("language", "string"),
    ("published", "string"),
    ("error", "string"),
)


def schema():
    from pyspark.sql import types as T

    kinds = {"string": T.StringType(), "double": T.DoubleType()}
    return T.StructType([T.StructField(name, kinds[kind], True) for name, kind in COLUMNS])


def extract_file(path: str, markdown: bool, max_record_bytes: int | None = None) -> Iterator[tuple]:
    """Every HTML record of one archive as an output row, streamed (one record in memory at a time),
    and a row for every record `pith batch` reports as a failure."""
    import pith

    extractor = pith.Extractor()
    formats = ("text", "markdown") if markdown else ("text",)
    limit = {} if max_record_bytes is None else {"max_record_bytes": max_record_bytes}
    for record in pith.read_warc(path, failures=True, **limit):
        url = record.get("url")
        record_id = record.get("record_id")
        if "error" in record:
            error = record["error"]
            yield failed(path, url, record_id, f"{error['kind']}: {error['message']}")
            continue
        try:
            result = extractor.extract(record["html"], url=url, charset=record.get("charset"), formats=formats)
        except pith.PithError as e:
            yield failed(path, url, record_id, f"extract: {e}")
            continue
        yield row(path, url, record_id, result)


def failed(path: str, url, record_id, error: str) -> tuple:
    """The row of a record without a result: its names and the error, the other columns null."""
    return (path, url, record_id, None, None, None, None, None, None, None, error)


def row(path: str, url, record_id, result: dict) -> tuple:
    """One output row from the object `pith.extract` returns (the same object `pith batch` writes)."""
    metadata = result.get("metadata") or {}
    published = metadata.get("published") or {}
    page_type = result.get("page_type") or {}
    return (
        path,
        url,
        record_id,
        result.get("title"),
        result["content"]["text"],
        result["content"].get("markdown"),
        result["has_article"]["probability"],
        page_type.get("label"),
        result.get("lang"),
        published.get("value"),
        None,
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("archives", nargs="+", help="WARC or WARC.gz files (paths every executor can read)")
    parser.add_argument("--output", required=True, help="Parquet directory to write")
    parser.add_argument("--master", help="Spark master, e.g. local[2] (default: what spark-submit sets)")
    parser.add_argument("--markdown", action="store_true", help="also write the content as Markdown")
    parser.add_argument(
        "--max-record-bytes", type=int, help="records larger than this are error rows (default: pith batch's)"
    )
    parser.add_argument("--mode", default="errorifexists", help="Parquet save mode (overwrite, append, ...)")
    args = parser.parse_args(argv)

    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("pith-warc-to-parquet").config("spark.ui.showConsoleProgress", "false")
    if args.master:
        builder = builder.master(args.master)
    if (args.master or "").startswith("local"):
        # Local workers are this machine's processes: run them with this interpreter (the one that
        # has the package), not whatever `python3` PATH finds first.
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = builder.getOrCreate()
    try:
        files = spark.sparkContext.parallelize(args.archives, numSlices=len(args.archives))
        markdown, limit = args.markdown, args.max_record_bytes
        rows = files.flatMap(lambda path: extract_file(path, markdown, limit))
        started = time.monotonic()
        spark.createDataFrame(rows, schema()).write.mode(args.mode).parquet(args.output)
        seconds = time.monotonic() - started
        written = spark.read.parquet(args.output).count()
        print(
            f"warc_to_parquet: {written} rows from {len(args.archives)} archives in {seconds:.1f} s "
            f"({written / max(seconds, 1e-9):.1f} pages/s, {spark.sparkContext.master})",
            file=sys.stderr,
        )
    finally:
        spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
