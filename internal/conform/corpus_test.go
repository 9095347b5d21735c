package conform_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boardc.dev/boardc/internal/conform"
	"boardc.dev/boardc/internal/testtool"
)

// repoRoot is the repository's root, from this package's directory.
const repoRoot = "../.."

// The files a full run regenerates, at the repository's root.
const (
	reportFile   = "CORPUS.md"
	baselineFile = "corpus.baseline.json"
)

// tarball returns the corpus tarball, ../shared/corpus/ beside the
// repository or $BOARDC_SHARED/corpus/. Where it is absent the test
// skips naming the path, and fails under BOARDC_REQUIRE_SHARED=1, as
// testtool.RequireShared does for the reference trees.
func tarball(t *testing.T) string {
	t.Helper()
	shared := filepath.Join(repoRoot, "..", "shared")
	if e := os.Getenv("BOARDC_SHARED"); e != "" {
		shared = e
	}
	p := filepath.Join(shared, "corpus", conform.Tarball)
	if _, err := os.Stat(p); err != nil {
		what := p + " is not present (the upstream arm64 corpus; set BOARDC_SHARED to the directory holding corpus/)"
		if os.Getenv("BOARDC_REQUIRE_SHARED") == "1" {
			t.Fatal(what + " (BOARDC_REQUIRE_SHARED=1)")
		}
		t.Skip(what)
	}
	return p
}

// kernelSource returns the kernel parts the corpus lacks
// (conform.OpenKernel), from $BOARDC_CORPUS_KSRC or the archive
// linux-source-6.12 installs, skipping or failing the test as a missing
// tool does when the archive or a tool that builds dtc is missing.
func kernelSource(t *testing.T) *conform.Kernel {
	t.Helper()
	archive := os.Getenv(conform.KernelEnv)
	if archive == "" {
		archive = conform.DefaultKernel
	}
	if _, err := os.Stat(archive); err != nil {
		testtool.Missing(t, archive+" is not present (the arm and riscv device trees and the dtc the corpus's boards need; or set "+conform.KernelEnv+")", "linux-source-6.12")
	}
	for name, pkg := range conform.KernelTools {
		testtool.Look(t, name, pkg)
	}
	k, err := conform.OpenKernel(archive)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestCorpus runs the corpus, the sample (conform.Sample) by default
// or every board with BOARDC_CORPUS=full, and fails when a stage passes
// on fewer boards than corpus.baseline.json says. With BOARDC_UPDATE=1
// it records the run instead: the sample's counts, or with
// BOARDC_CORPUS=full CORPUS.md and both counts (scripts/corpus.sh).
func TestCorpus(t *testing.T) {
	tb := tarball(t)
	testtool.Look(t, "cpp", "cpp")
	testtool.Look(t, "dtc", "device-tree-compiler")
	t.Setenv("CUE_REGISTRY", "none")
	mode := os.Getenv("BOARDC_CORPUS")
	if mode != "" && mode != "full" && mode != "sample" {
		t.Fatalf("BOARDC_CORPUS=%q: want full or sample", mode)
	}
	full := mode == "full"
	update := os.Getenv("BOARDC_UPDATE") == "1"

	cp, err := conform.Open(tb)
	if err != nil {
		t.Fatal(err)
	}
	if cp, err = cp.WithKernel(kernelSource(t)); err != nil {
		t.Fatal(err)
	}
	sample := conform.Sample(cp.Boards)
	boards := sample
	if full {
		boards = cp.Boards
	}
	o := conform.Options{}
	if testing.Verbose() {
		o.Progress = os.Stderr
	}
	run, err := cp.Run(boards, o)
	if err != nil {
		t.Fatal(err)
	}
	got := conform.CountsOf(run.Results)
	t.Logf("%d boards: %v wall, %v CPU, load %s .. %s; pass %v", len(boards), run.Wall.Round(time.Millisecond), run.CPU.Round(time.Millisecond), run.Load[0], run.Load[1], got.Pass)

	basePath := filepath.Join(repoRoot, baselineFile)
	var base conform.Baseline
	if b, err := os.ReadFile(basePath); err == nil {
		if err := json.Unmarshal(b, &base); err != nil {
			t.Fatalf("%s: %v", basePath, err)
		}
	} else if !update {
		t.Fatalf("%s: %v (regenerate it with %s)", basePath, err, conform.Command)
	}
	sampleGot := conform.CountsOf(conform.Of(run.Results, sample))
	if update {
		base.Sample = sampleGot
		if full {
			base.Full = got
			rel := filepath.Base(filepath.Dir(tb)) + "/" + filepath.Base(tb)
			if err := os.WriteFile(filepath.Join(repoRoot, reportFile), conform.Report(run, sample, rel), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(basePath, conform.MarshalBaseline(base), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}

	check := func(name string, want, got conform.Counts, results []conform.Result) {
		if want.Boards != got.Boards {
			t.Errorf("%s: %d boards, the baseline has %d: the corpus or the sample changed; regenerate with %s", name, got.Boards, want.Boards, conform.Command)
			return
		}
		for _, line := range conform.Regressions(want, got) {
			t.Errorf("%s: %s", name, line)
		}
		if t.Failed() {
			t.Logf("the failures of this run:\n%s", failures(results))
		}
	}
	check("sample", base.Sample, sampleGot, conform.Of(run.Results, sample))
	if full {
		check("full", base.Full, got, run.Results)
	}
}

// failures lists each board's failed stages with their detail.
func failures(results []conform.Result) string {
	var b strings.Builder
	for _, r := range results {
		for s, o := range r.Stages {
			if o.Ran && !o.Pass {
				fmt.Fprintf(&b, "  %s %s: %s\n", r.Board, conform.Stage(s), o.Detail)
			}
		}
	}
	return b.String()
}
