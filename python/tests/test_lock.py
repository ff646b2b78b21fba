"""python/ is a member of the root workspace (one Cargo.lock, one target/), and python/Cargo.toml asks
for the features `cargo test --release` compiles the engine's dependencies with: a build after the
tests then reuses every crate below pith's library as the tests compiled it (.ci/run's "Python
package" stage does), and compiles pith's library itself without the features the extension leaves out
(the service, the lab, the command line), pyo3 and the extension's crate."""

from __future__ import annotations

import re
import shutil
import subprocess

from conftest import REPO, missing


def features(directory, edges: str) -> dict[str, set[str]]:
    """Each crate's feature sets in a build of the workspace in `directory` (a crate built both for
    build scripts and proc-macros and for the target may have two)."""
    out = subprocess.run(
        ["cargo", "tree", "--locked", "--offline", "-e", edges, "--prefix", "none", "-f", "{p} [{f}]"],
        cwd=directory, check=True, capture_output=True, text=True,
    ).stdout
    found: dict[str, set[str]] = {}
    for line in out.splitlines():
        m = re.match(r"(\S+ v\S+).*\[(.*)\]", line)
        if m:
            found.setdefault(m.group(1), set()).add(m.group(2))
    return found


def test_the_crates_below_pith_get_the_root_test_builds_features():
    # One feature more or less on any crate both builds use (a new dev-dependency or optional
    # dependency in the root, a new dependency here, pyo3's macros' syn), and the extension's build
    # compiles that crate and every crate above it again.
    if shutil.which("cargo") is None:
        missing("cargo is not installed")
    tests = features(REPO, "normal,build,dev")  # as `cargo test --release` builds them
    ours = features(REPO / "python", "normal,build")
    shared = [crate for crate in ours if crate in tests and not crate.startswith("pith v")]
    assert len(shared) > 100, f"only {len(shared)} crates in both builds"
    differ = {crate: {"root test build": sorted(tests[crate]), "python": sorted(ours[crate])}
              for crate in shared if tests[crate] != ours[crate]}
    assert not differ, (
        "declare the features in python/Cargo.toml (or, for what pyo3 turns on, in the root Cargo.toml, as "
        f"for syn's visit-mut), so both builds compile these crates the same: {differ}"
    )


def test_the_extension_links_the_engine_alone():
    # pith without its features: none of the service's crates in the extension's build.
    if shutil.which("cargo") is None:
        missing("cargo is not installed")
    ours = features(REPO / "python", "normal")
    pith = [features for crate, features in ours.items() if crate.startswith("pith v")]
    assert pith == [{""}], pith
    service = [crate for crate in ours if crate.split()[0] in ("axum", "tokio", "reqwest", "clap", "whatlang")]
    assert not service, service
