"""The Python package's speed on a dataset: extract_many on threads against a loop of extract, and the
cost of the Python call against `pith bench`'s time for `auto` on the same pages.

    python3 scripts/python-speed.py [--dataset ../shared/datasets/wcxb-dev] [--pith target/release/pith]
                                    [--jobs 2] [--rounds 3] [--repeats 5]

Needs the package installed (pip install ./python). Three parts, printed as they finish:

1. pages/s of `[pith.extract(p) for p in pages]` and of `pith.extract_many(pages, jobs=N)`, in
   alternating rounds (a shared machine's load moves both alike);
2. per page, the fastest of `--repeats` calls of `pith.extract(page, url=url)` (default formats: text
   only, no blocks, the request `pith bench` times), against `pith bench --algorithm auto --repeats N
   --per-page`'s fastest `Engine::extract` of the same page; and, inside the same calls, the wall time
   over the engine's own `timings_ms.total` (argument handling, the GIL, serialization, json.loads);
3. json.loads of each result's JSON alone.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import pith

ROOT = Path(__file__).resolve().parents[1]


def load(dataset: Path) -> list[tuple[str, bytes, str | None]]:
    rows = [json.loads(line) for line in (dataset / "pages.jsonl").read_text(encoding="utf-8").split("\n") if line.strip()]
    return [(r["id"], gzip.decompress((dataset / "html" / f"{r['id']}.html.gz").read_bytes()), r.get("url")) for r in rows]


def throughput(pages, jobs: int, rounds: int) -> None:
    html, urls = [p[1] for p in pages], [p[2] for p in pages]
    pith.extract_many(html[:50], urls=urls[:50], jobs=jobs)  # warm-up: models, page faults
    print(f"1. {len(pages)} pages; pages/s of a loop of extract and of extract_many(jobs={jobs}):")
    for k in range(rounds):
        t, cpu = time.perf_counter(), time.process_time()
        for h, u in zip(html, urls):
            try:
                pith.extract(h, url=u)
            except pith.PithError:
                pass
        loop, loop_cpu = time.perf_counter() - t, time.process_time() - cpu
        t, cpu = time.perf_counter(), time.process_time()
        pith.extract_many(html, urls=urls, jobs=jobs)
        many, many_cpu = time.perf_counter() - t, time.process_time() - cpu
        print(
            f"   round {k + 1}: loop {len(pages) / loop:7.1f} ({loop_cpu:.1f} s CPU), "
            f"extract_many {len(pages) / many:7.1f} ({many_cpu:.1f} s CPU): {loop / many:.2f}x",
            flush=True,
        )


def bench_times(binary: Path, dataset: Path, repeats: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        per_page = Path(tmp) / "per-page.jsonl"
        subprocess.run(
            [str(binary), "bench", "--dataset", str(dataset), "--algorithm", "auto", "--repeats", str(repeats),
             "--per-page", str(per_page), "--format", "json"],
            check=True, capture_output=True,
        )
        rows = [json.loads(line) for line in per_page.read_text().splitlines() if line.strip()]
    return {r["id"]: r["ms"][0] for r in rows if r["ms"][0] is not None}


def python_times(pages, repeats: int) -> dict[str, tuple[float, float]]:
    """Per page: the fastest call's wall ms, and that call's engine total ms."""
    out = {}
    for pid, html, url in pages:
        try:
            pith.extract(html, url=url)
        except pith.PithError:
            continue
        best = (float("inf"), 0.0)
        for _ in range(repeats):
            t = time.perf_counter_ns()
            result = pith.extract(html, url=url)
            wall = (time.perf_counter_ns() - t) / 1e6
            if wall < best[0]:
                best = (wall, result["timings_ms"]["total"])
        out[pid] = best
    return out


def overhead(binary: Path, dataset: Path, pages, repeats: int) -> None:
    bench = bench_times(binary, dataset, repeats)
    ours = python_times(pages, repeats)
    ids = [pid for pid in ours if pid in bench]
    py_sum = sum(ours[i][0] for i in ids)
    bench_sum = sum(bench[i] for i in ids)
    engine_sum = sum(ours[i][1] for i in ids)
    ratios = [ours[i][0] / bench[i] for i in ids if bench[i] > 0]
    extra = [ours[i][0] - ours[i][1] for i in ids]
    print(f"2. {len(ids)} pages, fastest of {repeats} per page:")
    print(f"   pith bench auto: {bench_sum:9.1f} ms in all, median {statistics.median(bench.values()):.3f} ms/page")
    print(f"   pith.extract:    {py_sum:9.1f} ms in all, median {statistics.median(o[0] for o in ours.values()):.3f} ms/page")
    print(f"   Python over bench: {100 * (py_sum / bench_sum - 1):+.1f}% of the total, median page {100 * (statistics.median(ratios) - 1):+.1f}%")
    print(f"   same calls, wall over the engine's timings_ms.total: {100 * (py_sum / engine_sum - 1):+.1f}% of the total, "
          f"median {statistics.median(extra) * 1000:.0f} µs/page")


def json_cost(pages, repeats: int) -> None:
    texts = []
    for _, html, url in pages:
        try:
            texts.append(json.dumps(pith.extract(html, url=url)))
        except pith.PithError:
            pass
    costs = []
    for text in texts:
        best = float("inf")
        for _ in range(repeats):
            t = time.perf_counter_ns()
            json.loads(text)
            best = min(best, (time.perf_counter_ns() - t) / 1e3)
        costs.append(best)
    print(f"3. json.loads of a result: median {statistics.median(costs):.0f} µs, mean {statistics.mean(costs):.0f} µs "
          f"(median result {statistics.median(len(t) for t in texts)} bytes)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", type=Path, default=ROOT.parent / "shared" / "datasets" / "wcxb-dev")
    parser.add_argument("--pith", type=Path, default=ROOT / "target" / "release" / "pith")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--skip", default="", help="parts to skip, e.g. 1,3")
    args = parser.parse_args()
    pages = load(args.dataset)
    skip = set(args.skip.split(","))
    if "1" not in skip:
        throughput(pages, args.jobs, args.rounds)
    if "2" not in skip:
        overhead(args.pith, args.dataset, pages, args.repeats)
    if "3" not in skip:
        json_cost(pages, args.repeats)


if __name__ == "__main__":
    main()
