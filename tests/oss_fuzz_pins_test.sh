#!/usr/bin/env bash
# The OSS-Fuzz build's three lists of dependencies agree: each Dockerfile (oss-fuzz/,
# .clusterfuzzlite/) clones exactly the folders scripts/oss-fuzz-build builds, and the tags
# it clones are the upstream versions whose Debian source packages scripts/oss-fuzz-check
# builds in their place (protobuf's tag v21.12 is its version 3.21.12; Debian's fmtlib is
# repacked as 9.1.0+ds1).
#   oss_fuzz_pins_test.sh ROOT
set -uo pipefail
root=$1
fail() {
  echo "oss_fuzz_pins: FAIL: $*"
  exit 1
}
built=$(sed -nE 's/^ *build_dep ([a-z0-9-]+).*/\1/p' "$root/scripts/oss-fuzz-build" | sort | tr '\n' ' ')
[ -n "$built" ] || fail "no build_dep line in scripts/oss-fuzz-build"
for d in oss-fuzz .clusterfuzzlite; do
  f="$root/$d/Dockerfile"
  cloned=$(grep -oE 'https://github.com/[^ ]+\.git' "$f" | sed -E 's|.*/([^/]+)\.git$|\1|' |
    grep -v '^serdiff$' | sort | tr '\n' ' ')
  [ "$cloned" = "$built" ] || fail "$d/Dockerfile clones '$cloned', scripts/oss-fuzz-build builds '$built'"
done
# The emulation's Debian stand-ins: "<package> <version> <folder>".
mapfile -t entries < <(sed -nE 's/^  "([a-z0-9-]+) ([^ ]+) ([a-z0-9-]+)"$/\1 \2 \3/p' "$root/scripts/oss-fuzz-check")
[ ${#entries[@]} -gt 0 ] || fail "no Debian source list in scripts/oss-fuzz-check"
n=0
for e in "${entries[@]}"; do
  read -r pkg version folder <<<"$e"
  for d in oss-fuzz .clusterfuzzlite; do
    tag=$(grep -oE -- "--branch [^ ]+ https://github.com/[^ ]+/$folder\.git" "$root/$d/Dockerfile" |
      awk '{print $2}')
    [ -n "$tag" ] || fail "$d/Dockerfile does not clone $folder at a tag"
    want=${tag#v}
    [ "$folder" = protobuf ] && want="3.$want"
    [ "${version%%+*}" = "$want" ] || fail "$folder: $d/Dockerfile's tag $tag is not Debian's $pkg $version"
  done
  n=$((n + 1))
done
echo "oss_fuzz_pins: the Dockerfiles clone what oss-fuzz-build builds ($built); $n Debian stand-ins match their tags"
