#!/bin/sh
# The real wrangler, with a local D1 standing in for the remote database: the tests' and the
# benchmark's `npm run db:import -- --remote` (IMPORT_WRANGLER names this script; docs/import.md#remote).
# Every --remote becomes --local --persist-to "$D1_STAND_IN_DIR", so that each file of a remote
# import goes through wrangler's own SQL splitter and Miniflare's D1, under D1's own rules (no BEGIN
# or COMMIT, only the PRAGMAs D1 allows, a file applied as one batch: whole or not at all).
# `d1 execute … --json` runs as wrangler runs it locally, but answers as the remote database does,
# with D1's meta (rows written, size), which wrangler's local answer leaves out
# (scripts/tools/d1-stand-in-execute.ts); `d1 migrations apply` sends each migration as wrangler
# sends it (scripts/tools/d1-stand-in-migrate.ts). Both go through one process that keeps
# wrangler's splitter and Miniflare's D1 loaded for the folder (scripts/tools/d1-stand-in-server.ts),
# instead of loading them and starting workerd for every call. Every other command is wrangler's own.
#
# D1_STAND_IN_FAIL_FILE=00005.sql makes that file fail inside D1, as an upload D1 refuses would: it
# is applied with one more statement after its own, on a table that does not exist.
set -eu
: "${D1_STAND_IN_DIR:?names the folder of the local D1 that stands in for the remote database}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
wrangler="$root/node_modules/.bin/wrangler"
failing=""
json=""
execute=""
migrations=""
for arg in "$@"; do
  shift
  case "$arg" in
    --remote) set -- "$@" --local --persist-to "$D1_STAND_IN_DIR" ;;
    --json) json=1 && set -- "$@" "$arg" ;;
    execute) execute=1 && set -- "$@" "$arg" ;;
    migrations) migrations=1 && set -- "$@" "$arg" ;;
    --file=*)
      file="${arg#--file=}"
      if [ "$(basename "$file")" = "${D1_STAND_IN_FAIL_FILE:-}" ]; then
        failing="$(mktemp "${TMPDIR:-/tmp}/d1-stand-in-XXXXXX")"
        cat "$file" >"$failing"
        echo "INSERT INTO injected_failure VALUES (1);" >>"$failing"
        set -- "$@" "--file=$failing"
      else
        set -- "$@" "$arg"
      fi
      ;;
    *) set -- "$@" "$arg" ;;
  esac
done
status=0
if [ -n "$json" ] && [ -n "$execute" ]; then
  "$root/node_modules/.bin/tsx" "$root/scripts/tools/d1-stand-in-execute.ts" "$@" || status=$?
elif [ -n "$migrations" ] && [ "${3:-}" = "apply" ]; then
  "$root/node_modules/.bin/tsx" "$root/scripts/tools/d1-stand-in-migrate.ts" "$@" || status=$?
else
  "$wrangler" "$@" || status=$?
fi
if [ -n "$failing" ]; then rm -f "$failing"; fi
exit "$status"
