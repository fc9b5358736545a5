#!/usr/bin/env bash
# A finding with a worker as the subject reproduces as printed (issue 34): the fuzz entry point
# (the replay binary, run as a fuzz binary is: the input file, the implementations from the
# environment) judges a planted finding, and then every command it printed runs from / in a
# fresh environment (env -i: nothing of this shell's SERDIFF_* reaches it) and fails the same way.
# The planted finding: tests/workers/misbehaving_worker.py --planted, a correct int64 formatter
# except that it writes 18 as "81", named "planted" and made the subject of bson_format_int64.
#  - the report and the shrink exit 1 with the stable line of the fuzz binary;
#  - the shrink keeps the input in corpus/bson_format_int64/regressions/ (removed again at the
#    end), so the printed ctest line then fails on it (ctest exits non-zero and names the
#    corpus replay test);
#  - the fuzz entry point line aborts (exit 134, SIGABRT: a finding under libFuzzer) after the
#    same stable line, as the fuzz entry point itself did.
# Writes into the source tree's corpus for a moment: RUN_SERIAL (tests/CMakeLists.txt).
#   printed_commands_worker_test.sh SERDIFF REPLAY_BINARY ROOT
set -uo pipefail
serdiff=$1
replay=$2
root=$3
work=$(mktemp -d)
regressions="$root/corpus/bson_format_int64/regressions"
had_folder=0
[ -d "$regressions" ] && had_folder=1
before=$(ls "$regressions" 2>/dev/null)
tree=$(dirname "$(dirname "$serdiff")")  # the build tree: <tree>/tools/serdiff
cleanup() {
  # Only what this test added to the shipped corpus is removed; the printed ctest line's build
  # re-globbed the corpus with it, so the tree is built once more to count it without.
  local removed=0
  for f in $(ls "$regressions" 2>/dev/null); do
    grep -qxF "$f" <<<"$before" || { rm -f "$regressions/$f"; removed=1; }
  done
  # A regressions/ folder must not be left empty (CorpusReplay.SeesEveryRegressionFolder).
  [ $had_folder = 1 ] || rmdir "$regressions" 2>/dev/null
  [ $removed = 0 ] || cmake --build "$tree" --target serdiff >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "printed_commands_worker: FAIL: $*"
  exit 1
}
commands_of() {
  awk '/^reproduce:$/ { n++; on = 1; next }
       on && /^  / { if (n == 1) { sub(/   # .*$/, ""); sub(/^  /, ""); print }; next }
       { on = 0 }' "$1"
}
line='serdiff: bson_format_int64: bytes-mismatch:optimized'
/usr/bin/python3 -c 'pass' || fail "no /usr/bin/python3"
cat >"$work/planted.json" <<JSON
{"name": "planted", "command": ["/usr/bin/python3", "$root/tests/workers/misbehaving_worker.py", "--planted"],
 "origin": "tests/workers/misbehaving_worker.py --planted: writes 18 as 81", "targets": ["bson_format_int64"],
 "timeout_ms": 10000, "default": false, "no_decline_edges": "a test worker that declines nothing"}
JSON
input=$("$serdiff" --no-workers seed bson_format_int64 --value 18 --corpus "$work/c") ||
  fail "serdiff seed bson_format_int64 --value 18"
(cd "$work" && SERDIFF_WORKERS="$work/planted.json" SERDIFF_SUBJECT=planted "$replay" \
  bson_format_int64 "$input") >"$work/fuzz.log" 2>&1
rc=$?
[ $rc = 134 ] || { cat "$work/fuzz.log"; fail "the fuzz entry point exited $rc on the planted finding, not 134 (abort)"; }
grep -qxF "$line" "$work/fuzz.log" || { cat "$work/fuzz.log"; fail "no '$line'"; }
mapfile -t cmds < <(commands_of "$work/fuzz.log")
[ ${#cmds[@]} = 4 ] || { cat "$work/fuzz.log"; fail "expected 4 commands (repro, shrink, ctest, replay), got ${#cmds[@]}"; }
# run COMMAND: from /, in an environment holding only PATH and HOME; sets $got.
run() {
  (cd / && env -i PATH="$PATH" HOME="${HOME:-/root}" bash -c "$1") >"$work/out" 2>&1
  got=$?
}
n=0
for c in "${cmds[@]}"; do
  grep -q 'SERDIFF_SUBJECT=planted' <<<"$c" || fail "the subject is not carried: $c"
  grep -q "SERDIFF_WORKERS=$work/planted.json" <<<"$c" || fail "the worker is not carried: $c"
  run "$c"
  case "$c" in
    *"ctest --test-dir "*)
      [ $got != 0 ] || { cat "$work/out"; fail "the ctest line passed with the regression kept: $c"; }
      grep -q 'bson_format_int64\.CorpusReplayPasses.*Failed' "$work/out" ||
        { cat "$work/out"; fail "the ctest line did not fail the corpus replay: $c"; } ;;
    *"/serdiff_fuzz_replay "*)
      [ $got = 134 ] || { cat "$work/out"; fail "exit $got, not 134 (abort): $c"; }
      grep -qxF "$line" "$work/out" || { cat "$work/out"; fail "no '$line' from: $c"; } ;;
    *)
      [ $got = 1 ] || { cat "$work/out"; fail "exit $got, not 1: $c"; }
      grep -qxF "$line" "$work/out" || { cat "$work/out"; fail "no '$line' from: $c"; } ;;
  esac
  n=$((n + 1))
done

# A fuzz build has no CLI: the entry point copied to a tree without tools/ prints lines that
# build the CLI of the source tree first; they too carry the worker and the subject. The report
# line runs (its build is a no-op here); the shrink line would only repeat it.
mkdir -p "$work/tree/fuzz"
cp "$replay" "$work/tree/fuzz/serdiff_fuzz_replay"
(cd "$work" && SERDIFF_WORKERS="$work/planted.json" SERDIFF_SUBJECT=planted \
  "$work/tree/fuzz/serdiff_fuzz_replay" bson_format_int64 "$input") >"$work/fuzz2.log" 2>&1
rc=$?
[ $rc = 134 ] || { cat "$work/fuzz2.log"; fail "the copied entry point exited $rc, not 134"; }
mapfile -t cmds < <(commands_of "$work/fuzz2.log")
[ ${#cmds[@]} = 3 ] || { cat "$work/fuzz2.log"; fail "expected 3 commands without a CLI (repro, shrink, replay), got ${#cmds[@]}"; }
for c in "${cmds[@]}"; do
  grep -q "SERDIFF_SUBJECT=planted SERDIFF_WORKERS=$work/planted.json " <<<"$c" ||
    fail "the subject and worker are not carried to the program: $c"
done
run "${cmds[0]}"
[ $got = 1 ] || { cat "$work/out"; fail "exit $got, not 1: ${cmds[0]}"; }
grep -qxF "$line" "$work/out" || { cat "$work/out"; fail "no '$line' from: ${cmds[0]}"; }
run "${cmds[2]}"
[ $got = 134 ] || { cat "$work/out"; fail "exit $got, not 134: ${cmds[2]}"; }
echo "printed_commands_worker: the fuzz entry point and its $n printed commands fail as printed, the worker subject carried; so does a CLI-less tree's report line"
