#!/usr/bin/env bash
# fuzz.LimitsMatchTheRegistry: fuzz/limits.tsv and every <target>.options the build wrote are
# what the registry says (TargetDef::fuzz_limits; `serdiff list --emit ...`), and the check
# refuses a copy of limits.tsv with one number changed (so it can fail).
# usage: fuzz_limits_test.sh <serdiff> <source dir> <build dir's fuzz/ folder>
set -uo pipefail
serdiff=$1 src=$2 fuzzdir=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

"$serdiff" list --emit limits-tsv >"$tmp/limits.tsv" || { echo "serdiff list --emit failed"; exit 1; }
compare_tsv() {  # <file>: 0 when equal to the registry's
  diff -u "$1" "$tmp/limits.tsv" >"$tmp/diff" && return 0
  return 1
}
if ! compare_tsv "$src/fuzz/limits.tsv"; then
  echo "fuzz/limits.tsv differs from the registry (- file, + registry); regenerate it with"
  echo "  build/dev/tools/serdiff list --emit limits-tsv > fuzz/limits.tsv"
  cat "$tmp/diff"
  fail=1
fi

"$serdiff" list --emit options >"$tmp/options" || { echo "serdiff list --emit options failed"; exit 1; }
awk -v d="$tmp/opt" 'BEGIN { system("mkdir -p " d) } /^== / { f = d "/" $2; next } { print > f }' "$tmp/options"
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

# The check must be able to fail: one max_len changed.
awk -F'\t' 'BEGIN { OFS = "\t" } !/^#/ && !done { $2 = $2 + 1; done = 1 } { print }' \
  "$src/fuzz/limits.tsv" >"$tmp/tampered.tsv"
if compare_tsv "$tmp/tampered.tsv"; then
  echo "a limits.tsv with one max_len changed was not refused"
  fail=1
fi
[ "$fail" = 0 ] && echo "fuzz limits: limits.tsv and $n .options files match the registry"
exit "$fail"
