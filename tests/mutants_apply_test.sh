#!/usr/bin/env bash
# Every mutant in mutants/ still applies to the tree as it is (patch -p1 --dry-run, as
# scripts/mutants applies it) and says what it is (a "# mutant:" line): a patch whose context
# moved is a mutant nobody runs any more, a hole in the catalog that no other test would show
# (four had gone stale this way when this test was written, 2026-12-05).
#   mutants_apply_test.sh SOURCE_DIR
set -uo pipefail
cd "$1" || exit 2
status=0
count=0
for p in $(find mutants -name '*.patch' | sort); do
  count=$((count + 1))
  if ! grep -q '^# mutant: ' "$p"; then
    echo "mutants_apply: $p has no '# mutant:' line"
    status=1
  fi
  if ! out=$(patch -s -p1 --dry-run <"$p" 2>&1); then
    echo "mutants_apply: $p does not apply:"
    echo "$out" | head -3
    status=1
  fi
done
echo "mutants_apply: $count patches checked"
exit $status
