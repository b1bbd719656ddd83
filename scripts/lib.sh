# Shared set-up for the scripts: installs what a fresh Debian machine lacks, then builds.
# Sourced, not run.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

# apt-get install the packages whose probe command or header is missing.
ensure_system_packages() {
  local missing=()
  [ -f /usr/include/ncursesw/ncurses.h ] || [ -f /usr/include/ncurses.h ] || missing+=(libncurses-dev)
  [ -f /usr/include/zlib.h ] || missing+=(zlib1g-dev)
  command -v tmux >/dev/null 2>&1 || missing+=(tmux)
  command -v socat >/dev/null 2>&1 || missing+=(socat)
  python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || missing+=(python3-venv)
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

# Chromium from the OS packages, for the HTML report's test (rendered headless, console checked).
ensure_chromium() {
  command -v chromium >/dev/null 2>&1 && return 0
  log "installing chromium"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
}

ensure_swift() {
  if ! command -v swift >/dev/null 2>&1; then
    echo "swift is not on PATH: install Swift 6.x (https://swift.org/install) and retry" >&2
    exit 2
  fi
}

# The official Python SDKs the listen tests use as real clients, and orjson (the benchmarks'
# baseline), protobuf (the Firebase upload benchmark's baseline) and schemathesis (checks listen's
# query API against its OpenAPI document), in .venv.
ensure_python_sdks() {
  local venv="$repo_root/.venv"
  local stamp="$venv/.tagscope-sdks"
  local wanted="segment-analytics-python amplitude-analytics mixpanel posthog rudder-sdk-python snowplow-tracker mparticle orjson schemathesis pytest requests protobuf"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$wanted" ]; then
    log "creating $venv with the official analytics SDKs"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check $wanted
    echo "$wanted" >"$stamp"
  fi
}

# mitmproxy, the proxy benchmark's peer (`scripts/bench proxy`), in a venv of its own inside .venv:
# it pins older h11, attrs and cryptography than the SDKs' venv holds, which the tests use.
ensure_mitmproxy() {
  local venv="$repo_root/.venv/mitmproxy"
  local stamp="$venv/.tagscope-mitmproxy"
  local wanted="mitmproxy==11.0.2"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$wanted" ]; then
    log "creating $venv with $wanted"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check "$wanted"
    echo "$wanted" >"$stamp"
  fi
}
