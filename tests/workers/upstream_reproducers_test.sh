#!/usr/bin/env bash
# workers.UpstreamReproducers: `serdiff repro --upstream` for every bug row of docs/peers.md
# (pymongo, js_bson, fury, node_cassandra, go_bson, gocql; java_bson's is a heap finding). For
# each row:
#   * the program generated now is byte for byte the one checked in under
#     oracles/<worker>/upstream/ (the one docs/peers.md links);
#   * run as serdiff printed it, it exits 1 against the shipped library (the bug is there) and
#     prints the spec's answer given here by hand (serdiff's reference must agree with it);
#   * where a version without the bug is at hand (pymongo's pure-Python path, js-bson 7 against
#     the 6.10.4 of oracles/node_review), --upstream refuses to write a program there (exit 2:
#     no finding) and the kept program, run against it, exits 0;
# and where nothing is compared nothing is reproduced: a declined input makes --upstream exit 2,
# a program whose package is missing exits 2.
#
#   upstream_reproducers_test.sh SERDIFF_CLI REPO [--write]
#
# --write regenerates the checked-in programs instead of comparing them. Exit 0: every row held;
# 77 (skipped): no node on PATH or no python3-bson; 1: a row failed.
set -euo pipefail
cli=$1
repo=$2
write=${3:-}
command -v node >/dev/null 2>&1 || { echo "skipped: no node on PATH"; exit 77; }
/usr/bin/python3 -c 'import bson' 2>/dev/null || { echo "skipped: python3-bson is not installed"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
failures=0
fail() { echo "upstream_reproducers: FAIL: $*" >&2; failures=$((failures + 1)); }

# {"a": int32 2}: js-bson 6's calculateObjectSize miscount (docs/peers.md); not a failing input of
# the shipped js-bson 7, so it is written here, not kept in corpus/.
(cd "$out" && "$cli" seed bson_encode --value '{"a": int32 2}' --corpus "$out/corpus" >/dev/null)
int32_doc=$(ls "$out/corpus/bson_encode/"*)

# worker | target | input file | environment | the spec's line the program must print | exit
# status against the shipped library | environment of a bug-free version ("-": none)
rows=(
  "pymongo|bson_encode|$repo/corpus/bson_encode/regressions/97e11fd502328a2481927dcc4b01e8aefcdbdc23|-|accepted: {\"hex\": \"1000000005620003000000ff01020300\"}|1|SERDIFF_PYMONGO_PURE_PYTHON=1"
  "pymongo|bson_decode|$repo/corpus/bson_decode/regressions/8857e1bec5ed50593c26a3b17898b1adf51e7199|-|rejected, offset 7: value truncated|1|SERDIFF_PYMONGO_PURE_PYTHON=1"
  "fury|varint_fory_encode|$repo/corpus/varint_fory_encode/regressions/e1cb911284d19749daccbc19b60a2397f82fae97|-|accepted: {\"hex\":\"808080808080808080\"}|1|-"
  "fury|varint_fory_decode|$repo/corpus/varint_fory_decode/regressions/4a3470aca7d56c3bb5e8597769e1218dbfcba352|-|accepted: {\"value\":{\"consumed\":8,\"values\":[\"300\",\"0\",\"0\",\"0\",\"0\",\"0\",\"0\"]}}|1|-"
  "node_cassandra|cql_encode_nested|$repo/corpus/cql_encode_nested/regressions/af54216fe81710c3b62ec75658303baeef912c40|-|accepted: {\"hex\":\"000000010000000400000000\"}|1|-"
  "node_cassandra|cql_encode_nested|$repo/corpus/cql_encode_nested/regressions/ce0b58f1cc7c56ce9db9d6e116c09523c1852893|-|accepted: {\"hex\":\"0001000c000000010000000400000001\"}|1|-"
  "node_cassandra|cql_encode_scalar|$repo/corpus/cql_encode_scalar/regressions/9c6504491457f3b62ad8f12d7c6bdbee5af389ee|-|rejected, ref cql encode: ascii above 127|1|-"
  "js_bson|bson_encode|$int32_doc|SERDIFF_NODE_PACKAGES=$repo/oracles/node_review|accepted: {\"hex\":\"0c0000001061000200000000\"}|1|SERDIFF_NODE_PACKAGES="
)
# The Go peers' rows, where the Go toolchain is installed (scripts/bootstrap installs it).
if command -v go >/dev/null 2>&1; then
  rows+=(
    "go_bson|bson_encode|$repo/corpus/bson_encode/regressions/76c02c14cba8a9ad452ada6440f4f747060f05f2|-|accepted: {\"hex\":\"440000000b28282828282828283a6d6565666c6e6f70626b6f656b6f640061666b6c63766a70737075636c6a6a6267696462746766ff00ff000100000000000000000000\"}|1|-"
    "go_bson|bson_encode|$repo/corpus/bson_encode/regressions/57b7c12232ced11370f2b75a6ee41c1355a71d34|-|accepted: {\"hex\":\"10000000016100000000000000f87f00\"}|1|-"
    "go_bson|bson_decode|$repo/corpus/bson_decode/regressions/d669a2ed84f598126bd83a1747234b23da220f75|-|rejected, offset 16: string without NUL|1|-"
    "go_bson|bson_decode|$repo/corpus/bson_decode/regressions/7837b15d7564cf71704b1244025411f66e438716|-|rejected, offset 12: old binary length|1|-"
    "gocql|cql_encode_nested|$repo/corpus/cql_encode_nested/regressions/5a85f2d75df2c5b7bb67ad1dba92ece8e4c16829|-|rejected, ref cql encode: inet length|1|-"
    "gocql|cql_encode_scalar|$repo/corpus/cql_encode_scalar/regressions/9c6504491457f3b62ad8f12d7c6bdbee5af389ee|-|rejected, ref cql encode: ascii above 127|1|-"
    "gocql|cql_encode_nested|$repo/corpus/cql_encode_nested/8a7fe9bd07c704c4a12d30a5639d2e24bd21d616|-|rejected, ref cql encode: null element in a v1/v2 collection|1|-"
    "gocql|cql_encode_nested|$repo/corpus/cql_encode_nested/regressions/ce0b58f1cc7c56ce9db9d6e116c09523c1852893|-|accepted: {\"hex\":\"0001000c000000010000000400000001\"}|1|-"
    "gocql|cql_encode_nested|$repo/corpus/cql_encode_nested/regressions/93244e8872559a14b088be5c8569744aa2d37dc9|-|accepted: {\"hex\":\"00000001ffffffff\"}|1|-"
    "gocql|cql_encode_nested|$repo/corpus/cql_encode_nested/regressions/301790c15978df7fd1420d4d1d25057b44524c39|-|accepted: {\"hex\":\"00000001ffffffff\"}|1|-"
  )
else
  echo "upstream_reproducers: no go on PATH: the go_bson and gocql rows are not run"
fi
# A heap finding (serdiff.upstream_heap): org.bson 3.6.3 allocates a binary's declared 32 MiB
# before it checks the bytes that remain; both sides reject, the program fails on the heap.
if command -v java >/dev/null 2>&1 && [ -f /usr/share/java/bson.jar ]; then
  rows+=(
    "java_bson|bson_decode|$repo/corpus/bson_decode/regressions/ef9d0ffe25d32b51f09e4b53cb92ec8e76645b09|-|rejected, offset 7: binary too long|1|-"
  )
else
  echo "upstream_reproducers: no java or no /usr/share/java/bson.jar: the java_bson row is not run"
fi

# Writes the reproducer of one row under env $1 into $2; prints the run command serdiff printed.
generate() {
  local env_words=$1 dir=$2 worker=$3 target=$4 input=$5
  local log="$dir.log"
  if ! (cd "$out" && env ${env_words:+"$env_words"} "$cli" repro "$target" "$input" \
      --upstream "$worker" --upstream-dir "$dir") >"$log" 2>&1; then
    cat "$log" >&2
    return 1
  fi
  tail -1 "$log" | sed 's/^  //'
}

n=0
for row in "${rows[@]}"; do
  IFS='|' read -r worker target input env spec status fixed <<<"$row"
  n=$((n + 1))
  [ "$env" = "-" ] && env=""
  name="$target-$worker-$(sha1sum "$input" | cut -c1-12)"
  if ! run=$(generate "$env" "$out/gen$n" "$worker" "$target" "$input"); then
    fail "$worker on $target: serdiff repro --upstream failed"
    continue
  fi
  file=$(ls "$out/gen$n/$name".*)
  kept="$repo/oracles/$worker/upstream/$(basename "$file")"
  if [ "$write" = "--write" ]; then
    mkdir -p "$(dirname "$kept")" && cp "$file" "$kept"
    echo "upstream_reproducers: wrote $kept"
  elif ! cmp -s "$file" "$kept"; then
    fail "$worker on $target: the program generated now differs from $kept (rerun with --write)"
  fi
  rc=0
  (cd "$out" && env ${env:+"$env"} sh -c "$run") >"$out/run$n.log" 2>&1 || rc=$?
  if [ "$rc" != "$status" ]; then
    fail "$worker on $target: '$run' exited $rc, not $status"; cat "$out/run$n.log" >&2
  elif ! grep -qF "): $spec" "$out/run$n.log"; then
    fail "$worker on $target: the program does not print the spec's answer '$spec'"; cat "$out/run$n.log" >&2
  else
    echo "upstream_reproducers: $worker on $target: exit $rc, $(sed -n 1p "$out/run$n.log")"
  fi
  if [ "$fixed" != "-" ]; then
    # With the bug gone there is no finding: --upstream refuses (exit 2)...
    rc=0
    (cd "$out" && env "$fixed" "$cli" repro "$target" "$input" --upstream "$worker" \
      --upstream-dir "$out/fixed$n") >"$out/fixed$n.log" 2>&1 || rc=$?
    if [ "$rc" != 2 ] || ! grep -q "no finding to reproduce" "$out/fixed$n.log"; then
      fail "$worker on $target with $fixed (no bug): --upstream exited $rc, not 2 (no finding)"
      cat "$out/fixed$n.log" >&2
    fi
    # ...and the program kept for the buggy build agrees with the spec there (exit 0).
    rc=0
    case "$worker" in
      pymongo) (cd "$out" && /usr/bin/python3 -c "import sys; sys.modules['bson._cbson'] = None
exec(compile(open(sys.argv[1]).read(), sys.argv[1], 'exec'))" "$kept") >"$out/kept$n.log" 2>&1 || rc=$? ;;
      js_bson) (cd "$out" && env NODE_PATH="$repo/oracles/node/node_modules" node "$kept") >"$out/kept$n.log" 2>&1 || rc=$? ;;
      *) rc=99 ;;
    esac
    if [ "$rc" != 0 ]; then
      fail "$worker on $target: the kept program against the build without the bug exited $rc, not 0"
      cat "$out/kept$n.log" >&2
    else
      echo "upstream_reproducers: $worker on $target without the bug: --upstream exit 2, kept program exit 0"
    fi
  fi
done
# Nothing compared, nothing reproduced: an input the worker declines (a JS Map cannot hold the
# key -0) is refused with exit 2, and a program whose library is missing exits 2, not 1.
(cd "$out" && "$cli" seed cql_encode_nested --value 'v4 payload map<double, int> = {-0: 1}' \
  --corpus "$out/declined" >/dev/null)
rc=0
(cd "$out" && "$cli" repro cql_encode_nested "$out"/declined/cql_encode_nested/* \
  --upstream node_cassandra --upstream-dir "$out/declined-programs") >"$out/declined.log" 2>&1 || rc=$?
if [ "$rc" != 2 ] || ! grep -q "the worker declines this input" "$out/declined.log"; then
  fail "a declined input: --upstream exited $rc, not 2 with the worker's reason"; cat "$out/declined.log" >&2
fi
rc=0
(cd "$out" && env -u NODE_PATH node "$repo/oracles/fury/upstream/varint_fory_encode-fury-e1cb911284d1.js") \
  >"$out/missing.log" 2>&1 || rc=$?
if [ "$rc" != 2 ] || ! grep -q "is not installed here" "$out/missing.log"; then
  fail "a Node program without its package exited $rc, not 2"; cat "$out/missing.log" >&2
fi
# --upstream takes a name and no other repro option.
for args in "--upstream=" "--upstream pymongo --shrink"; do
  rc=0
  (cd "$out" && "$cli" repro bson_encode "$repo/corpus/bson_encode/regressions/97e11fd502328a2481927dcc4b01e8aefcdbdc23" \
    $args) >/dev/null 2>&1 || rc=$?
  [ "$rc" = 2 ] || fail "repro ... $args exited $rc, not 2 (a usage error)"
done
[ "$failures" -eq 0 ] || { echo "upstream_reproducers: $failures failure(s)" >&2; exit 1; }
echo "upstream_reproducers: $n reproducers held"
