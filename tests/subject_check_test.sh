#!/usr/bin/env bash
# A shipped worker as the subject (issue 34): `serdiff --subject NAME check` at the default case
# count must exit 0 (its accepted divergences and declines apply as the subject, its manifest's
# heap_slack covers what its runtime's measurement counts), and it must have been judged: on
# every target it declares, it answered at least one case instead of declining (a worker whose
# runtime is missing declines everything, which would pass without proving anything).
#   subject_check_test.sh SERDIFF NAME
set -uo pipefail
serdiff=$(realpath "$1")
name=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
"$serdiff" --subject "$name" check --failures-dir "$work/failures" >"$work/out.txt" 2>&1
rc=$?
if [ $rc -ne 0 ]; then
  grep -E '^(FAIL|serdiff:|  .* repro )' "$work/out.txt" | head -20 | cut -c1-240
  tail -3 "$work/out.txt"
  echo "subject_check: FAIL: serdiff --subject $name check exited $rc"
  exit 1
fi
# The implementations table: "NAME TARGET subject worker CALLS DECLINED REJECTED PEAK".
rows=$(awk -v n="$name" '$1 == n && $3 == "subject" { print $2, $5, $6 }' "$work/out.txt")
[ -n "$rows" ] || { cat "$work/out.txt"; echo "subject_check: FAIL: no subject rows for $name"; exit 1; }
status=0
while read -r target calls declined; do
  if [ "$calls" -le "$declined" ]; then
    echo "subject_check: FAIL: $name declined all $calls calls on $target (not judged)"
    grep -m3 -i 'declin' "$work/out.txt" | cut -c1-240
    status=1
  else
    echo "subject_check: $name on $target: $calls calls, $declined declined"
  fi
done <<<"$rows"
tail -1 "$work/out.txt"
exit $status
