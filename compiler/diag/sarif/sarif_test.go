package sarif_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/diag/sarif"
	"boardc.dev/boardc/compiler/diag/sarif/sariftest"
	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/internal/golden"
)

// sources are the files the golden log's positions point into, below
// the root /repo.
var sources = map[string]string{
	"/repo/boards/tiny/board.cue": "package tiny\n\nsoc: masters: dma0: {\n\tdmaBits: \"32\"\n\tdriverSet: true\n}\n" +
		"model: \"Crème brûlée\"\n\tcolour: \"red\"\n",
	"/repo/boards/dir with space/a#b%c.cue": "x\ny\nz\nw: 1\n",
}

func readFile(p string) ([]byte, error) {
	if s, ok := sources[filepath.ToSlash(p)]; ok {
		return []byte(s), nil
	}
	return nil, fs.ErrNotExist
}

// options are those of the golden log: the tool run from /repo/boards,
// with the root /repo.
func options(rules []diag.Code, l diag.List) sarif.Options {
	return sarif.Options{
		Name: "boardc", Version: "v1.2.3", InformationURI: "https://example.com/boardc",
		Rules:    rules,
		HelpURI:  func(c diag.Code) string { return "https://example.com/boardc/docs#" + strings.ToLower(c.ID) },
		HelpHint: func(c diag.Code) string { return "`boardc checks " + c.ID + "` prints this help." },
		Root:     "/repo", WorkDir: "/repo/boards",
		Counts:   l.Counts().Add(diag.Counts{Infos: 2}), // two infos not listed
		ReadFile: readFile,
	}
}

// goldenInput takes every branch: notes with and without a position
// and in the schema, a diagnostic without a position and one with a
// line and no column, an absolute path outside the root (a file URI), a
// path to escape, a column after a non-ASCII text, a quoted string,
// text with HTML metacharacters, every level, two findings that differ
// only in their line, and a code no rule lists.
func goldenInput() ([]diag.Code, diag.List) {
	rules := []diag.Code{
		{ID: "BC0001", Name: "parse", Doc: "A file could not be read. It is named.", Severity: diag.Error},
		{ID: "BC0002", Name: "schema", Doc: "A value violates the schema.", Severity: diag.Error},
		{ID: "BC0900", Name: "nodoc", Severity: diag.Warning},
		{ID: "BC0901", Name: "info", Doc: "An info rule.", Severity: diag.Info},
	}
	l := diag.List{
		{
			Pos: ir.Pos{File: "tiny/board.cue", Line: 4, Col: 11}, Severity: diag.Error, Code: "BC0002",
			Message: `soc.masters.dma0.dmaBits: conflicting values "32" and int`, Ref: "soc.masters.dma0.dmaBits",
			Notes: []diag.Note{
				{Pos: ir.Pos{File: "schema/boardc.cue", Line: 436, Col: 15}, Message: "constraint declared in the schema"},
				{Message: "a note without a position"},
				{Pos: ir.Pos{File: "tiny/board.cue", Line: 3, Col: 6}, Message: "the master"},
				{Pos: ir.Pos{File: "tiny/soc.cue"}, Message: "a note in a file, without a line"},
			},
		},
		{Pos: ir.Pos{File: "nosuch"}, Severity: diag.Error, Code: "BC0001", Message: "nosuch: no such file or directory"},
		{Pos: ir.Pos{File: "dir with space/a#b%c.cue", Line: 4}, Severity: diag.Warning, Code: "BC0900", Message: "<b> & </b>", Ref: "policy.irqs[2]"},
		{Pos: ir.Pos{File: "/abs/board.cue", Line: 1, Col: 1}, Severity: diag.Info, Code: "BC0901", Message: "info"},
		{Severity: diag.Warning, Code: "BC0999", Message: "a code without a rule, and no position",
			Notes: []diag.Note{{Pos: ir.Pos{File: "tiny/board.cue", Line: 2, Col: 1}, Message: "related"}}},
		// "colour" after a tab, then the same finding on another line.
		{Pos: ir.Pos{File: "tiny/board.cue", Line: 8, Col: 2}, Severity: diag.Error, Code: "BC0999", Message: "colour: field not allowed (see tiny/board.cue:8:2)", Ref: "colour"},
		{Pos: ir.Pos{File: "tiny/board.cue", Line: 5, Col: 2}, Severity: diag.Error, Code: "BC0999", Message: "colour: field not allowed (see tiny/board.cue:5:2)", Ref: "colour"},
		// The string after "Crème brûlée" starts: bytes and UTF-16
		// columns differ.
		{Pos: ir.Pos{File: "tiny/board.cue", Line: 7, Col: 8}, Severity: diag.Error, Code: "BC0002", Message: "model: too sweet", Ref: "model"},
	}
	return rules, l
}

// TestGolden pins the bytes of a log, testdata/log.json, and checks that
// the SARIF 2.1.0 schema accepts it.
func TestGolden(t *testing.T) {
	rules, l := goldenInput()
	var got bytes.Buffer
	if err := sarif.New(l, options(rules, l)).Write(&got); err != nil {
		t.Fatal(err)
	}
	if err := sariftest.Validate(got.Bytes()); err != nil {
		t.Fatalf("the SARIF 2.1.0 schema rejects the log: %v\n%s", err, got.String())
	}
	file := filepath.Join("testdata", "log.json")
	if golden.Update() {
		if err := os.WriteFile(file, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), got.String()); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s", file, diff)
	}
}

// The validator is not vacuous: a level SARIF does not define, a
// property it does not define, a relative URI where an absolute one is
// required and a missing message each fail.
func TestValidatorRejects(t *testing.T) {
	rules, l := goldenInput()
	var good bytes.Buffer
	if err := sarif.New(l, options(rules, l)).Write(&good); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, from, to string }{
		{"level", `"level": "warning"`, `"level": "fatal"`},
		{"property", `"ruleId": "BC0001"`, `"ruleId": "BC0001", "severity": "high"`},
		{"helpUri", `"helpUri": "https://example.com/boardc/docs#bc0001"`, `"helpUri": "docs#bc0001"`},
		{"message", `"text": "nosuch: no such file or directory"`, `"txt": "x"`},
	} {
		bad := strings.Replace(good.String(), c.from, c.to, 1)
		if bad == good.String() {
			t.Fatalf("%s: %q is not in the log", c.name, c.from)
		}
		if err := sariftest.Validate([]byte(bad)); err == nil {
			t.Errorf("%s: the schema accepted %s", c.name, c.to)
		}
	}
}

// Fingerprints follow the finding, not its line: the same log with
// lines inserted above every finding (and the positions in the messages
// moved) has the same fingerprints; another message has another.
func TestFingerprintStable(t *testing.T) {
	rules, l := goldenInput()
	moved := make(diag.List, len(l))
	for i, d := range l {
		if d.Pos.Line > 0 {
			d.Pos.Line += 10
		}
		d.Message = strings.ReplaceAll(d.Message, "board.cue:8:2", "board.cue:18:2")
		moved[i] = d
	}
	opts := options(rules, l)
	opts.ReadFile = nil
	a, b := prints(sarif.New(l, opts)), prints(sarif.New(moved, opts))
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("fingerprints changed with the lines (-before +after):\n%s", diff)
	}
	seen := map[string]bool{}
	for _, p := range a {
		if seen[p] {
			t.Errorf("fingerprint %s twice", p)
		}
		seen[p] = true
	}
	// The two colour findings differ in their line only: one hash, two
	// occurrences.
	if h5, h6 := strings.Split(a[5], ":"), strings.Split(a[6], ":"); h5[0] != h6[0] || h5[1] != "1" || h6[1] != "2" {
		t.Errorf("findings differing only in their line: %s and %s, want one hash, occurrences 1 and 2", a[5], a[6])
	}
	other := append(diag.List(nil), l...)
	other[0].Message += "!"
	if c := prints(sarif.New(other, opts)); c[0] == a[0] {
		t.Errorf("another message, the same fingerprint %s", c[0])
	}
}

func prints(log *sarif.Log) []string {
	var out []string
	for _, r := range log.Runs[0].Results {
		out = append(out, r.PartialFingerprints[sarif.FingerprintKey])
	}
	return out
}

// A file named through a symbolic link to the root, or below a root
// named through one, is below the root.
func TestRootRelativeSymlink(t *testing.T) {
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	if err := os.MkdirAll(filepath.Join(repo, "boards"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(repo, link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ root, wd string }{
		{repo, filepath.Join(link, "boards")},
		{link, filepath.Join(repo, "boards")},
		{repo, filepath.Join(repo, "boards")},
	} {
		rel, ok := sarif.RootRelative(c.root, c.wd, "b.cue")
		if !ok || rel != filepath.Join("boards", "b.cue") {
			t.Errorf("root %s, working directory %s: %q, %v; want boards/b.cue", c.root, c.wd, rel, ok)
		}
	}
	if rel, ok := sarif.RootRelative(filepath.Join(repo, "boards"), repo, "x.cue"); ok {
		t.Errorf("a file above the root is below it, as %q", rel)
	}
}

// FindRoot finds the work tree of a repository and of a worktree (a
// .git file), and none outside one.
func TestFindRoot(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "repo", "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := sarif.FindRoot(sub); got != "" && !strings.HasPrefix(dir, got) {
		t.Errorf("no repository: %q", got)
	}
	if err := os.WriteFile(filepath.Join(dir, "repo", ".git"), []byte("gitdir: /elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := sarif.FindRoot(filepath.Join(sub, "board.cue")); got != filepath.Join(dir, "repo") {
		t.Errorf("FindRoot = %q, want %s", got, filepath.Join(dir, "repo"))
	}
}

// The log's run says how many diagnostics of each severity there were,
// and how many infos it does not list.
func TestCounts(t *testing.T) {
	rules, l := goldenInput()
	var b bytes.Buffer
	if err := sarif.New(l, options(rules, l)).Write(&b); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct{ Properties sarif.Properties }
	}
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	want := sarif.Properties{Errors: 5, Warnings: 2, Infos: 3, HiddenInfos: 2}
	if got := log.Runs[0].Properties; got != want {
		t.Errorf("properties %+v, want %+v", got, want)
	}
}
