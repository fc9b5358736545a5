#!/usr/bin/env bash
# scripts/nightly-report writes the report.json docs/fuzzing.md documents: on a made-up night
# (one clean target, one that crashed), every key of the written file is a key of the docs'
# example and the reverse (top level, git, machine, load_average, targets[], limits,
# findings[]), values have the example's JSON types where both are set, schema_version is 1,
# and the finding's file and commands use absolute paths. No gnuplot is needed: the test runs
# the report with a PATH that has none, and the report then draws no plot (and says so).
#   nightly_report_test.sh ROOT
set -uo pipefail
root=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() {
  echo "nightly_report: FAIL: $*"
  exit 1
}
run="$work/out/runs/2026-12-01T02:00Z"
mkdir -p "$run/logs" "$work/bin"
cat >"$run/logs/varint_zigzag64.log" <<'LOG'
nightly-flags: -max_len=64 -malloc_limit_mb=1 -rss_limit_mb=2048 -timeout=25
#1000	DONE   cov: 171 ft: 402 corp: 41/900b lim: 64 exec/s: 5000 rss: 61Mb
stat::number_of_executed_units: 1000
stat::average_exec_per_sec:     5000
stat::new_units_added:          3
stat::peak_rss_mb:              61
nightly-exit: 0
nightly-corpus: 41 44
LOG
cat >"$run/logs/bson_decode.log" <<LOG
nightly-flags: -max_len=384 -malloc_limit_mb=4 -rss_limit_mb=2048 -timeout=25
#77	NEW    cov: 900 ft: 1200 corp: 30/2kb lim: 384 exec/s: 700 rss: 80Mb
serdiff: bson_decode: bytes-mismatch:reference
==1== ERROR: libFuzzer: deadly signal
artifact_prefix='$run/findings/bson_decode/'; Test unit written to $run/findings/bson_decode/crash-00aa
nightly-exit: 1
nightly-corpus: 30 30
LOG
# The report runs with a PATH that has no gnuplot (python3 by its full path).
(cd "$work" && PATH=/nonexistent /usr/bin/python3 "$root/scripts/nightly-report" --run "$run" --out "$work/out" \
  --bin-dir "$work/bin" --night 2026-12-01T02:00Z --seconds 30 --wall 61 --jobs 2 \
  --date 2026-12-01T02:00:05Z --finished 2026-12-01T02:01:06Z --commit 0123abcd --dirty 0 \
  --load-start '0.1 0.2 0.3' --load-before '1.0 0.5 0.4' --load-after '2.0 1.5 1.0' \
  varint_zigzag64 bson_decode) >"$work/report.log" 2>&1
rc=$?
[ "$rc" = 1 ] || { cat "$work/report.log"; fail "exit $rc, not 1 (the night had a finding)"; }
[ -f "$work/out/report.json" ] || fail "no report.json written"
grep -q "gnuplot is not installed" "$work/report.log" || { cat "$work/report.log"; fail "no word about the missing gnuplot"; }
/usr/bin/python3 - "$root/docs/fuzzing.md" "$work/out/report.json" <<'PY' || exit 1
import json, re, sys
doc = open(sys.argv[1], encoding="utf-8").read()
sec = doc[doc.index("### `report.json`, schema version 1"):]
example = json.loads(re.search(r"```json\n(.*?)```", sec, re.S).group(1))
got = json.load(open(sys.argv[2], encoding="utf-8"))
bad = []
def same(path, want, have):
    if isinstance(want, dict) and isinstance(have, dict):
        for k in sorted(set(want) | set(have)):
            if k not in have: bad.append(f"{path}.{k}: in the docs' example, not written")
            elif k not in want: bad.append(f"{path}.{k}: written, not in the docs' example")
            else: same(f"{path}.{k}", want[k], have[k])
    elif isinstance(want, list) and isinstance(have, list):
        if want and have and isinstance(want[0], dict): same(path + "[0]", want[0], have[0])
    elif want is not None and have is not None:
        num = (int, float)
        if not (type(want) == type(have) or (isinstance(want, num) and isinstance(have, num)
                and not isinstance(want, bool) and not isinstance(have, bool))):
            bad.append(f"{path}: {type(have).__name__}, the docs' example has {type(want).__name__}")
same("report", example, got)
if got.get("schema_version") != 1: bad.append("schema_version is not 1")
f = got["findings"][0] if got.get("findings") else None
if f is None: bad.append("no finding")
else:
    if f["line"] != "serdiff: bson_decode: bytes-mismatch:reference": bad.append("finding line: " + f["line"])
    if not f["file"].startswith("/"): bad.append("finding file not absolute: " + f["file"])
    for c in f["repro"]:
        if "build/dev/tools/serdiff" in c and "/build/dev/tools/serdiff" not in c: bad.append("relative CLI: " + c)
t = {r["target"]: r for r in got["targets"]}
if t["varint_zigzag64"]["limits"] != {"max_len": 64, "malloc_limit_mb": 1, "rss_limit_mb": 2048, "timeout_s": 25}:
    bad.append("limits: %r" % t["varint_zigzag64"]["limits"])
if (t["varint_zigzag64"]["corpus_before"], t["varint_zigzag64"]["corpus_after"]) != (41, 44): bad.append("corpus counts")
if got["git"] != {"commit": "0123abcd", "dirty": False}: bad.append("git: %r" % got["git"])
for b in bad: print("nightly_report: FAIL: " + b)
sys.exit(1 if bad else 0)
PY
echo "nightly_report: report.json has the documented fields and types"
