#!/usr/bin/env bash
# The replay binary (fuzz/replay_main.cc: the fuzz entry point without libFuzzer, which replays
# the corpus in the ordinary suite) judges every input in full: it reruns every implementation,
# not a sample of the inputs as a fuzz binary does (RunConfig::rerun_one_in, whatever
# SERDIFF_RERUN_ONE_IN says), and asks a worker peer for its peak (RunConfig::peer_peaks). The
# peer: tests/workers/misbehaving_worker.py, which answers 48 as "48" and then as "84", with a
# peak of 480 bytes, attached to bson_format_int64 (op int64.to_decimal).
#   replay_judges_in_full_test.sh SERDIFF REPLAY_BINARY ROOT
set -uo pipefail
serdiff=$1
replay=$2
root=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() {
  echo "replay_judges_in_full: FAIL: $*"
  exit 1
}
cat >"$work/misbehaving.json" <<JSON
{"name": "misbehaving", "command": ["/usr/bin/python3", "$root/tests/workers/misbehaving_worker.py"],
 "origin": "tests/workers/misbehaving_worker.py", "targets": ["bson_format_int64"],
 "timeout_ms": 10000, "default": false, "no_decline_edges": "a test worker"}
JSON
input=$("$serdiff" --no-workers seed bson_format_int64 --value 48 --corpus "$work/c") ||
  fail "serdiff seed bson_format_int64 --value 48"
SERDIFF_DEFAULT_WORKERS=0 SERDIFF_WORKERS="$work/misbehaving.json" SERDIFF_RERUN_ONE_IN=1000000 \
  "$replay" bson_format_int64 "$input" >"$work/log" 2>&1
rc=$?
[ $rc = 134 ] || { cat "$work/log"; fail "the replay exited $rc on a peer's nondeterministic answer, not 134 (abort)"; }
grep -qxF 'serdiff: bson_format_int64: nondeterministic:misbehaving' "$work/log" ||
  { cat "$work/log"; fail "no stable line naming the peer's second answer"; }
grep -qF 'misbehaving 480 bytes (reported by the worker)' "$work/log" ||
  { cat "$work/log"; fail "the peer's peak (480 bytes) is not in the report"; }
# An input the peer answers alike twice passes, its peak asked for too.
input=$("$serdiff" --no-workers seed bson_format_int64 --value 7 --corpus "$work/c") ||
  fail "serdiff seed bson_format_int64 --value 7"
SERDIFF_DEFAULT_WORKERS=0 SERDIFF_WORKERS="$work/misbehaving.json" "$replay" bson_format_int64 "$input" \
  >"$work/log7" 2>&1 || { cat "$work/log7"; fail "the replay failed an input the peer answers right"; }
grep -qxF 'bson_format_int64: replayed 1 inputs without a failure' "$work/log7" ||
  { cat "$work/log7"; fail "the replay of one right input did not say so"; }
echo "replay_judges_in_full: a peer's second answer is compared on every input, its peak asked for"
