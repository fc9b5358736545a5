#!/usr/bin/env bash
# Every command a failure report prints runs as printed: from another directory, with the exit
# code it promises (harness/shrink.h, ReproCommands). Two reports are followed:
#  1. a failing self-test target (serdiff --selftest check, relative --failures-dir): each
#     printed repro command, and the summary's FAIL line, exits 1 and names the failure;
#  2. a real target's passing corpus input (serdiff repro --commands, relative file): repro
#     exits 0, the shrink exits 2 (nothing to shrink) and writes nothing, the ctest line runs
#     the target's two corpus replay tests (it fails when it runs none), the replay binary
#     replays the one input.
# OSS-Fuzz's infra/helper.py needs Docker and an OSS-Fuzz checkout: it must not be printed here
# (this build is no OSS-Fuzz build), which is checked instead.
#   printed_commands_test.sh SERDIFF ROOT
set -uo pipefail
serdiff=$1
root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() {
  echo "printed_commands: FAIL: $*"
  exit 1
}
# The commands of the first "reproduce:" block of file $1, without their comments.
commands_of() {
  awk '/^reproduce:$/ { n++; on = 1; next }
       on && /^  / { if (n == 1) { sub(/   # .*$/, ""); sub(/^  /, ""); print }; next }
       { on = 0 }' "$1"
}
# run EXPECTED_EXIT COMMAND: runs it with bash from / and checks the exit code.
run() {
  local want=$1 cmd=$2 got
  (cd / && bash -c "$cmd") >"$work/out" 2>&1
  got=$?
  [ "$got" = "$want" ] || { cat "$work/out"; fail "exit $got, not $want: $cmd"; }
}

# --- 1. a failing self-test target ---
mkdir -p "$work/a"
(cd "$work/a" && "$serdiff" --selftest check --filter selftest_two_bugs --cases 50 \
  --failures-dir failures) >"$work/check.log" 2>&1
[ $? = 1 ] || { cat "$work/check.log"; fail "the self-test check did not fail (exit 1)"; }
mapfile -t cmds < <(commands_of "$work/check.log")
[ ${#cmds[@]} = 2 ] || { cat "$work/check.log"; fail "expected 2 commands for a self-test target, got ${#cmds[@]}"; }
# The summary's line under FAIL is a command too.
summary=$(sed -n '/^FAIL selftest_two_bugs: /{n;s/^  //p;q}' "$work/check.log")
[ -n "$summary" ] || fail "no command under the summary's FAIL line"
for c in "${cmds[@]}" "$summary"; do
  case "$c" in /*) ;; *) fail "does not start with an absolute path: $c" ;; esac
  grep -q -- "$work/a/failures/selftest_two_bugs/" <<<"$c" || fail "the file is not absolute: $c"
  run 1 "$c"
  grep -q '^serdiff: selftest_two_bugs: ' "$work/out" || { cat "$work/out"; fail "no serdiff: line from: $c"; }
done

# --- 2. a real target's passing input ---
seed=$(find "$root/corpus/varint_zigzag64" -maxdepth 1 -type f | sort | head -1)
[ -n "$seed" ] || fail "no seed in corpus/varint_zigzag64"
cp "$seed" "$work/seed-1"
(cd "$work" && "$serdiff" repro --commands varint_zigzag64 seed-1) >"$work/repro.log" 2>&1 ||
  { cat "$work/repro.log"; fail "serdiff repro --commands of a seed did not pass"; }
mapfile -t cmds < <(commands_of "$work/repro.log")
[ ${#cmds[@]} = 4 ] || { cat "$work/repro.log"; fail "expected 4 commands (repro, shrink, ctest, replay), got ${#cmds[@]}"; }
grep -q 'helper.py' "$work/repro.log" && fail "helper.py printed by a build that is no OSS-Fuzz build"
before=$(find "$root/corpus/varint_zigzag64" -type f | wc -l)
for c in "${cmds[@]}"; do
  case "$c" in
    *" repro --shrink --emit-regression "*)
      run 2 "$c"
      grep -q "there is nothing to shrink" "$work/out" || { cat "$work/out"; fail "the shrink of a passing input did not say so"; } ;;
    *" repro "*) run 0 "$c" ;;
    "cmake --build "*" && "*"ctest --test-dir "*)
      run 0 "$c"
      grep -q "0 tests failed out of 2$" "$work/out" || { cat "$work/out"; fail "the ctest line did not run the 2 replay tests: $c"; } ;;
    *)
      run 0 "$c"
      grep -q "^varint_zigzag64: replayed 1 inputs without a failure$" "$work/out" ||
        { cat "$work/out"; fail "the replay binary did not replay the input: $c"; } ;;
  esac
done
after=$(find "$root/corpus/varint_zigzag64" -type f | wc -l)
[ "$before" = "$after" ] || fail "a command wrote into corpus/varint_zigzag64"

# --- 3. a copy of the CLI outside any build tree (an install, a copy a user took): it names
# itself in its commands (it printed an empty block before 2026-12-07) ---
mkdir -p "$work/copy"
cp "$serdiff" "$work/copy/serdiff-copy"
(cd "$work" && "$work/copy/serdiff-copy" repro --commands varint_zigzag64 seed-1) \
  >"$work/copy.log" 2>&1 || { cat "$work/copy.log"; fail "the copy's repro did not pass"; }
mapfile -t copied < <(commands_of "$work/copy.log")
[ ${#copied[@]} = 2 ] || { cat "$work/copy.log"; fail "expected 2 commands from a copy (repro, shrink), got ${#copied[@]}"; }
for c in "${copied[@]}"; do
  case "$c" in
    "$work/copy/serdiff-copy repro --shrink "*) run 2 "$c" ;;
    "$work/copy/serdiff-copy repro "*) run 0 "$c" ;;
    *) fail "a copy's command does not name the copy: $c" ;;
  esac
done
echo "printed_commands: every printed command ran as printed (selftest 3, varint_zigzag64 4, a copy 2)"
