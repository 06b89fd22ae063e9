#!/usr/bin/env bash
# Builds stand-ins for the four base images the deployment names (node:20-bookworm-slim,
# redis:7-alpine, postgres:15-alpine, nginx:1.28-alpine), under the same tags, from Debian
# packages: a minimal Debian root file system made by debootstrap from this machine's own apt
# source, then one small Dockerfile each (deploy/stand-in-images/). Only for a machine whose
# engine cannot pull them: an image already present, or one `docker pull` fetches, is left alone,
# so with a registry nothing changes. Stand-ins carry the label duet.stand-in=true.
#
#   bash scripts/stand-in-images.sh            # what is missing
#   bash scripts/stand-in-images.sh --force    # rebuild every stand-in (not pulled images)
#
# Needs: docker (a running engine), debootstrap, and to run as root (debootstrap does).
set -euo pipefail
cd "$(dirname "$0")/.."

force=false
[ "${1:-}" = --force ] && force=true
base=duet-stand-in/debian:bookworm
declare -A images=([node]=node:20-bookworm-slim [redis]=redis:7-alpine [postgres]=postgres:15-alpine [nginx]=nginx:1.28-alpine)
log() { printf '== stand-in images: %s\n' "$*" >&2; }

is_stand_in() { [ "$(docker image inspect -f '{{ index .Config.Labels "duet.stand-in" }}' "$1" 2>/dev/null)" = true ]; }
needed() {
  local tag=$1
  if docker image inspect "$tag" >/dev/null 2>&1; then
    $force && is_stand_in "$tag" && return 0
    return 1
  fi
  if timeout 120 docker pull -q "$tag" >/dev/null 2>&1; then log "$tag pulled"; return 1; fi
  return 0
}

# The machine's Debian mirror and suites, read from its apt configuration (deb822 or one-line).
mirror() {
  local uri
  uri=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
  [ -n "$uri" ] || uri=$(awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) { print $i; exit } }' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null || true)
  [ -n "$uri" ] || { echo 'no Debian mirror found in /etc/apt' >&2; exit 1; }
  printf '%s\n' "$uri"
}

build_base() {
  if docker image inspect "$base" >/dev/null 2>&1 && ! $force; then return; fi
  local root
  root=$(mktemp -d /var/tmp/duet-rootfs.XXXXXX)
  trap 'rm -rf "$root"' RETURN
  log "debootstrap bookworm (minbase) from $(mirror)"
  debootstrap --variant=minbase bookworm "$root" "$(mirror)" >/dev/null
  # The machine's own sources (updates and security too), so images get the packages it has.
  rm -f "$root/etc/apt/sources.list"
  cp /etc/apt/sources.list.d/*.sources "$root/etc/apt/sources.list.d/" 2>/dev/null || cp /etc/apt/sources.list "$root/etc/apt/sources.list"
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/archives/*.deb
  tar -C "$root" -c . | docker import -c 'CMD ["bash"]' -c 'ENV LANG=C.UTF-8' - "$base" >/dev/null
  log "$base imported"
}

# node: this machine's Node.js 20 and npm, its CA bundle and npm registry setting.
node_context() {
  local ctx=$1 node npm_dir cafile
  node=$(command -v node)
  [[ "$("$node" --version)" == v20.* ]] || { echo "node:20-bookworm-slim needs Node.js 20 here, found $("$node" --version)" >&2; exit 1; }
  npm_dir=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
  cafile=$(npm config get cafile 2>/dev/null || true)
  [ -f "$cafile" ] || cafile=/etc/ssl/certs/ca-certificates.crt
  cp "$(readlink -f "$node")" "$ctx/node"
  cp -r "$npm_dir" "$ctx/npm"
  cp "$cafile" "$ctx/ca-certificates.crt"
  printf 'registry=%s\ncafile=/etc/ssl/certs/ca-certificates.crt\nupdate-notifier=false\nfund=false\naudit=false\n' "$(npm config get registry)" > "$ctx/npmrc"
}

for name in node redis postgres nginx; do
  tag=${images[$name]}
  needed "$tag" || { log "$tag present"; continue; }
  build_base
  ctx=$(mktemp -d)
  cp -r "deploy/stand-in-images/$name/." "$ctx/"
  [ "$name" = node ] && node_context "$ctx"
  log "building $tag"
  docker build -q --label duet.stand-in=true -t "$tag" "$ctx" >/dev/null
  rm -rf "$ctx"
  log "$tag built ($(docker image inspect -f '{{ .Size }}' "$tag") bytes)"
done
