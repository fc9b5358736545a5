#!/usr/bin/env bash
# The bug class of issue 19, caught by the tool: the Python driver's list<int> serializer as the
# SUBJECT of cql_encode_large on 500,000 values (docs/workers.md).
#  1. as installed (python3-cassandra's compiled cqltypes): bytes equal to serdiff's, and its
#     reported peak (tracemalloc, ~1.085 x output) within the bound: repro exits 0;
#  2. the join variant (oracles/python_cassandra/worker_join.json: each element's fragments kept
#     in a list and b"".join-ed, as that optimization did): heap-bound, both peaks in the report;
#  3. repro --shrink reduces it to the smallest list that still breaks the bound: the shrunk
#     count N fails with the same line and a list 2 % shorter passes (the worker's reported peak
#     varies by some tens of bytes between calls, a fraction of one element's ~259 bytes, so the
#     threshold itself is only known to an element or so).
# Skips (exit 77) when /usr/bin/python3 lacks the driver.
#   python_driver_heap_test.sh SERDIFF ROOT
set -uo pipefail
serdiff=$1
root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT; [ -n "${KEEP:-}" ] && trap - EXIT
fail() {
  echo "python_driver_heap: FAIL: $*"
  exit 1
}
/usr/bin/python3 -c 'import cassandra.cqltypes' 2>/dev/null || {
  echo "python_driver_heap: SKIP: /usr/bin/python3 has no python3-cassandra"
  exit 77
}
spec='list<int> count=500000 nulls=0% text_len=0 seed=1 v4'
input=$("$serdiff" --no-workers seed cql_encode_large --value "$spec" --corpus "$work/c") ||
  fail "seed --value '$spec'"
installed=("$serdiff" --no-workers --worker "$root/oracles/python_cassandra/worker_large.json"
  --subject python_cassandra)
join=("$serdiff" --no-workers --worker "$root/oracles/python_cassandra/worker_join.json"
  --subject python_cassandra_join)

"${installed[@]}" repro cql_encode_large "$input" >"$work/installed.txt" 2>&1
rc=$?
[ $rc -eq 0 ] || { cat "$work/installed.txt" | cut -c1-200; fail "installed driver: repro exited $rc"; }
grep -q '^subject: python_cassandra$' "$work/installed.txt" || fail "installed: no subject line"
peak=$(sed -nE 's/^peak heap: python_cassandra ([0-9]+) bytes \(reported by the worker\) \(bound ([0-9]+)\).*/\1 \2/p' \
  "$work/installed.txt")
[ -n "$peak" ] || fail "installed: no reported peak with its bound"
read -r p b <<<"$peak"
[ "$p" -gt 4000004 ] && [ "$p" -le "$b" ] ||
  fail "installed: peak $p not in (output 4000004, bound $b]"
echo "python_driver_heap: installed driver: peak $p bytes, bound $b: pass"

"${join[@]}" repro cql_encode_large "$input" >"$work/join.txt" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "join variant: repro exited $rc, not 1"
grep -q '^serdiff: cql_encode_large: heap-bound:python_cassandra_join$' "$work/join.txt" ||
  fail "join variant: no 'serdiff: cql_encode_large: heap-bound:python_cassandra_join' line"
jp=$(sed -nE 's/^peak heap: python_cassandra_join ([0-9]+) bytes .*, optimized ([0-9]+) bytes.*/\1 \2/p' \
  "$work/join.txt")
[ -n "$jp" ] || fail "join variant: the report does not show both peaks"
read -r jpeak opeak <<<"$jp"
[ "$jpeak" -gt $((20 * 4000004)) ] || fail "join variant: peak $jpeak, expected > 20 x output"
echo "python_driver_heap: join variant: peak $jpeak bytes (optimized $opeak): heap-bound"

"${join[@]}" repro --shrink --shrink-dir "$work/shrunk" cql_encode_large "$input" >"$work/shrink.txt" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "shrink: exited $rc, not 1"
after=$(sed -nE 's/^  after:  (list<int> count=([0-9]+) .*)$/\2/p' "$work/shrink.txt")
[ -n "$after" ] || fail "shrink: no 'after: list<int> count=N' line"
[ "$after" -lt 5000 ] || fail "shrink: stopped at count $after"
grep -q '^serdiff: cql_encode_large: heap-bound:python_cassandra_join$' "$work/shrink.txt" ||
  fail "shrink: the shrunk input does not fail the same way"
shown=$(sed -nE 's/^  after:  (.*)$/\1/p' "$work/shrink.txt")
fewer=$((after - (after / 50 > 2 ? after / 50 : 2)))
less="${shown/count=$after /count=$fewer }"
below=$("$serdiff" --no-workers seed cql_encode_large --value "$less" --corpus "$work/c2") ||
  fail "seed --value '$less'"
"${join[@]}" repro cql_encode_large "$below" >"$work/below.txt" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "a list 2 % shorter ($less) still fails (exit $rc): not the smallest"
echo "python_driver_heap: shrunk to count=$after (count=$fewer passes)"
echo "python_driver_heap: 3 passed, 0 failed"
