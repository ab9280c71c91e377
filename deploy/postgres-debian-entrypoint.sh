#!/bin/sh
# First start on an empty data volume: initdb, the POSTGRES_USER superuser with POSTGRES_PASSWORD
# (scram), POSTGRES_DB; then PostgreSQL in the foreground, listening on every interface.
set -eu
user="${POSTGRES_USER:-postgres}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set}"
  pwfile="$(mktemp)"; printf '%s' "$POSTGRES_PASSWORD" > "$pwfile"
  initdb --username="$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 -D "$PGDATA" >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  db="${POSTGRES_DB:-$user}"
  if [ "$db" != postgres ]; then
    pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
    createdb --username="$user" "$db"
    pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  fi
fi
exec postgres -D "$PGDATA" -c listen_addresses='*'
