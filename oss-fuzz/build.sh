#!/bin/bash -eu
# ClusterFuzzLite build: all logic lives in scripts/oss-fuzz-build.
"$SRC/serdiff/scripts/oss-fuzz-build"
