#!/usr/bin/env bash
# Runs every board of the upstream arm64 corpus (../shared/corpus, or
# $BOARDC_SHARED/corpus) through internal/conform's stages and rewrites
# CORPUS.md and corpus.baseline.json from the run. Read the diff before
# committing it: a pass count that went down is a regression to fix, not
# to record. BOARDC_CORPUS_CACHE names where the corpus is extracted
# (default: a directory under $TMPDIR, reused by later runs).
set -euo pipefail
cd "$(dirname "$0")/.."
export BOARDC_CORPUS=full BOARDC_UPDATE=1 BOARDC_REQUIRE_SHARED=1
start=$(date +%s)
go test -count=1 -timeout 90m -run '^TestCorpus$' -v ./internal/conform "$@"
echo "corpus: $(($(date +%s) - start)) s; CORPUS.md and corpus.baseline.json regenerated" >&2
