#!/usr/bin/env bash
# scripts/oss-fuzz-ldd, the run-time check of scripts/oss-fuzz-check: it must fail on a binary
# that links a shared library the OSS-Fuzz runner image lacks (the dev CLI links Debian's
# shared Abseil, libbson and fmt), naming the library, and pass a binary that needs only the C
# library (compiled here).
#   oss_fuzz_ldd_test.sh ROOT SHARED_BINARY
set -uo pipefail
root=$1
shared=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() {
  echo "oss_fuzz_ldd: FAIL: $*"
  exit 1
}
check="$root/scripts/oss-fuzz-ldd"

"$check" "$shared" >"$work/shared.log" 2>&1
rc=$?
[ "$rc" = 1 ] || { cat "$work/shared.log"; fail "exit $rc on $shared, not 1"; }
grep -qE "^oss-fuzz-ldd: $shared: needs .*libabsl_[a-z_]+\.so\.[0-9]+.* \(not on the runner image" \
  "$work/shared.log" || { cat "$work/shared.log"; fail "the shared Abseil is not named"; }
grep -q "^oss-fuzz-ldd: 1 binaries checked, 1 need libraries the runner lacks$" "$work/shared.log" ||
  { cat "$work/shared.log"; fail "no summary line"; }

printf '#include <math.h>\n#include <stdio.h>\nint main(int c, char** v) { (void)v; printf("%%f\\n", sqrt(c)); return 0; }\n' >"$work/plain.c"
cc -o "$work/plain" "$work/plain.c" -lm || fail "cannot compile the plain C program"
"$check" "$work/plain" >"$work/plain.log" 2>&1 || { cat "$work/plain.log"; fail "a C-library-only binary was refused"; }
grep -q "^oss-fuzz-ldd: 1 binaries checked, 0 need libraries the runner lacks$" "$work/plain.log" ||
  { cat "$work/plain.log"; fail "no summary line for the plain binary"; }

# Both at once: one bad of two; and a usage error.
"$check" "$work/plain" "$shared" >/dev/null 2>&1
[ $? = 1 ] || fail "one bad binary of two did not fail the check"
"$check" "$root/scripts/oss-fuzz-ldd" >"$work/script.log" 2>&1
[ $? = 1 ] || fail "a script (not an ELF binary) passed"
grep -q "not an ELF binary" "$work/script.log" || fail "a script was not called 'not an ELF binary'"
"$check" >/dev/null 2>&1
[ $? = 2 ] || fail "no argument is not a usage error (2)"
"$check" "$work/missing" >/dev/null 2>&1
[ $? = 2 ] || fail "a missing file is not a usage error (2)"
echo "oss_fuzz_ldd: refuses the shared build, passes the C-library-only binary"
