#!/usr/bin/env bash
# The Python driver's known behaviours are not assumed to come together (issue 34): the
# installed driver patched to write a null collection element as null
# (tests/workers/python_driver_null_as_null.py, as sitecustomize on the worker's PYTHONPATH),
# under the shipped name python_cassandra so that it inherits the peer's knowledge:
#  1. as the subject of serdiff check (4 targets, 200 generated cases each, the corpus): 0
#     failures, although inputs mix a null element with a mixed-sign duration, a negative time or
#     a version-4 timeuuid (3.25's other behaviours); as a peer: 0 failures too;
#  2. the same patch writing length -2 for a null element (no known behaviour): check fails with
#     bytes-mismatch on the targets with collections.
# Skips (exit 77) when /usr/bin/python3 lacks the driver.
#   python_driver_versions_test.sh SERDIFF ROOT
set -uo pipefail
serdiff=$(realpath "$1")
root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() {
  echo "python_driver_versions: FAIL: $*"
  exit 1
}
/usr/bin/python3 -c 'import cassandra.cqltypes' 2>/dev/null || {
  echo "python_driver_versions: SKIP: /usr/bin/python3 has no python3-cassandra"
  exit 77
}
mkdir -p "$work/shim"
cp "$root/tests/workers/python_driver_null_as_null.py" "$work/shim/sitecustomize.py"
# manifest NULL_LENGTH: a copy of the shipped manifest, same name, the worker by absolute path.
manifest() {
  /usr/bin/python3 - "$root/oracles/python_cassandra/worker.json" "$work/shim" "$1" <<'PY'
import json, os, sys
src, shim, null_length = sys.argv[1:]
m = json.load(open(src))
m['command'] = ['/usr/bin/python3', os.path.join(os.path.dirname(src), 'worker.py')]
m['env'] = {'PYTHONPATH': shim, 'SERDIFF_TEST_NULL_LENGTH': null_length}
m['origin'] = 'python3-cassandra 3.25 writing a null collection element with length ' + null_length
print(json.dumps(m))
PY
}
manifest -1 >"$work/null.json" || fail "cannot write the manifest"
manifest -2 >"$work/broken.json" || fail "cannot write the manifest"
cd "$work" || exit 1

"$serdiff" --no-workers --worker "$work/null.json" --subject python_cassandra check \
  --failures-dir "$work/f1" >"$work/subject.txt" 2>&1
rc=$?
[ $rc = 0 ] || { grep -E '^(FAIL|serdiff:)' "$work/subject.txt" | head; tail -1 "$work/subject.txt"; fail "as the subject: exit $rc"; }
rows=$(awk '$1 == "python_cassandra" && $3 == "subject" && $5 > $6' "$work/subject.txt" | wc -l)
[ "$rows" = 4 ] || { cat "$work/subject.txt"; fail "the patched driver was not judged on its 4 targets"; }
"$serdiff" --no-workers --worker "$work/null.json" check --filter cql_ \
  --failures-dir "$work/f2" >"$work/peer.txt" 2>&1
rc=$?
[ $rc = 0 ] || { grep -E '^(FAIL|serdiff:)' "$work/peer.txt" | head; fail "as a peer: exit $rc"; }

"$serdiff" --no-workers --worker "$work/broken.json" --subject python_cassandra check \
  --failures-dir "$work/f3" >"$work/broken.txt" 2>&1
rc=$?
[ $rc = 1 ] || { tail -3 "$work/broken.txt"; fail "the broken variant: exit $rc, not 1"; }
grep -q '^FAIL cql_typed_encode: bytes-mismatch' "$work/broken.txt" ||
  { grep '^FAIL' "$work/broken.txt" | sort | uniq -c; fail "the broken variant: no bytes-mismatch on cql_typed_encode"; }
echo "python_driver_versions: null-as-null driver passes as subject and peer; the -2 variant fails ($(grep -c '^FAIL ' "$work/broken.txt") failures)"
