"""The Spark example's rows (examples/spark/warc_to_parquet.py, without Spark: its per-archive
function) equal `pith batch`'s lines on an archive with pages and with the records batch reports as
failures: a 404, a response without an HTTP answer, one over the size limit. `.ci/run` checks the
same through Spark on the datasets."""

from __future__ import annotations

import subprocess
import sys

from conftest import REPO, cli_environment
from test_warc import RECORDS, record

sys.path.insert(0, str(REPO / "examples" / "spark"))

from compare_with_batch import batch_rows, differences  # noqa: E402
from warc_to_parquet import COLUMNS, extract_file  # noqa: E402

NO_RESPONSE = record("response", "https://none.example/", b"<html>no status line</html>\r\n\r\n", "none")


def test_rows_equal_batch_lines(cli, tmp_path):
    archive = tmp_path / "crawl.warc"
    archive.write_bytes(b"".join(RECORDS) + NO_RESPONSE)
    lines = tmp_path / "batch.jsonl"
    done = subprocess.run(
        [str(cli), "batch", "--format", "text", "--max-record-bytes", "4096", "--output", str(lines), str(archive)],
        capture_output=True, env=cli_environment(), timeout=120,
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    names = [name for name, _ in COLUMNS]
    job = {row[2]: dict(zip(names, row)) for row in extract_file(str(archive), False, max_record_bytes=4096)}
    compared, found = differences(job, batch_rows(str(lines)))
    assert not found, found
    assert compared == 8
    errors = sorted(row["error"].split(":")[0] for row in job.values() if row["error"])
    assert errors == ["http", "origin_status", "too_large"]
