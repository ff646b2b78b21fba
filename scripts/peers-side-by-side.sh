#!/bin/bash
# Side by side: peers (../shared/peers harness) and pith auto, one dataset after another, same session.
# usage: [PEERS="a b"] scripts/peers-side-by-side.sh PITH_BIN OUTDIR [datasets...]   (PEERS: which peers, default all eight; PEERS_ROOT: where ../shared/peers/setup.sh installed the peers; a local tool, not run in CI)
BIN=$1; OUT=$2; shift 2
export PEERS_ROOT=${PEERS_ROOT:?set PEERS_ROOT}
PEERS=${PEERS:-"resiliparse dom_smoothie rs_trafilatura trafilatura_rs readabilityrs trafilatura readability_js parse_html5ever"}
DS=${@:-cleaneval cleanportaleval dragnet l3s-gn1 readability-tests tiptopjaw-2026 utomo-big9-chaos wcxb-dev zh-cwce zh-gne}
mkdir -p $OUT
for d in $DS; do
  for p in $PEERS; do
    python3 $(dirname "$0")/../../shared/peers/run.py --dataset $(dirname "$0")/../../shared/datasets/$d --extractor $p --out $OUT/$d.$p.json > $OUT/$d.$p.log 2>&1
  done
  # pith: the same single timed call per page, one thread; a warm-up pass first (page cache, lazy statics)
  $BIN eval --dataset $(dirname "$0")/../../shared/datasets/$d --jobs 1 --format json --per-page /dev/null > /dev/null 2>&1
  $BIN eval --dataset $(dirname "$0")/../../shared/datasets/$d --jobs 1 --format json --per-page $OUT/$d.pith.jsonl > /dev/null 2>$OUT/$d.pith.log
done
