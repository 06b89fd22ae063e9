#!/bin/sh
# The official image's start: options alone go to redis-server; as root, /data is handed to the
# user redis and the server runs as it. Its redis-server is built with protected mode off (other
# containers connect without a password); Debian's is not, so the option is passed here.
set -eu
case "${1:-}" in -*|*.conf) set -- redis-server "$@" ;; esac
if [ "${1:-}" = redis-server ]; then
  case " $* " in *" --protected-mode "*) ;; *) set -- "$@" --protected-mode no ;; esac
  if [ "$(id -u)" = 0 ]; then
    chown -R redis:redis .
    exec setpriv --reuid=redis --regid=redis --init-groups "$@"
  fi
fi
exec "$@"
