#!/bin/sh
# Regenerate the tables of docs/EVALUATION.md: runs `pith eval` over every developer dataset with every
# algorithm and replaces the text between the GENERATED markers with its markdown output.
# Usage: scripts/regenerate-evaluation.sh [DATASETS_DIR]   (default ../shared/datasets)
set -eu
cd "$(dirname "$0")/.."
D=${1:-../shared/datasets}
DOC=docs/EVALUATION.md
cargo build --release --quiet
OUT=$(mktemp)
trap 'rm -f "$OUT" "$OUT.doc"' EXIT
./target/release/pith eval \
  --dataset "$D/cleaneval" --dataset "$D/cleanportaleval" --dataset "$D/dragnet" \
  --dataset "$D/l3s-gn1" --dataset "$D/readability-tests" --dataset "$D/tiptopjaw-2026" \
  --dataset "$D/utomo-big9-chaos" --dataset "$D/zh-cwce" --dataset "$D/zh-gne" \
  --algorithm all --jobs 2 --format markdown --per-page target/eval-per-page.jsonl > "$OUT"
awk -v gen="$OUT" '
  /<!-- BEGIN GENERATED/ { print; while ((getline line < gen) > 0) print line; skip = 1; next }
  /<!-- END GENERATED/ { skip = 0 }
  !skip { print }
' "$DOC" > "$OUT.doc"
mv "$OUT.doc" "$DOC"
echo "updated $DOC; per-page results in target/eval-per-page.jsonl" >&2
