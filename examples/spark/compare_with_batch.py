"""Check the Spark job's Parquet rows against `pith batch`'s JSON Lines for the same archives.

    pith batch --format text --output batch.jsonl a.warc.gz b.warc.gz
    python examples/spark/compare_with_batch.py out.parquet batch.jsonl

Rows are matched by WARC record id. Every column the job writes must equal the field `pith batch`
wrote for the record (text, title, has-article probability, page type, language, published date;
errors as "kind: message"). Exit status 1 and the first differences when they do not.
"""

from __future__ import annotations

import json
import sys

from warc_to_parquet import COLUMNS


def batch_rows(path: str) -> dict[str, dict]:
    """`pith batch`'s lines by record id, in the job's column names."""
    rows = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = json.loads(line)
            record_id = line.get("record_id")
            if "error" in line:
                error = line["error"]
                rows[record_id] = {"url": line.get("uri"), "error": f"{error['kind']}: {error['message']}"}
                continue
            metadata = line.get("metadata") or {}
            rows[record_id] = {
                "url": line.get("url"),
                "title": line.get("title"),
                "text": line["content"]["text"],
                "markdown": line["content"].get("markdown"),
                "has_article": line["has_article"]["probability"],
                "page_type": (line.get("page_type") or {}).get("label"),
                "language": line.get("lang"),
                "published": (metadata.get("published") or {}).get("value"),
                "error": None,
            }
    return rows


def differences(job: dict[str, dict], batch: dict[str, dict]) -> tuple[int, list[str]]:
    """The records compared, and where the job's rows (by record id, in its column names) and `pith
    batch`'s lines differ."""
    found = []
    if set(job) != set(batch):
        found.append(
            f"records only in the job: {sorted(set(job) - set(batch))[:5]}, "
            f"only in batch: {sorted(set(batch) - set(job))[:5]}"
        )
    compared = 0
    for record_id in sorted(set(job) & set(batch)):
        ours, theirs = job[record_id], batch[record_id]
        compared += 1
        for name, _ in COLUMNS:
            if name in theirs and ours[name] != theirs[name]:
                found.append(f"{record_id} {name}: job {str(ours[name])[:80]!r} batch {str(theirs[name])[:80]!r}")
    return compared, found


def main(parquet: str, jsonl: str) -> int:
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.master("local[1]").appName("pith-compare").getOrCreate()
    try:
        job = {r["warc_record_id"]: r.asDict() for r in spark.read.parquet(parquet).collect()}
    finally:
        spark.stop()
    compared, found = differences(job, batch_rows(jsonl))
    print(f"compare_with_batch: {compared} records compared, {len(found)} differences")
    for d in found[:20]:
        print("  " + d)
    return 1 if found or compared == 0 else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
