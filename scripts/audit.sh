#!/usr/bin/env bash
# Runs boardc audit over every board of the upstream arm64 corpus
# (../shared/corpus, or $BOARDC_SHARED/corpus) and writes the JSON report
# to $1 (default $TMPDIR/boardc-audit.json), and the counts per class
# with the wall time on stderr.
# BOARDC_CORPUS_CACHE names where the corpus is extracted (default: a
# directory under $TMPDIR, reused by later runs). It then checks the
# report against the findings the precision sample is drawn from
# (audit/testdata/findings.txt, TestPrecision): a run that finds more or
# less fails. With BOARDC_UPDATE=1 it writes findings.txt from the report
# instead and draws the precision sample (audit/testdata/precision.json)
# again, keeping the verdicts already read: read the new ones before
# committing.
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${BOARDC_SHARED:-../shared}
out=${1:-${TMPDIR:-/tmp}/boardc-audit.json}
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/boardc" ./cmd/boardc
start=$(date +%s)
"$bin/boardc" audit --corpus "$shared/corpus/linux-v7.1-dts-arm64.tar.gz" --format json -o "$out"
echo "audit: $(($(date +%s) - start)) s; $out" >&2
BOARDC_AUDIT_REPORT=$(realpath "$out") go test -count=1 -run '^TestPrecision$' ./audit
