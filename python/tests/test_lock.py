"""python/ is a member of the root workspace (one Cargo.lock, one target/), and python/Cargo.toml asks
for the features `cargo test --release` compiles pith's library with: a build after the tests then
reuses the library and its dependencies as the tests compiled them (.ci/run's "Python package" stage
does), and the package extracts with exactly the library the CLI runs."""

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


def test_pith_is_compiled_with_the_root_test_builds_features():
    # One feature more or less on any crate pith's library uses, on either side (a new dev-dependency
    # in the root, a new dependency here, pyo3's macros' syn), and the extension's build compiles
    # the library and every crate between again, and links a library the tests did not run.
    if shutil.which("cargo") is None:
        missing("cargo is not installed")
    library = features(REPO, "normal,build")  # the crates pith's library uses, and no others
    tests = features(REPO, "normal,build,dev")  # as `cargo test --release` builds them
    ours = features(REPO / "python", "normal,build")
    differ = {crate: {"root test build": sorted(tests[crate]), "python": sorted(ours.get(crate, set()))}
              for crate in library if tests[crate] != ours.get(crate)}
    assert not differ, (
        "declare the features in python/Cargo.toml (or, for what pyo3 turns on, in the root Cargo.toml, as "
        f"for syn's visit-mut), so both builds compile pith's library the same: {differ}"
    )
