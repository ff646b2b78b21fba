"""Every page of every dataset through the package and through `pith extract --format json`: the
answers must be the same, timings aside (a page the CLI refuses must fail with the same message).

    python python/tests/compare_all.py [--datasets ../shared/datasets] [--pith target/release/pith] [--jobs 2]

Too slow for every CI run (one CLI process per page: about 3,600); the pytest run compares a sample
(test_cli_parity.py). Prints one line per dataset and the pages that differ; exits 1 if any does.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from conftest import DATASETS, DatasetPage, canonical, dataset_pages, pith_binary, run_cli  # noqa: E402

import pith  # noqa: E402

CLI_ARGS = ["extract", "--format", "json"]


def cli_answer(binary: Path, page: DatasetPage) -> str:
    """The CLI's answer as a canonical string, or `error: <message>` when it refused the page."""
    done = run_cli(binary, CLI_ARGS + (["--url", page.url] if page.url is not None else []), page.html)
    if done.returncode == 0:
        return canonical(json.loads(done.stdout))
    message = done.stderr.decode(errors="replace").strip()
    return "error: " + message.removeprefix("pith: ")


def package_answers(pages: list[DatasetPage]) -> list[str]:
    results = pith.extract_many(
        [p.html for p in pages], urls=[p.url for p in pages], formats=("text", "html"), blocks=True
    )
    return ["error: " + r["error"]["message"] if "error" in r else canonical(r) for r in results]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", type=Path, default=DATASETS)
    parser.add_argument("--pith", type=Path, default=pith_binary())
    parser.add_argument("--jobs", type=int, default=2, help="CLI processes at once")
    args = parser.parse_args()
    names = sorted(d.name for d in args.datasets.iterdir() if (d / "pages.jsonl").is_file())
    started = time.monotonic()
    total, differing = 0, []
    for name in names:
        pages = dataset_pages(name, root=args.datasets)
        ours = package_answers(pages)
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            theirs = list(pool.map(lambda p: cli_answer(args.pith, p), pages))
        bad = [p.name for p, a, b in zip(pages, ours, theirs) if a != b]
        refused = sum(a.startswith("error: ") for a in theirs)
        print(f"{name:20} {len(pages):5} pages, {refused:3} refused by the CLI, {len(bad):3} differ", flush=True)
        total += len(pages)
        differing += bad
    print(f"{total} pages compared in {time.monotonic() - started:.0f} s; {len(differing)} differ")
    for page in differing:
        print("  differs:", page)
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
