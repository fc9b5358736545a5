#!/bin/bash -eu
# OSS-Fuzz build: all logic (dependencies from $SRC, fuzz targets, options, dictionaries,
# seed corpora) lives in the repository's scripts/oss-fuzz-build.
"$SRC/serdiff/scripts/oss-fuzz-build"
