#!/usr/bin/env bash
# Smoke test of docker/Dockerfile without a Docker engine: build the image with buildah, start pith in
# it, check /healthz, `pith health`, one POST /v1/extract and a graceful SIGTERM, print the image size.
#
#   sudo bash docker/smoke-test.sh            # from the repository root (needs root for buildah/debootstrap)
#   bash docker/smoke-test.sh --clean         # also delete the cached images, rootfs and buildah storage
#
# When the real base images (rust:1-bookworm, debian:bookworm-slim) cannot be pulled, it builds local
# stand-ins: a debootstrap'ed bookworm (minbase) as localhost/debian:bookworm-slim, and that plus gcc,
# libc6-dev, make and the host's Rust toolchain as localhost/rust:1-bookworm. Everything lives under
# $PITH_SMOKE_DIR (default /var/tmp/pith-smoke) with its own buildah storage (vfs driver, chroot
# isolation); images are kept between runs so the dependency layer is reused. Re-running is safe.
#
# Measured on the 2-core dev machine: a cold run (debootstrap ~75 s, Rust stand-in ~70 s, every crate
# compiled in the container ~10 min) takes ~12.5 min; with cached layers after a source change only
# pith recompiles and the whole script takes ~2.5 min. The vfs driver copies every layer in full, so
# $PITH_SMOKE_DIR grows to ~15-20 GB; `--clean` removes it. Not part of .ci/run (a fresh CI machine
# always pays the cold run).
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT_DIR=$(pwd)
WORK=${PITH_SMOKE_DIR:-/var/tmp/pith-smoke}
PORT=${PITH_SMOKE_PORT:-18080}
BUILD_TIMEOUT=${PITH_SMOKE_BUILD_TIMEOUT:-2400}
IMAGE=localhost/pith:smoke
LOCAL_SLIM=localhost/debian:bookworm-slim
LOCAL_RUST=localhost/rust:1-bookworm
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

B=(buildah --root "$WORK/storage" --runroot "$WORK/run" --storage-driver vfs)
export BUILDAH_ISOLATION=chroot

say() { printf '\n== %s\n' "$*"; }
t0=$SECONDS
elapsed() { echo "$((SECONDS - t0))s"; }

if [[ ${1:-} == --clean ]]; then
    say "removing $WORK"
    "${B[@]}" rm --all >/dev/null 2>&1 || true
    "${B[@]}" rmi --all --force >/dev/null 2>&1 || true
    rm -rf "$WORK"
    exit 0
fi

[[ $(id -u) == 0 ]] || { echo "run as root (buildah with chroot isolation and debootstrap need it)"; exit 2; }
need=()
for tool in buildah debootstrap curl ss; do command -v "$tool" >/dev/null || need+=("$tool"); done
if ((${#need[@]})); then
    say "installing ${need[*]}"
    pkgs=("${need[@]/ss/iproute2}")
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${pkgs[@]}" >/dev/null
fi
mkdir -p "$WORK"

# Containers this run starts are removed on any exit; images stay for the layer cache.
CTRS=()
SERVE_PID=
cleanup() {
    if [[ -n $SERVE_PID ]] && kill -0 "$SERVE_PID" 2>/dev/null; then kill -KILL "$SERVE_PID" 2>/dev/null || true; fi
    for c in "${CTRS[@]}"; do "${B[@]}" rm "$c" >/dev/null 2>&1 || true; done
}
trap cleanup EXIT

have_image() { "${B[@]}" images --quiet "$1" >/dev/null 2>&1 && [[ -n $("${B[@]}" images --quiet "$1" 2>/dev/null) ]]; }

# ---------- base images ----------
try_pull() { timeout 45 "${B[@]}" pull --quiet "$1" >/dev/null 2>&1; }

RUST_IMAGE=docker.io/library/rust:1-bookworm
RUNTIME_IMAGE=docker.io/library/debian:bookworm-slim
say "base images ($(elapsed))"
if have_image "$RUNTIME_IMAGE" || try_pull "$RUNTIME_IMAGE"; then
    echo "using $RUNTIME_IMAGE"
else
    RUNTIME_IMAGE=$LOCAL_SLIM
    if have_image "$LOCAL_SLIM"; then
        echo "cannot pull debian:bookworm-slim; reusing $LOCAL_SLIM"
    else
        echo "cannot pull debian:bookworm-slim; building $LOCAL_SLIM with debootstrap"
        if [[ ! -d $WORK/rootfs-slim ]]; then
            rm -rf "$WORK/rootfs-slim.tmp"
            timeout 600 debootstrap --variant=minbase bookworm "$WORK/rootfs-slim.tmp" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 \
                || { tail -20 "$WORK/debootstrap.log"; exit 1; }
            mv "$WORK/rootfs-slim.tmp" "$WORK/rootfs-slim"
        fi
        tar -C "$WORK/rootfs-slim" --numeric-owner \
            --exclude='./dev/*' --exclude='./proc/*' --exclude='./sys/*' --exclude='./run/*' --exclude='./tmp/*' \
            --exclude='./var/cache/apt/archives/*.deb' --exclude='./var/lib/apt/lists/*' \
            --exclude='./usr/share/doc/*' --exclude='./usr/share/man/*' --exclude='./usr/share/locale/*' \
            -cf "$WORK/rootfs-slim.tar" .
        c=$("${B[@]}" from scratch); CTRS+=("$c")
        "${B[@]}" add "$c" "$WORK/rootfs-slim.tar" / >/dev/null
        "${B[@]}" config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --cmd bash "$c"
        "${B[@]}" commit --quiet "$c" "$LOCAL_SLIM" >/dev/null
        rm -f "$WORK/rootfs-slim.tar"
    fi
fi
if have_image "$RUST_IMAGE" || try_pull "$RUST_IMAGE"; then
    echo "using $RUST_IMAGE"
else
    RUST_IMAGE=$LOCAL_RUST
    if have_image "$LOCAL_RUST"; then
        echo "cannot pull rust:1-bookworm; reusing $LOCAL_RUST"
    else
        tc=$(rustc --print sysroot)
        echo "cannot pull rust:1-bookworm; building $LOCAL_RUST from $LOCAL_SLIM + gcc + make + $tc"
        c=$("${B[@]}" from "$LOCAL_SLIM"); CTRS+=("$c")
        "${B[@]}" run --isolation chroot "$c" -- sh -c \
            'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends gcc libc6-dev make ca-certificates >/dev/null && rm -rf /var/lib/apt/lists/*'
        # Trust what the host trusts (a network that inspects TLS adds its own CA there), so cargo
        # can reach crates.io from inside the build the way it does on the host.
        if [[ -d /usr/local/share/ca-certificates ]]; then
            "${B[@]}" copy "$c" /usr/local/share/ca-certificates /usr/local/share/ca-certificates >/dev/null
            "${B[@]}" run --isolation chroot "$c" -- update-ca-certificates >/dev/null
        fi
        for d in bin lib libexec etc; do
            [[ -d $tc/$d ]] && "${B[@]}" copy "$c" "$tc/$d" "/usr/local/rust/$d" >/dev/null
        done
        "${B[@]}" config --env CARGO_HOME=/usr/local/cargo \
            --env PATH=/usr/local/cargo/bin:/usr/local/rust/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$c"
        "${B[@]}" run --isolation chroot "$c" -- sh -c 'mkdir -p /usr/local/cargo && rustc --version && cargo --version'
        "${B[@]}" commit --quiet "$c" "$LOCAL_RUST" >/dev/null
    fi
fi

# ---------- the image ----------
say "buildah build -f docker/Dockerfile ($(elapsed))"
bstart=$SECONDS
timeout "$BUILD_TIMEOUT" "${B[@]}" build --isolation chroot --layers --force-rm --format docker --pull-never \
    --build-arg RUST_IMAGE="$RUST_IMAGE" --build-arg RUNTIME_IMAGE="$RUNTIME_IMAGE" \
    -f docker/Dockerfile -t "$IMAGE" "$ROOT_DIR" >"$WORK/build.log" 2>&1 \
    || { tail -40 "$WORK/build.log"; echo "BUILD FAILED (log: $WORK/build.log)"; exit 1; }
grep -E '^(STEP|COMMIT)|Using cache|Compiling pith|Finished|^pith ' "$WORK/build.log" | sed 's/^/  /' | tail -40
echo "build took $((SECONDS - bstart))s"

say "image"
"${B[@]}" images "$IMAGE"
"${B[@]}" inspect --type image --format 'user={{.Docker.Config.User}} entrypoint={{.Docker.Config.Entrypoint}} cmd={{.Docker.Config.Cmd}} stopsignal={{.Docker.Config.StopSignal}} exposed={{.Docker.Config.ExposedPorts}}' "$IMAGE"; echo
"${B[@]}" inspect --type image --format 'healthcheck={{.Docker.Config.Healthcheck}}' "$IMAGE"; echo

# ---------- run it ----------
say "pith serve inside the image on 127.0.0.1:$PORT ($(elapsed))"
if ss -ltn "sport = :$PORT" | grep -q LISTEN; then echo "port $PORT is busy; set PITH_SMOKE_PORT"; exit 1; fi
c=$("${B[@]}" from "$IMAGE"); CTRS+=("$c")
# The image's own ENTRYPOINT + CMD (`pith serve`), as the image's user, on the host's network.
read -r -a cmd <<<"$("${B[@]}" inspect --type image --format '{{range .Docker.Config.Entrypoint}}{{.}} {{end}}{{range .Docker.Config.Cmd}}{{.}} {{end}}' "$IMAGE")"
echo "command: ${cmd[*]}"
"${B[@]}" run --isolation chroot --network host --user 10001:10001 \
    --env PITH_SERVER__LISTEN="127.0.0.1:$PORT" --env PITH_SERVER__DRAIN_DELAY_MS=500 \
    "$c" -- "${cmd[@]}" >"$WORK/serve.log" 2>&1 &
RUN_PID=$!
for _ in $(seq 1 100); do
    curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break
    kill -0 "$RUN_PID" 2>/dev/null || { cat "$WORK/serve.log"; echo "pith exited early"; exit 1; }
    sleep 0.2
done
SERVE_PID=$(ss -ltnpH "sport = :$PORT" | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2)
echo "pith pid $SERVE_PID runs as uid $(awk '/^Uid:/{print $2}' "/proc/$SERVE_PID/status"): $(tr '\0' ' ' <"/proc/$SERVE_PID/cmdline")"

say "GET /healthz"
curl -fsS -w '  -> HTTP %{http_code}\n' "http://127.0.0.1:$PORT/healthz"
say "GET /readyz"
curl -fsS -w '  -> HTTP %{http_code}\n' "http://127.0.0.1:$PORT/readyz"

say "HEALTHCHECK command inside the image (pith health)"
"${B[@]}" run --isolation chroot --network host --user 10001:10001 --env PITH_SERVER__LISTEN="127.0.0.1:$PORT" \
    "$c" -- pith health --timeout-ms 2000

say "POST /v1/extract"
page='<html><head><title>Smoke test</title></head><body><nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<article><h1>Harbour reopens</h1><p>The harbour reopened on Monday after three weeks of repairs to the sea wall, and the first ferries arrived before noon carrying two hundred passengers.</p>
<p>Engineers said the new wall is built to withstand storms twice as strong as the one that damaged it in March, and the council thanked residents for their patience.</p></article>
<footer>Copyright 2025 Example News</footer></body></html>'
resp=$(curl -fsS -H 'content-type: text/html' --data-binary "$page" "http://127.0.0.1:$PORT/v1/extract?blocks=false")
echo "$resp" | head -c 600; echo
echo "$resp" | grep -q 'The harbour reopened on Monday' || { echo "EXTRACT FAILED"; exit 1; }
echo "$resp" | grep -q 'Copyright 2025' && { echo "EXTRACT KEPT THE FOOTER"; exit 1; }
echo "extract ok"

say "SIGTERM -> graceful shutdown"
kill -TERM "$SERVE_PID"
sleep 0.1
echo "during the 500 ms drain: /readyz -> $(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/readyz"), /healthz -> $(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/healthz")"
code=0
for _ in $(seq 1 150); do kill -0 "$SERVE_PID" 2>/dev/null || break; sleep 0.2; done
if kill -0 "$SERVE_PID" 2>/dev/null; then echo "pith did not exit within 30 s of SIGTERM"; exit 1; fi
wait "$RUN_PID" || code=$?
SERVE_PID=
echo "buildah run exited with $code; last log lines:"
tail -4 "$WORK/serve.log" | cut -c1-300
((code == 0)) || { echo "pith did not exit 0 on SIGTERM"; exit 1; }

say "SMOKE TEST PASSED in $(elapsed)"
echo "buildah storage kept for the layer cache: $(du -sh "$WORK" 2>/dev/null | cut -f1) in $WORK (--clean removes it)"
