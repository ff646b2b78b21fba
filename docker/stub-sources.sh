#!/bin/sh
# Lay out stub sources for the crate whose Cargo.toml is in the current directory: an empty library,
# an empty `fn main` binary, and an empty file for every [[bin]], [[bench]], [[test]] and [[example]]
# the manifest declares (at its `path`, or where cargo looks by default). Cargo refuses a manifest
# whose declared targets have no file, so docker/Dockerfile's dependency layer, which sees only
# Cargo.toml and Cargo.lock, runs this before building the dependencies; .ci/run runs it too, over a
# copy of the same two files, so a new target that would break the image fails CI instead.
set -eu
mkdir -p src
[ -e src/main.rs ] || echo 'fn main() {}' > src/main.rs
[ -e src/lib.rs ] || : > src/lib.rs
# The workspace member python/ (its manifest only).
if [ -e python/Cargo.toml ]; then
    mkdir -p python/src
    [ -e python/src/lib.rs ] || : > python/src/lib.rs
fi
awk '
    function flush() {
        if (kind != "" && name != "") {
            if (path == "") {
                if (kind == "bin") path = "src/bin/" name ".rs"
                else if (kind == "bench") path = "benches/" name ".rs"
                else if (kind == "test") path = "tests/" name ".rs"
                else path = "examples/" name ".rs"
            }
            print path
        }
        kind = ""; name = ""; path = ""
    }
    /^[ \t]*\[/ {
        flush()
        if (match($0, /^[ \t]*\[\[(bin|bench|test|example)\]\]/)) {
            kind = $0; sub(/^[ \t]*\[\[/, "", kind); sub(/\]\].*/, "", kind)
        }
        next
    }
    kind != "" && /^[ \t]*name[ \t]*=/ { v = $0; sub(/^[^"]*"/, "", v); sub(/".*/, "", v); name = v }
    kind != "" && /^[ \t]*path[ \t]*=/ { v = $0; sub(/^[^"]*"/, "", v); sub(/".*/, "", v); path = v }
    END { flush() }
' Cargo.toml | while read -r target; do
    mkdir -p "$(dirname "$target")"
    [ -e "$target" ] || echo 'fn main() {}' > "$target"
done
