#!/usr/bin/env bash
# fuzz.LimitsMatchTheRegistry: every <target>.options the build wrote is what the registry
# says (TargetDef::fuzz_limits, as `serdiff list --emit limits-tsv` prints them: max_len,
# timeout, malloc_limit_mb), one per registered target of the families built, and
# scripts/registry-tables, which checks fuzz/limits.tsv, refuses a copy of it with one number
# changed (so it can fail).
# usage: fuzz_limits_test.sh <serdiff> <source dir> <build dir's fuzz/ folder>
set -uo pipefail
serdiff=$1 src=$2 fuzzdir=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

"$serdiff" list --emit limits-tsv >"$tmp/limits.tsv" ||
  { echo "serdiff list --emit limits-tsv failed"; exit 1; }
# The expected text of each .options, written here independently of fuzz/CMakeLists.txt.
mkdir -p "$tmp/opt"
awk -F'\t' -v d="$tmp/opt" '!/^#/ && $1 != "*" {
  printf "[libfuzzer]\nmax_len = %s\nmalloc_limit_mb = %s\nrss_limit_mb = 2048\ntimeout = %s\n",
    $2, $5, $4 > (d "/" $1 ".options") }' "$tmp/limits.tsv"
n=0
for want in "$tmp"/opt/*.options; do
  name=$(basename "$want")
  n=$((n + 1))
  if [ ! -f "$fuzzdir/$name" ]; then
    echo "$fuzzdir/$name is missing (the registry has ${name%.options})"
    fail=1
  elif ! diff -u "$fuzzdir/$name" "$want" >"$tmp/diff"; then
    echo "$fuzzdir/$name differs from the registry (- built, + registry):"
    cat "$tmp/diff"
    fail=1
  fi
done
for built in "$fuzzdir"/*.options; do
  [ -f "$tmp/opt/$(basename "$built")" ] || { echo "$built: no registered target"; fail=1; }
done
[ "$n" -gt 0 ] || { echo "the registry emitted no .options"; fail=1; }

# The check of fuzz/limits.tsv (scripts/registry-tables, ctest docs.RegistryTablesCurrent)
# must be able to fail: in a scratch copy of what it reads, one max_len changed.
mkdir -p "$tmp/copy/fuzz" "$tmp/copy/src/serdiff"
cp -r "$src/scripts" "$src/docs" "$tmp/copy/"
for d in "$src"/src/serdiff/*/; do
  mkdir -p "$tmp/copy/src/serdiff/$(basename "$d")"
  [ -f "$d/CMakeLists.txt" ] && touch "$tmp/copy/src/serdiff/$(basename "$d")/CMakeLists.txt"
done
awk -F'\t' 'BEGIN { OFS = "\t" } !/^#/ && !done { $2 = $2 + 1; done = 1 } { print }' \
  "$src/fuzz/limits.tsv" >"$tmp/copy/fuzz/limits.tsv"
if "$tmp/copy/scripts/registry-tables" --check "$serdiff" >"$tmp/tampered.out" 2>&1; then
  echo "scripts/registry-tables --check took a limits.tsv with one max_len changed:"
  cat "$tmp/tampered.out"
  fail=1
fi
[ "$fail" = 0 ] && echo "fuzz limits: $n .options files match the registry; a tampered limits.tsv is refused"
exit "$fail"
