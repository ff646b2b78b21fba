#!/bin/sh
# Regenerate the tables of docs/EVALUATION.md from `pith eval` over every developer dataset:
#   - GENERATED all: every algorithm, with the shipped models (`auto`'s models were trained on these
#     pages, so its figures there are in-sample);
#   - GENERATED cv: `auto` cross-validated, every model retrained without the pages it is scored on:
#     site-grouped 3-fold (no registered domain both trained on and scored), with the URL-ablation
#     table; then leave-one-dataset-out (every dataset scored by models trained on the others only):
#     sources never seen in training.
# Usage: scripts/regenerate-evaluation.sh [DATASETS_DIR]   (default ../shared/datasets; CV=0 skips the
# cross-validation, which takes about an hour on two cores, LODO=0 only its leave-one-dataset-out
# half, the longer one (each section's text stays as last generated); the folds' models are kept in
# target/cv-models/ and read back by the next run while the block features are unchanged; delete that
# directory after changing them)
set -eu
cd "$(dirname "$0")/.."
D=${1:-../shared/datasets}
DOC=docs/EVALUATION.md
cargo build --release --quiet
OUT=$(mktemp)
trap 'rm -f "$OUT" "$OUT.doc" "$OUT.cv"' EXIT
SETS="--dataset $D/cleaneval --dataset $D/cleanportaleval --dataset $D/dragnet --dataset $D/l3s-gn1 \
  --dataset $D/readability-tests --dataset $D/tiptopjaw-2026 --dataset $D/utomo-big9-chaos \
  --dataset $D/wcxb-dev --dataset $D/zh-cwce --dataset $D/zh-gne --dataset $D/zh-listdetail \
  --dataset $D/products-zyte --dataset $D/forums-harvest --dataset $D/docs-sites --dataset $D/trafbench-dev"

# splice NAME FILE: replace the text between <!-- BEGIN GENERATED NAME and <!-- END GENERATED NAME.
splice() {
  awk -v gen="$2" -v name="$1" '
    index($0, "<!-- BEGIN GENERATED " name) == 1 { print; while ((getline line < gen) > 0) print line; skip = 1; next }
    index($0, "<!-- END GENERATED " name) == 1 { skip = 0 }
    !skip { print }
  ' "$DOC" > "$OUT.doc"
  mv "$OUT.doc" "$DOC"
}

# shellcheck disable=SC2086
./target/release/pith eval $SETS --algorithm all --jobs 2 --format markdown \
  --per-page target/eval-per-page.jsonl > "$OUT"
splice all "$OUT"
if [ "${CV:-1}" != 0 ]; then
  {
    echo "#### Site-grouped 3-fold cross-validation"
    echo
    # shellcheck disable=SC2086
    ./target/release/pith eval $SETS --algorithm auto --cv 3 --jobs 2 --url-ablation --format markdown \
      --cv-models target/cv-models/sites-3 --per-page target/eval-cv-per-page.jsonl
  } > "$OUT.cv"
  splice cv "$OUT.cv"
  if [ "${LODO:-1}" != 0 ]; then
    {
      echo "#### Leave one dataset out (each set scored by models trained on the other sets)"
      echo
      # shellcheck disable=SC2086
      ./target/release/pith eval $SETS --algorithm auto --cv-datasets --jobs 2 --format markdown \
        --cv-models target/cv-models/datasets --per-page target/eval-lodo-per-page.jsonl
    } > "$OUT.cv"
    splice lodo "$OUT.cv"
  fi
fi
echo "updated $DOC; per-page results in target/eval-*per-page.jsonl" >&2
