"""python/Cargo.lock pins every crate it shares with the root Cargo.lock to the same version: a build
with CARGO_TARGET_DIR at the root's target/ then reuses the root's compiled dependencies (.ci/run's
"Python package" stage does), and the package extracts with exactly the library the CLI runs."""

from __future__ import annotations

import re

from conftest import REPO


def versions(lock: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for name, version in re.findall(r'\[\[package\]\]\nname = "([^"]+)"\nversion = "([^"]+)"', lock):
        found.setdefault(name, set()).add(version)
    return found


def test_shared_crates_have_the_root_locks_versions():
    root = versions((REPO / "Cargo.lock").read_text())
    ours = versions((REPO / "python" / "Cargo.lock").read_text())
    assert "pith" in ours and "pyo3" in ours
    # The root lock may hold more versions of a crate (its dev-dependencies'); ours must be among them.
    differ = {name: (sorted(v), sorted(root[name])) for name, v in ours.items() if name in root and not v <= root[name]}
    assert not differ, f"update python/Cargo.lock from the root lock (cp Cargo.lock python/ and build): {differ}"
