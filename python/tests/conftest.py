"""What the Python package's tests share: where the repository, the `pith` binary and the datasets
are, and a small, fixed sample of dataset pages.

The datasets live beside the repository (`../shared/datasets`, see its README.md); the binary is the
release build of the same checkout (`target/release/pith`, or `PITH_BIN`) as `cargo test --release`
builds it, from the same crates with the same features as the package (python/Cargo.toml says why).
Without them the tests that need them are skipped on a developer's machine, and fail when `CI` is set: a CI run must not
pass by skipping its comparison with the CLI.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DATASETS = REPO.parent / "shared" / "datasets"
FIXTURES = REPO / "tests" / "fixtures" / "pages"

# Pages per dataset in the sample the CI run compares with the CLI: 40 in all, English and Chinese,
# old and modern, zh-cwce's GB2312/GBK pages among them.
SAMPLE = {
    "wcxb-dev": 10,
    "cleaneval": 5,
    "trafbench-dev": 5,
    "readability-tests": 4,
    "l3s-gn1": 4,
    "zh-cwce": 8,
    "zh-gne": 4,
}


@dataclass(frozen=True)
class DatasetPage:
    dataset: str
    id: str
    url: str | None
    html: bytes

    @property
    def name(self) -> str:
        return f"{self.dataset}/{self.id}"


def missing(what: str) -> None:
    """Skip the test, or fail it under CI."""
    if os.environ.get("CI"):
        pytest.fail(f"{what} (CI is set, so this is a failure, not a skip)")
    pytest.skip(what)


def dataset_pages(name: str, limit: int | None = None, root: Path = DATASETS) -> list[DatasetPage]:
    """A dataset's pages in file order; with `limit`, that many spread evenly over the set."""
    folder = root / name
    lines = (folder / "pages.jsonl").read_text(encoding="utf-8").split("\n")
    rows = [json.loads(line) for line in lines if line.strip()]
    if limit is not None and limit < len(rows):
        step = len(rows) / limit
        rows = [rows[int(k * step)] for k in range(limit)]
    return [
        DatasetPage(name, row["id"], row.get("url"), gzip.decompress((folder / "html" / f"{row['id']}.html.gz").read_bytes()))
        for row in rows
    ]


@pytest.fixture(scope="session")
def sample_pages() -> list[DatasetPage]:
    if not DATASETS.is_dir():
        missing(f"no datasets at {DATASETS}")
    pages = [page for name, n in SAMPLE.items() for page in dataset_pages(name, n)]
    assert len(pages) == sum(SAMPLE.values())
    return pages


def pith_binary() -> Path:
    return Path(os.environ.get("PITH_BIN", REPO / "target" / "release" / "pith"))


@pytest.fixture(scope="session")
def cli() -> Path:
    binary = pith_binary()
    if not binary.is_file():
        missing(f"no pith binary at {binary} (cargo build --release)")
    return binary


def cli_environment() -> dict[str, str]:
    """The environment without `PITH_*` settings: the package's default engine reads none."""
    return {k: v for k, v in os.environ.items() if not k.startswith("PITH_")}


def run_cli(binary: Path, args: list[str], stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    """`pith <args> -` with the page on standard input."""
    return subprocess.run(
        [str(binary), *args, "-"], input=stdin, capture_output=True, env=cli_environment(), timeout=120
    )


def cli_extract(binary: Path, html: bytes, url: str | None = None) -> dict:
    """What `pith extract --format json` prints for a page."""
    args = ["extract", "--format", "json"] + (["--url", url] if url is not None else [])
    done = run_cli(binary, args, html)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    return json.loads(done.stdout)


def without_timings(result: dict) -> dict:
    return {k: v for k, v in result.items() if k != "timings_ms"}


def canonical(result: dict) -> str:
    """A result as one string, timings left out: equal strings mean equal keys and values, floats to
    the last bit (both sides parse the same shortest decimal form)."""
    return json.dumps(without_timings(result), sort_keys=True, ensure_ascii=False)
