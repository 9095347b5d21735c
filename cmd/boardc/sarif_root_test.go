package main

import (
	"bytes"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/diag/sarif"
	"boardc.dev/boardc/compiler/diag/sarif/sariftest"
)

// TestSARIFFromSubdirectory runs vet from directories below a
// repository's root, as a CI job might, and resolves every result's URI
// as GitHub code scanning does: relative to the root of the checkout.
// The file there, at the result's line and columns, must hold the text
// the result is about, which its message quotes: the misspelt field, the
// value of the wrong type, the value in conflict (and the other value,
// its related location).
func TestSARIFFromSubdirectory(t *testing.T) {
	repo := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	board := filepath.Join(repo, "boards", "bad")
	src := strings.Replace(tinyBoard, "dmaBits: 32", `dmaBits: "32"`, 1)
	src = strings.Replace(src, `bus:     "soc"`, "bus:     \"soc\"\n\t\tcompatibel: [\"vendor,dma\"]", 1)
	writePackage(t, board, map[string]string{"board.cue": src})
	conflict := filepath.Join(repo, "boards", "conflict")
	writePackage(t, conflict, map[string]string{
		"board.cue": tinyBoard,
		"name.cue":  "package tiny\n\n// a second name\nname: \"other\"\n",
	})
	for _, c := range []struct {
		name   string
		wd     string
		boards []string
		extra  []string
	}{
		{"the boards' directory", filepath.Join(repo, "boards"), []string{"bad", "conflict"}, nil},
		{"a board's own directory", board, []string{".", "../conflict"}, nil},
		{"outside the repository, with --source-root", t.TempDir(), []string{board, conflict}, []string{"--source-root", repo}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Chdir(c.wd)
			file := filepath.Join(t.TempDir(), "out.sarif")
			var stdout, stderr bytes.Buffer
			args := append([]string{"vet", "--sarif", file}, c.extra...)
			if code := runWith(append(args, c.boards...), &stdout, &stderr); code != exitDiags {
				t.Fatalf("exit %d, want %d\n%s", code, exitDiags, stderr.String())
			}
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if err := sariftest.Validate(data); err != nil {
				t.Fatalf("the SARIF 2.1.0 schema rejects the log: %v", err)
			}
			l := checkSARIF(t, data, 3)
			run := l.Runs[0]
			if got, want := run.OriginalURIBaseIDs[sarif.RootBase].URI, "file://"+filepath.ToSlash(repo)+"/"; got != want {
				t.Errorf("%s is %q, want %q", sarif.RootBase, got, want)
			}
			rules := map[string]bool{}
			for _, r := range run.Results {
				rules[r.RuleID] = true
				at := r.Locations[0].PhysicalLocation
				text := regionText(t, repo, at)
				if !strings.Contains(r.Message.Text, text) {
					t.Errorf("%s: the region holds %q, which the message %q does not quote", r.RuleID, text, r.Message.Text)
				}
				for _, rl := range r.RelatedLocations {
					if text := regionText(t, repo, rl.PhysicalLocation); !strings.Contains(r.Message.Text, text) {
						t.Errorf("%s: the related region holds %q, which the message %q does not quote", r.RuleID, text, r.Message.Text)
					}
				}
			}
			for _, want := range []string{"BC0002", "BC0003", "BC0006"} {
				if !rules[want] {
					t.Errorf("no result of %s", want)
				}
			}
		})
	}
}

// regionText returns the text of the region at, the file resolved
// against root as %SRCROOT%: one line, from startColumn to endColumn.
func regionText(t *testing.T, root string, at sarifPhys) string {
	t.Helper()
	a := at.ArtifactLocation
	if a.URIBaseID != sarif.RootBase {
		t.Fatalf("%s: base %q, want %s", a.URI, a.URIBaseID, sarif.RootBase)
	}
	u, err := url.Parse(a.URI)
	if err != nil || u.IsAbs() || strings.HasPrefix(u.Path, "/") || strings.HasPrefix(u.Path, "../") {
		t.Fatalf("%s: not a URI relative to the root (%v)", a.URI, err)
	}
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(u.Path)))
	if err != nil {
		t.Fatalf("%s does not resolve from the root: %v", a.URI, err)
	}
	r := at.Region
	lines := strings.Split(string(data), "\n")
	if r == nil || r.StartLine < 1 || r.StartLine > len(lines) || r.EndLine != r.StartLine {
		t.Fatalf("%s: region %+v", a.URI, r)
	}
	line := lines[r.StartLine-1]
	if r.StartColumn < 1 || r.EndColumn <= r.StartColumn || r.EndColumn-1 > len(line) {
		t.Fatalf("%s:%d: columns %d-%d on %q", a.URI, r.StartLine, r.StartColumn, r.EndColumn, line)
	}
	return line[r.StartColumn-1 : r.EndColumn-1]
}
