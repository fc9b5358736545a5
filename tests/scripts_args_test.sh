#!/usr/bin/env bash
# ctest scripts.ArgumentsChecked: every script of scripts/ answers --help and -h with its
# usage text (stdout, first line `usage: scripts/<name>`, exit 0), and refuses a bad argument
# with exactly one line on stderr, `<name>: <what is wrong> (see --help)`, and exit 2 - before
# doing any work: cmake, ctest, ninja, apt-get, dpkg-query, sudo, gnuplot and unzip are
# replaced by stubs that record their call, and any recorded call fails the test. So does a
# script that takes more than 10 s for an answer.
#
#   bash tests/scripts_args_test.sh [SERDIFF_CLI]
#
# With SERDIFF_CLI (the built tools/serdiff, as ctest passes it), also checks that
# scripts/check knows every option of `serdiff check` (it checks their names before its build).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cli=${1:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/stubs"
for c in cmake ctest ninja apt-get apt dpkg-query sudo gnuplot unzip; do
  printf '#!/bin/sh\necho "%s $*" >>"%s/started"\nexit 97\n' "$c" "$work" >"$work/stubs/$c"
  chmod +x "$work/stubs/$c"
done
export PATH="$work/stubs:$PATH"
# The scripts' environment settings, which the cases below set themselves.
unset OUT LIB_FUZZING_ENGINE SERDIFF_FUZZ_SECONDS SERDIFF_JOBS SERDIFF_SPEED_JOBS \
  SERDIFF_SKIP_BUILD SERDIFF_BUILD_ONLY SERDIFF_DEPS SERDIFF_FUZZ_TREE

failures=0
checks=0
fail() {
  failures=$((failures + 1))
  echo "FAIL: $*"
}
# run ENV... -- SCRIPT ARGS...: runs scripts/SCRIPT from a scratch folder; sets rc, out, err.
run() {
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  local script=$1
  shift
  rc=0
  timeout 10 env -C "$work" "${envs[@]}" "$root/scripts/$script" "$@" \
    >"$work/out" 2>"$work/err" </dev/null || rc=$?
  out=$(<"$work/out")
  err=$(<"$work/err")
}
show() { printf '%s\n' "$1" | head -5 | sed 's/^/    | /'; }

# help SCRIPT FLAG: exit 0, usage text on stdout, nothing on stderr.
help() {
  local script=$1 flag=$2
  checks=$((checks + 1))
  run -- "$script" "$flag"
  if [ "$rc" -ne 0 ]; then
    fail "scripts/$script $flag: exit $rc, not 0"; show "$err"
  elif [[ "${out%%$'\n'*}" != "usage: scripts/$script"* ]]; then
    fail "scripts/$script $flag: the first line of stdout is not 'usage: scripts/$script ...'"
    show "$out"
  elif [ -n "$err" ]; then
    fail "scripts/$script $flag: wrote to stderr"; show "$err"
  fi
}

# refuses [ENV... --] SCRIPT ARGS...: exit 2, one line `<script>: ... (see --help)` on stderr,
# nothing on stdout.
refuses() {
  local envs=()
  if [[ " $* " == *" -- "* ]]; then
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
  fi
  local script=$1 what
  what="${envs[*]:+${envs[*]} }scripts/$*"
  checks=$((checks + 1))
  run "${envs[@]}" -- "$@"
  local lines=0
  [ -z "$err" ] || lines=$(($(tr -cd '\n' <<<"$err" | wc -c)))
  if [ "$rc" -ne 2 ]; then
    fail "$what: exit $rc, not 2"; show "$err"
  elif [ "$lines" -ne 1 ]; then
    fail "$what: $lines lines on stderr, not 1"; show "$err"
  elif [[ "$err" != "$script: "*" (see --help)" ]]; then
    fail "$what: stderr is not '$script: <what is wrong> (see --help)': $err"
  elif [ -n "$out" ]; then
    fail "$what: wrote to stdout"; show "$out"
  fi
}

start=$(date +%s%N)
# Every script: --help, -h, and an option none of them has.
n=0
for path in "$root"/scripts/*; do
  script=$(basename "$path")
  case "$script" in *.cmake) continue ;; esac  # a cmake -P script, not a command
  n=$((n + 1))
  [ -x "$path" ] || { fail "scripts/$script is not executable"; continue; }
  help "$script" --help
  help "$script" -h
  refuses "$script" --no-such-option-xyz
done
[ "$n" -ge 12 ] || fail "only $n scripts found in $root/scripts"

# The cases of issue 21, and the other values each script checks.
refuses bootstrap extra
refuses check --cases
refuses check stray
refuses corpus-printed /nonexistent
refuses corpus-printed build/dev x y
refuses coverage-summary
refuses coverage-summary /nonexistent/summary.json "$root"
refuses fuzz-speed abc
refuses fuzz-speed 0
refuses fuzz-speed 1.5
refuses fuzz-speed 10 no_target_matches_this_xyz
refuses fuzz-speed 10 '('
refuses fuzz-speed 10 . extra
refuses SERDIFF_SPEED_JOBS=0 -- fuzz-speed 10
refuses limits-table --check
refuses registry-tables
refuses registry-tables --check /nonexistent/serdiff
refuses registry-tables --write a b
refuses limits-table --check /nonexistent.md
refuses limits-table --check "$root/README.md"
refuses mutants --fuzz-seconds
refuses mutants --fuzz-seconds 1.5
refuses mutants no_patch_has_this_xyz
refuses nightly --minutes
refuses nightly --minutes 0.5
refuses nightly --minutes 0
refuses nightly --jobs x
refuses nightly --keep-nights 0
refuses nightly --keep-nights
refuses nightly --filter no_target_matches_this_xyz
refuses nightly --filter '('
refuses nightly --out
refuses nightly-report
refuses nightly-report --run r --out o --bin-dir b --night n --seconds abc --wall 1 --jobs 1 t
refuses oss-fuzz-build
refuses OUT=/nonexistent/out -- oss-fuzz-build
refuses OUT=/nonexistent/out LIB_FUZZING_ENGINE=-fsanitize=fuzzer SERDIFF_JOBS=0 -- oss-fuzz-build
refuses oss-fuzz-build extra
refuses oss-fuzz-check
refuses oss-fuzz-check bogus
refuses oss-fuzz-check address abc
refuses oss-fuzz-check address -1
refuses oss-fuzz-check address 5 extra
refuses SERDIFF_FUZZ_SECONDS=1.5 -- oss-fuzz-check address
refuses SERDIFF_DEPS=bogus -- oss-fuzz-check address
refuses oss-fuzz-ldd
refuses oss-fuzz-ldd /nonexistent/binary
refuses test bogus-preset
refuses test dev bogus-preset
refuses SERDIFF_FUZZ_SECONDS=x -- test dev

# scripts/check checks option names before building: it must know every option of the CLI.
if [ -n "$cli" ]; then
  if [ ! -x "$cli" ]; then
    fail "no serdiff CLI at $cli"
  else
    known=0
    # CLI11's help: "  --cases INT:NONNEGATIVE=200 ..." (an option with a value: its type in
    # capitals) or "  --flag   what it does" (a flag).
    while read -r opt rest; do
      [ "$opt" = --help ] && continue
      known=$((known + 1))
      if [[ "$rest" =~ ^[A-Z] ]]; then
        checks=$((checks + 1))
        run -- check "$opt"
        [ "$rc" -eq 2 ] && [ "$err" = "check: $opt needs a value (see --help)" ] ||
          fail "scripts/check does not know '$opt' of serdiff check (exit $rc: $err)"
      else
        fail "serdiff check has a flag $opt: scripts/check knows only options with a value"
      fi
    done < <("$cli" check --help | sed -nE 's/^ +(-[a-zA-Z],)?(--[a-z0-9-]+)(.*)$/\2 \3/p')
    [ "$known" -gt 0 ] || fail "found no option in '$cli check --help'"
  fi
fi

if [ -s "$work/started" ]; then
  fail "a script started work before checking its arguments ($(wc -l <"$work/started") calls):"
  sort -u "$work/started" | head -10 | cut -c1-160 | sed 's/^/    | /'
fi
ms=$((($(date +%s%N) - start) / 1000000))
echo "scripts.ArgumentsChecked: $checks checks of $n scripts, $failures failed ($ms ms)"
[ "$failures" -eq 0 ]
