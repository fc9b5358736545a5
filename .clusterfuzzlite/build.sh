#!/bin/bash -eu
# ClusterFuzzLite build: all logic lives in the repository's scripts/oss-fuzz-build.
"$SRC/serdiff/scripts/oss-fuzz-build"
