#!/usr/bin/env bash
# Load test of `pith serve`, loopback only, bounded in time and connections.
#
#   scripts/load-test.sh [PAGE.html.gz|PAGE.html] [DURATION_S] [CONNECTIONS]
#
# Defaults: benches/pages/tiptopjaw-3036.html.gz (~108 KB unzipped), 15 s, 4 connections (2 wrk threads).
# It starts `target/release/pith serve` (or `$BIN serve`: compare two builds in one sitting) on 127.0.0.1 (a free port) with the result cache off
# (PITH_CACHE__ENABLED=false) and the rate limit off, POSTs the page as `text/html` to /v1/extract
# (default request: auto, text + HTML + blocks) with wrk for DURATION_S seconds, prints requests/s and
# the p99 latency, stops the server, and then measures in-process pages/s on the same page with the
# same request (`pith bench --page`, as many threads as the server has workers) for the 70% comparison.
# Nothing listens beyond loopback and nothing runs past DURATION_S + a few seconds.
set -euo pipefail

cd "$(dirname "$0")/.."
PAGE=${1:-benches/pages/tiptopjaw-3036.html.gz}
DURATION=${2:-15}
CONNS=${3:-4}
THREADS=$(nproc)
BIN=${BIN:-target/release/pith}

[[ "$DURATION" =~ ^[0-9]+$ && "$DURATION" -ge 1 && "$DURATION" -le 300 ]] || { echo "duration 1..300 s" >&2; exit 2; }
[[ "$CONNS" =~ ^[0-9]+$ && "$CONNS" -ge 1 && "$CONNS" -le 256 ]] || { echo "connections 1..256" >&2; exit 2; }

if ! command -v wrk >/dev/null; then
    echo "installing wrk (Debian package)" >&2
    apt-get install -y wrk >/dev/null
fi
[[ -x $BIN ]] || cargo build --release

WORK=$(mktemp -d)
SERVER_PID=
cleanup() {
    if [[ -n "$SERVER_PID" ]]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

case "$PAGE" in
    *.gz) gzip -dc "$PAGE" > "$WORK/page.html" ;;
    *) cp "$PAGE" "$WORK/page.html" ;;
esac
BYTES=$(wc -c < "$WORK/page.html")

# A free loopback port.
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
PITH_CACHE__ENABLED=false PITH_RATE_LIMIT__ENABLED=false PITH_LOG__LEVEL=warn \
    "$BIN" serve --listen "127.0.0.1:$PORT" > "$WORK/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 100); do
    curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break
    sleep 0.1
done
curl -fs -o /dev/null -X POST -H 'Content-Type: text/html' --data-binary @"$WORK/page.html" \
    "http://127.0.0.1:$PORT/v1/extract" || { echo "server did not answer; log:" >&2; cat "$WORK/server.log" >&2; exit 1; }

cat > "$WORK/post.lua" <<LUA
local f = assert(io.open("$WORK/page.html", "rb"))
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
wrk.headers["Content-Type"] = "text/html"
done = function(summary, latency, requests)
    io.write(string.format("non-2xx or errors: %d\n", summary.errors.status + summary.errors.connect
        + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
LUA

echo "== wrk: POST /v1/extract, $BYTES bytes, cache off, $CONNS connections, ${DURATION}s, loopback"
wrk -t 2 -c "$CONNS" -d "${DURATION}s" --timeout 10s --latency -s "$WORK/post.lua" \
    "http://127.0.0.1:$PORT/v1/extract" | tee "$WORK/wrk.txt"
kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=

RPS=$(awk '/^Requests\/sec:/ {print $2}' "$WORK/wrk.txt")
P99=$(awk '$1 == "99%" {print $2}' "$WORK/wrk.txt")
echo "== in-process: same page, same request, $THREADS threads"
INPROC=$("$BIN" bench --page "$WORK/page.html" --threads "$THREADS" --seconds "$DURATION" --format json \
    | python3 -c 'import json,sys; print(round(json.load(sys.stdin)["pages_per_s"], 1))')
echo
echo "service: $RPS requests/s, p99 latency $P99"
echo "in-process ($THREADS threads): $INPROC pages/s"
python3 -c "print(f'service / in-process: {100*$RPS/$INPROC:.0f}% (goal >= 75%)')"
