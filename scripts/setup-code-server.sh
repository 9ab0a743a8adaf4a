#!/usr/bin/env bash
# Installs code-server 4.100.3 (VS Code 1.100.3) for `npm run test:e2e`, offline-safe:
# only the npm registry and Debian packages are used (see shared notes real-vscode-e2e.md).
# Idempotent: does nothing when the cached install already reports the right version.
#   PI_CODE_SERVER_HOME  install directory (default: $HOME/.cache/palette-inspector/code-server)
# Prints the path of the code-server binary as its last line.
set -Eeuo pipefail

VERSION=4.100.3
CS_HOME="${PI_CODE_SERVER_HOME:-${HOME:?HOME is not set}/.cache/palette-inspector/code-server}"
BIN="$CS_HOME/node_modules/.bin/code-server"
DEBS=(libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev ripgrep chromium python3-debugpy)
STAMP=.palette-inspector-code-server   # marks a directory this script may replace

log() { printf '[setup-code-server] %s\n' "$*" >&2; }
die() { printf '[setup-code-server] ERROR: %s\n' "$*" >&2; exit 1; }
trap 'die "failed at line $LINENO: $BASH_COMMAND (see output above)"' ERR

# code-server writes a default config on first start; keep it inside the install, not in ~/.config.
version_line() { XDG_CONFIG_HOME="$(dirname "$(dirname "$(dirname "$1")")")/.config" "$1" --version 2>/dev/null | grep -E '^[0-9]+\.[0-9]+\.[0-9]+ ' | head -n1; }
installed_version() { [ -x "$BIN" ] && version_line "$BIN" | awk '{print $1}'; }

if [ "$(installed_version || true)" = "$VERSION" ]; then
  log "code-server $VERSION already installed in $CS_HOME"
  echo "$BIN"
  exit 0
fi

command -v node >/dev/null || die "node is not on PATH (Node 20 is required)"
command -v npm  >/dev/null || die "npm is not on PATH"
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 20 ] || die "Node >= 20 is required, found $(node --version)"

# --- Debian packages, only those missing ---------------------------------------------
missing=()
for p in "${DEBS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "installing Debian packages: ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || die "need root or sudo to install: ${missing[*]}"
    SUDO=sudo
  fi
  $SUDO apt-get update -q || die "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}" \
    || die "apt-get install failed for: ${missing[*]}"
fi
for tool in /usr/bin/rg /usr/bin/chromium g++ make python3; do
  command -v "$tool" >/dev/null || die "$tool is missing after package install"
done

# --- code-server, built in a staging directory and moved into place when complete -----
if [ -e "$CS_HOME" ] && [ ! -e "$CS_HOME/$STAMP" ] && [ -n "$(ls -A "$CS_HOME" 2>/dev/null)" ]; then
  die "$CS_HOME exists, is not empty and was not made by this script; remove it or point PI_CODE_SERVER_HOME elsewhere"
fi
STAGE="$CS_HOME.partial"
rm -rf "$STAGE"
mkdir -p "$STAGE"
touch "$STAGE/$STAMP"
start=$SECONDS
export npm_config_yes=true npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false

log "npm install code-server@$VERSION (no install scripts: they would download from GitHub)"
(cd "$STAGE" && echo '{"name":"pi-code-server","private":true}' > package.json \
  && npm install --no-save --ignore-scripts --no-package-lock "code-server@$VERSION")

VS="$STAGE/node_modules/code-server/lib/vscode"
[ -d "$VS" ] || die "code-server package has no lib/vscode"
log "installing VS Code server dependencies"
(cd "$VS" && npm install --omit=dev --ignore-scripts --no-package-lock)
mkdir -p "$VS/node_modules/@vscode/ripgrep/bin"
cp /usr/bin/rg "$VS/node_modules/@vscode/ripgrep/bin/rg"
log "building native modules (kerberos node-pty spdlog native-watchdog watcher deviceid)"
(cd "$VS" && npm rebuild kerberos node-pty @vscode/spdlog native-watchdog @parcel/watcher @vscode/deviceid)
(cd "$VS" && ln -sfn node_modules node_modules.asar)
(cd "$VS/bin/remote-cli" && ln -sfn code-linux.sh code-server)
(cd "$VS/bin/helpers" && ln -sfn browser-linux.sh browser.sh)
log "installing built-in extensions' dependencies"
(cd "$VS/extensions" && npm install --omit=dev --ignore-scripts --no-package-lock)
log "building argon2"
(cd "$STAGE" && npm rebuild argon2)

got=$(version_line "$STAGE/node_modules/.bin/code-server" || true)
case "$got" in
  "$VERSION "*"with Code 1.100.3"*) ;;
  *) die "staged code-server does not report $VERSION: $got" ;;
esac

rm -rf "$CS_HOME"
mv "$STAGE" "$CS_HOME"
[ "$(installed_version || true)" = "$VERSION" ] || die "installed code-server in $CS_HOME does not start"
log "code-server $VERSION installed in $CS_HOME in $((SECONDS - start)) s"
echo "$BIN"
