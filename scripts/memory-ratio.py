#!/usr/bin/env python3
"""Peak memory of `pith extract` per page, over the page's size (issue 17's memory goal).

Picks pages over 100 KB from the developer datasets (a fixed-seed sample, so runs compare), writes
each page's raw bytes to a scratch directory, and runs `/usr/bin/time -f %M BIN extract --no-blocks
FILE` several times per page, keeping the least peak RSS. A page's share is its peak minus the peak of
the same command on a small real page (4.3 KB of l3s-gn1), divided by the page's size. The small page
takes every path of `auto`, so the process's one-time state (the models' first-use tables, the phrase
automata) is in both figures and cancels; a bare `<p>hi</p>` leaves most of it out and charged about
1 MB of it to every large page. Address-space randomisation is turned off for the runs (`setarch -R`):
with it, resident sizes of identical runs differ by up to 0.4 MB, a 4x on a 100 KB page; without it
they are the same to the kilobyte.

With several binaries the runs are interleaved page by page, so that they share the machine's state.

    python3 scripts/memory-ratio.py BIN [BIN ...] [--pages 40] [--seed 17] [--runs 2]
"""
import argparse, gzip, os, random, shutil, statistics, subprocess, sys, tempfile

BASELINE = ("l3s-gn1", "6a736234-6ecf-4ff1-b977-ded25e67e71f")


NO_ASLR = ["setarch", os.uname().machine, "-R"] if shutil.which("setarch") else []


def peak_kb(binary, path):
    r = subprocess.run(["/usr/bin/time", "-f", "%M", *NO_ASLR, binary, "extract", "--no-blocks", path],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return int(r.stderr.strip().splitlines()[-1])


def least(binaries, path, runs):
    best = [None] * len(binaries)
    for _ in range(runs):
        for i, b in enumerate(binaries):
            kb = peak_kb(b, path)
            best[i] = kb if best[i] is None else min(best[i], kb)
    return best


def read(datasets, name, pid):
    with gzip.open(os.path.join(datasets, name, "html", pid + ".html.gz")) as g:
        return g.read()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binaries", nargs="+")
    ap.add_argument("--pages", type=int, default=40)
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--min-bytes", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--datasets", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "datasets"))
    args = ap.parse_args()

    big = []
    for name in sorted(os.listdir(args.datasets)):
        d = os.path.join(args.datasets, name, "html")
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            if f.endswith(".html.gz"):
                pid = f[: -len(".html.gz")]
                raw = read(args.datasets, name, pid)
                if len(raw) > args.min_bytes:
                    big.append((name, pid, len(raw)))
    random.Random(args.seed).shuffle(big)
    big = big[: args.pages]

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "page.html")
        with open(path, "wb") as f:
            f.write(read(args.datasets, *BASELINE))
        base = least(args.binaries, path, args.runs * 2)
        rows = []
        for name, pid, size in big:
            with open(path, "wb") as f:
                f.write(read(args.datasets, name, pid))
            kbs = least(args.binaries, path, args.runs)
            rows.append((name, pid, size, kbs))
    for i, b in enumerate(args.binaries):
        ratios = sorted(((kbs[i] - base[i]) * 1024 / size, name, pid, size, kbs[i]) for name, pid, size, kbs in rows)
        print(f"== {b}")
        for ratio, name, pid, size, kb in ratios:
            print(f"{ratio:6.2f}x  {kb:7d} KB  {size / 1024:8.0f} KB  {name}/{pid}")
        rs = [r[0] for r in ratios]
        print(f"baseline {base[i]} KB; {len(rs)} pages over {args.min_bytes} bytes; median {statistics.median(rs):.2f}x, "
              f"above 4x: {sum(r > 4 for r in rs)}, max {max(rs):.2f}x")


if __name__ == "__main__":
    sys.exit(main())
