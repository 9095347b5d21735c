package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"boardc.dev/boardc"
	"boardc.dev/boardc/compiler/check"
	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/kernel"
	"boardc.dev/boardc/internal/synth"
)

// The summary line counts a board's findings by severity and its checks,
// in the exact words vet and build print.
func TestSummaryLine(t *testing.T) {
	ds := func(sevs ...diag.Severity) diag.List {
		var l diag.List
		for _, s := range sevs {
			l = append(l, diag.Diagnostic{Severity: s})
		}
		return l
	}
	codes := func(n int) []diag.Code { return make([]diag.Code, n) }
	for _, c := range []struct {
		command, path string
		r             *boardc.Result
		hidden        bool
		want          string
	}{
		{"vet", "boards/espressobin", &boardc.Result{Name: "espressobin", Diagnostics: ds(diag.Info, diag.Info, diag.Info), Checks: codes(35)}, true,
			"boardc vet: espressobin: 0 errors, 0 warnings, 3 infos (-v lists them); 35 checks ran"},
		{"vet", "boards/espressobin", &boardc.Result{Name: "espressobin", Diagnostics: ds(diag.Info, diag.Info, diag.Info), Checks: codes(35)}, false,
			"boardc vet: espressobin: 0 errors, 0 warnings, 3 infos; 35 checks ran"},
		{"build", "x", &boardc.Result{Name: "tiny", Diagnostics: ds(diag.Error, diag.Warning, diag.Info), Checks: codes(1)}, false,
			"boardc build: tiny: 1 error, 1 warning, 1 info; 1 check ran"},
		{"vet", "drafts/myboard", &boardc.Result{Name: "myboard", Diagnostics: ds(diag.Error, diag.Error, diag.Warning, diag.Warning), Checks: codes(33), Skipped: codes(2)}, false,
			"boardc vet: myboard: 2 errors, 2 warnings, 0 infos; 33 checks ran, 2 skipped"},
		{"vet", "nosuchdir", &boardc.Result{Diagnostics: ds(diag.Error)}, false,
			"boardc vet: nosuchdir: 1 error, 0 warnings, 0 infos; 0 checks ran"},
	} {
		if got := summaryLine(c.command, c.path, c.r, c.hidden); got != c.want {
			t.Errorf("summaryLine(%q, %q) = %q, want %q", c.command, c.path, got, c.want)
		}
	}
}

// vet ends with a summary line per board on stderr, clean or not; -q
// leaves it out for a clean board; the machine formats print what they
// printed before, and nothing on stderr.
func TestVetSummary(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"clean": synth.Tiny,
		// A master without DMA widths: the error, and the checks that
		// do not need them still run.
		"nodma": strings.Replace(synth.Tiny, "dmaBits: 32\n", "", 1),
	} {
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name, "board.cue"), []byte("package tiny\n"+src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	ran := checksWithoutBase()
	// The checks that read DMA widths do not run on nodma.
	skip := 0
	for _, c := range check.All() {
		if !c.NeedsBase && (!c.NeedsKernel || kernel.Default() != "") && c.Needs&check.FactDMA != 0 {
			skip++
		}
	}
	skipped := strconv.Itoa(ran-skip) + " checks ran, " + strconv.Itoa(skip) + " skipped\n"
	for _, c := range []struct {
		args           []string
		code           int
		stdout, stderr string
	}{
		{[]string{"vet", "clean"}, exitOK, "",
			"boardc vet: tiny: 0 errors, 0 warnings, 0 infos; " + strconv.Itoa(ran) + " checks ran\n"},
		{[]string{"vet", "-q", "clean"}, exitOK, "", ""},
		{[]string{"vet", "--format=json", "clean"}, exitOK, "[]\n", ""},
		{[]string{"vet", "clean", "nodma"}, exitDiags, "",
			"nodma/board.cue:18:17: error: soc.masters.dma0.dma: required field is missing: the master's DMA mask widths, dma: {streaming: N} (or the old dmaBits: N) [BC0004]\n" +
				"boardc vet: tiny: 0 errors, 0 warnings, 0 infos; " + strconv.Itoa(ran) + " checks ran\n" +
				"boardc vet: tiny: 1 error, 0 warnings, 0 infos; " + skipped},
		{[]string{"vet", "-q", "nodma"}, exitDiags, "",
			"nodma/board.cue:18:17: error: soc.masters.dma0.dma: required field is missing: the master's DMA mask widths, dma: {streaming: N} (or the old dmaBits: N) [BC0004]\n" +
				"boardc vet: tiny: 1 error, 0 warnings, 0 infos; " + skipped},
		{[]string{"build", "-o", filepath.Join(dir, "out"), "clean"}, exitOK, "", ""},
		{[]string{"build", "-o", filepath.Join(dir, "out"), "nodma"}, exitDiags, "",
			"nodma/board.cue:18:17: error: soc.masters.dma0.dma: required field is missing: the master's DMA mask widths, dma: {streaming: N} (or the old dmaBits: N) [BC0004]\n" +
				"boardc build: tiny: 1 error, 0 warnings, 0 infos; " + skipped},
	} {
		var stdout, stderr bytes.Buffer
		code := runWith(c.args, &stdout, &stderr)
		if code != c.code || stdout.String() != c.stdout || stderr.String() != c.stderr {
			t.Errorf("boardc %s: exit %d, stdout %q, stderr:\n%s\nwant exit %d, stdout %q, stderr:\n%s",
				strings.Join(c.args, " "), code, stdout.String(), stderr.String(), c.code, c.stdout, c.stderr)
		}
	}
}

// checksWithoutBase returns how many checks run on a whole board without
// a base tree: the driver checks with them where boardc ships a
// catalogue of driver facts.
func checksWithoutBase() int {
	n := 0
	for _, c := range check.All() {
		if !c.NeedsBase && (!c.NeedsKernel || kernel.Default() != "") {
			n++
		}
	}
	return n
}
