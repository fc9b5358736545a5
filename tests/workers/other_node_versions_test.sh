#!/usr/bin/env bash
# workers.OtherNodeVersions: the shipped Node peers at their other pinned version
# (oracles/node_review: bson 6.10.4 beside oracles/node's 7.3.4, cassandra-driver 4.6.4 beside
# 4.10.0; @furyjs/fury has a single release on npm) run `serdiff check` over every target they
# join with no false failure. Peer knowledge must hold for any version: a behaviour one version
# has and the other lacks is described so that it applies exactly where that version shows it.
#
#   other_node_versions_test.sh SERDIFF_CLI REPO
#
# Exit 0: both checks passed with the older packages loaded and called; 77 (skipped): no node;
# 1: a check failed, or the older packages are not what the lock file pins (scripts/bootstrap
# installs them), or a worker declined instead of running.
set -euo pipefail
cli=$1
repo=$2
command -v node >/dev/null 2>&1 || { echo "skipped: no node on PATH"; exit 77; }
dir="$repo/oracles/node_review"
fail() { echo "other_node_versions: $*" >&2; exit 1; }

# The versions the workers load under SERDIFF_NODE_PACKAGES are the lock file's.
declare -A pinned
for pkg in bson cassandra-driver; do
  want=$(node -e "const l=require('$dir/package-lock.json');console.log(l.packages['node_modules/$pkg'].version)")
  got=$(SERDIFF_NODE_PACKAGES="$dir" node -e "
    const w=require('$repo/workers/node/serdiff_worker.js');
    const p=w.loadPackage('$pkg','$repo/oracles/node');
    console.log(p.declined ? 'declined: ' + p.declined : p.version)")
  [ "$got" = "$want" ] || fail "$pkg under SERDIFF_NODE_PACKAGES=$dir loads '$got', the lock pins $want (run scripts/bootstrap)"
  echo "other_node_versions: $pkg $got"
  pinned[$pkg]=$want
done

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Only the two Node peers join (--no-workers, then each by its manifest): the other shipped
# workers load no Node package, and each of them took as long as the two again.
# Each target a worker's manifest declares, one check each (a `--filter cql_` would spend 20 s
# on cql_encode_large, which neither worker joins).
targets=$(for w in js_bson node_cassandra; do
  node -e "for (const t of require('$repo/oracles/$w/worker.json').targets) console.log(t.target ?? t)"
done | sort -u)
[ -n "$targets" ] || fail "no target in the manifests of js_bson and node_cassandra"
for filter in $targets; do
  rc=0
  (cd "$out" && SERDIFF_NODE_PACKAGES="$dir" "$cli" check --no-workers \
     --worker "$repo/oracles/js_bson/worker.json" \
     --worker "$repo/oracles/node_cassandra/worker.json" --filter "$filter") \
    >"$out/$filter.log" 2>&1 || rc=$?
  grep -E "^FAIL|targets, [0-9]+ failures" "$out/$filter.log" | head -20 || true
  [ "$rc" = 0 ] || fail "serdiff check --filter $filter exited $rc with the older packages"
done
# Each worker was called, and its line names the library it ran at the pinned version (the
# hello's "library": "  js_bson (bson 6.10.4): N calls, ...").
for w in js_bson:bson node_cassandra:cassandra-driver; do
  pkg=${w#*:} w=${w%%:*}
  line=$(cat "$out"/*.log | grep -E "^  $w( \(|:)" | head -1)
  calls=$(sed -nE "s/^  $w( \([^)]*\))?: ([0-9]+) calls.*/\2/p" <<<"$line")
  [ "${calls:-0}" -gt 0 ] || fail "$w was not called (declined?)"
  [[ "$line" == "  $w ($pkg ${pinned[$pkg]}): "* ]] ||
    fail "$w's line does not name $pkg ${pinned[$pkg]}: $line"
  echo "other_node_versions: $w ($pkg ${pinned[$pkg]}): $calls calls"
done
echo "other_node_versions: passed"
