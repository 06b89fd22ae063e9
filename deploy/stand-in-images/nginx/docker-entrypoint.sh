#!/bin/bash
# nginx before 1.27.3 rejects `resolve` on an upstream server and resolves each name once, at
# start. Where this nginx is such a one, the configuration runs without the parameter, and a
# watcher re-resolves those names every few seconds and reloads nginx when the addresses change:
# what `resolve` does in the official image (gateways added or removed by --scale are reached).
set -euo pipefail
conf=/etc/nginx/nginx.conf
if [ "${1:-}" = nginx ] && grep -Eq '^\s*server\s+\S+.*\sresolve\s*;' "$conf" && ! nginx -t -c "$conf" >/dev/null 2>&1; then
  stand_in=/run/nginx-stand-in.conf
  sed -E 's/^(\s*server\s+\S+.*)\sresolve(\s*;)/\1\2/' "$conf" > "$stand_in"
  names=$(sed -nE 's/^\s*server\s+([^:;[:space:]]+).*\sresolve\s*;.*/\1/p' "$conf" | sort -u)
  addresses() { for n in $names; do getent ahostsv4 "$n" | awk '{print $1}' | sort -u; done; }
  (
    seen="$(addresses)"
    while sleep "${NGINX_RERESOLVE_SECONDS:-5}"; do
      now="$(addresses)"
      if [ -n "$now" ] && [ "$now" != "$seen" ]; then
        nginx -c "$stand_in" -s reload && seen="$now"
      fi
    done
  ) &
  shift
  exec nginx -c "$stand_in" "$@"
fi
exec "$@"
