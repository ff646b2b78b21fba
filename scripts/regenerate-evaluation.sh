#!/bin/sh
# Regenerate the tables of docs/EVALUATION.md from `pith eval` over every developer dataset:
#   - GENERATED all: every algorithm, with the shipped models (`auto`'s models were trained on these
#     pages, so its figures there are in-sample);
#   - GENERATED cv: `auto` 5-fold cross-validated (every model retrained without the pages it is scored
#     on), once with the default text policy (non-articles give only their lead) and once with the text
#     of every page kept whole (no_article_text = full), the extraction measured on its own; then
#     leave-one-dataset-out (every dataset scored by models trained on the others only, text kept
#     whole): sources never seen in training.
# Usage: scripts/regenerate-evaluation.sh [DATASETS_DIR]   (default ../shared/datasets; CV=0 skips the
# cross-validation, which takes about 30 minutes on two cores)
set -eu
cd "$(dirname "$0")/.."
D=${1:-../shared/datasets}
DOC=docs/EVALUATION.md
cargo build --release --quiet
OUT=$(mktemp)
trap 'rm -f "$OUT" "$OUT.doc" "$OUT.cv"' EXIT
SETS="--dataset $D/cleaneval --dataset $D/cleanportaleval --dataset $D/dragnet --dataset $D/l3s-gn1 \
  --dataset $D/readability-tests --dataset $D/tiptopjaw-2026 --dataset $D/utomo-big9-chaos \
  --dataset $D/zh-cwce --dataset $D/zh-gne"

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
    echo "#### Default text policy (non-articles: lead only)"
    echo
    # shellcheck disable=SC2086
    ./target/release/pith eval $SETS --algorithm auto --cv 5 --jobs 2 --format markdown \
      --per-page target/eval-cv-per-page.jsonl
    echo
    echo "#### Every page's text kept whole (PITH_PARAMS__AUTO__NO_ARTICLE_TEXT=full)"
    echo
    # shellcheck disable=SC2086
    PITH_PARAMS__AUTO__NO_ARTICLE_TEXT=full ./target/release/pith eval $SETS --algorithm auto --cv 5 --jobs 2 \
      --format markdown --per-page target/eval-cv-full-per-page.jsonl
    echo
    echo "#### Leave one dataset out (each set scored by models trained on the other sets; text kept whole)"
    echo
    # shellcheck disable=SC2086
    PITH_PARAMS__AUTO__NO_ARTICLE_TEXT=full ./target/release/pith eval $SETS --algorithm auto --cv-datasets \
      --jobs 2 --format markdown --per-page target/eval-lodo-per-page.jsonl
  } > "$OUT.cv"
  splice cv "$OUT.cv"
fi
echo "updated $DOC; per-page results in target/eval-*per-page.jsonl" >&2
