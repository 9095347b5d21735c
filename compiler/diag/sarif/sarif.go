// Package sarif writes diagnostics as a SARIF 2.1.0 log (OASIS SARIF
// v2.1.0 Errata 01): one run of one tool, a rule per diagnostic code
// with its help, a result per diagnostic with a stable partial
// fingerprint, and file URIs relative to a source root (%SRCROOT%), so
// that a code-scanning service that resolves them against the root of
// its checkout finds the lines, wherever the tool ran from.
package sarif

import (
	"bytes"
	"encoding/json"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/schema"
)

// SchemaURI is the SARIF 2.1.0 JSON schema a log names (Errata 01, the
// OASIS standard's own copy).
const SchemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

// RootBase is the uriBaseId of the URIs relative to the source root.
const RootBase = "%SRCROOT%"

// Options says what a log says beside the diagnostics.
type Options struct {
	// Name, Version and InformationURI name the tool.
	Name, Version, InformationURI string
	// Rules are the codes listed as rules, in order; a code a
	// diagnostic carries that Rules lacks is added after them.
	Rules []diag.Code
	// HelpURI returns the URI of a code's documentation, or "".
	HelpURI func(diag.Code) string
	// HelpHint is a line appended to every rule's help, e.g. the
	// command that prints it.
	HelpHint func(diag.Code) string
	// Root is the absolute source root: the URI of a file below it is
	// relative to it (uriBaseId %SRCROOT%); a file elsewhere has an
	// absolute file URI.
	Root string
	// WorkDir is the absolute directory relative positions are
	// relative to.
	WorkDir string
	// Counts counts every diagnostic of the run, the infos not listed
	// among them.
	Counts diag.Counts
	// ReadFile reads a source file, to find the end of the text a
	// position points at and to count columns in UTF-16 code units;
	// nil reads nothing.
	ReadFile func(path string) ([]byte, error)
}

// New returns the log of l: every rule, then a result per diagnostic.
// A diagnostic's position is its result's location; its notes with a
// position in a file become related locations, the others lines of its
// message.
func New(l diag.List, o Options) *Log {
	run := Run{
		Tool:    Tool{Driver: ToolComponent{Name: o.Name, Version: o.Version, InformationURI: o.InformationURI, Rules: []Rule{}}},
		Results: []Result{},
		Properties: Properties{
			Errors: o.Counts.Errors, Warnings: o.Counts.Warnings, Infos: o.Counts.Infos,
			HiddenInfos: max(0, o.Counts.Infos-l.Count(diag.Info)),
		},
	}
	w := writer{o: o, index: map[string]int{}, files: map[string][]byte{}}
	if o.Root != "" {
		run.OriginalURIBaseIDs = RootBaseIDs(o.Root)
	}
	if o.ReadFile != nil {
		run.ColumnKind = "utf16CodeUnits"
	}
	for _, c := range o.Rules {
		w.addRule(&run, c)
	}
	for _, d := range l {
		if _, ok := w.index[d.Code]; !ok {
			w.addRule(&run, diag.Code{ID: d.Code, Severity: d.Severity})
		}
		run.Results = append(run.Results, w.result(d))
	}
	fingerprint(run.Results)
	return &Log{Schema: SchemaURI, Version: "2.1.0", Runs: []Run{run}}
}

// Write writes log as indented JSON and a newline, with <, > and & as
// they are.
func (log *Log) Write(w io.Writer) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(log); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

// Level is the SARIF level of a severity.
func Level(s diag.Severity) string {
	switch s {
	case diag.Error:
		return "error"
	case diag.Warning:
		return "warning"
	}
	return "note"
}

type writer struct {
	o     Options
	index map[string]int    // rule index by code
	files map[string][]byte // sources read, by absolute path; nil where unreadable
}

// addRule appends the rule of c to run.
func (w *writer) addRule(run *Run, c diag.Code) {
	w.index[c.ID] = len(run.Tool.Driver.Rules)
	r := Rule{ID: c.ID, Name: c.Name, DefaultConfiguration: &Configuration{Level: Level(c.Severity)}}
	if c.Doc != "" {
		r.ShortDescription = &Text{Text: firstSentence(c.Doc)}
		r.FullDescription = &Text{Text: c.Doc}
		r.Help = &Text{Text: c.Doc, Markdown: "**" + c.ID + " " + c.Name + "** (" + c.Severity.String() + ")\n\n" + c.Doc}
		if w.o.HelpHint != nil {
			if h := w.o.HelpHint(c); h != "" {
				r.Help.Text += "\n\n" + h
				r.Help.Markdown += "\n\n" + h
			}
		}
	} else if c.Name != "" {
		r.ShortDescription = &Text{Text: c.Name}
	}
	if w.o.HelpURI != nil {
		r.HelpURI = w.o.HelpURI(c)
	}
	run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, r)
}

// firstSentence returns doc up to and with its first full stop followed
// by a space, or all of doc.
func firstSentence(doc string) string {
	if i := strings.Index(doc, ". "); i >= 0 {
		return doc[:i+1]
	}
	return doc
}

// result returns the result of d.
func (w *writer) result(d diag.Diagnostic) Result {
	text := d.Message
	var related []Location
	for _, n := range d.Notes {
		if n.Pos.Line > 0 && n.Pos.File != schema.Filename {
			if pl := w.physical(n.Pos); pl != nil {
				related = append(related, Location{PhysicalLocation: pl, Message: &Message{Text: n.Message}})
				continue
			}
		}
		text += "\nnote: "
		if n.Pos.IsValid() {
			text += n.Pos.String() + ": "
		}
		text += n.Message
	}
	res := Result{
		RuleID: d.Code, RuleIndex: w.index[d.Code], Level: Level(d.Severity),
		Message: Message{Text: text}, RelatedLocations: related,
	}
	if pl := w.physical(d.Pos); pl != nil {
		loc := Location{PhysicalLocation: pl}
		if d.Ref != "" {
			loc.LogicalLocations = []LogicalLocation{{FullyQualifiedName: string(d.Ref)}}
		}
		res.Locations = []Location{loc}
	}
	return res
}

// physical returns the physical location of p, or nil when p names no
// file.
func (w *writer) physical(p ir.Pos) *PhysicalLocation {
	if !p.IsValid() {
		return nil
	}
	abs := p.File
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(w.o.WorkDir, abs)
	}
	pl := &PhysicalLocation{ArtifactLocation: w.artifact(abs)}
	if p.Line > 0 {
		pl.Region = w.region(abs, p.Line, p.Col)
	}
	return pl
}

// artifact returns the location of the file abs: relative to the root
// where it is below it, else an absolute file URI.
func (w *writer) artifact(abs string) ArtifactLocation {
	if rel, ok := below(w.o.Root, abs); ok {
		return ArtifactLocation{URI: RelURI(rel), URIBaseID: RootBase}
	}
	return ArtifactLocation{URI: FileURI(abs)}
}

// RootRelative returns file (relative to workDir, or absolute) relative
// to root, and whether it is below root.
func RootRelative(root, workDir, file string) (string, bool) {
	if !filepath.IsAbs(file) {
		file = filepath.Join(workDir, file)
	}
	return below(root, file)
}

// below returns abs relative to root, and whether it is below root: as
// written, or else with both resolved through symbolic links (a root
// named through a link, a working directory that is one).
func below(root, abs string) (string, bool) {
	if root == "" {
		return "", false
	}
	if rel, ok := relBelow(root, abs); ok {
		return rel, true
	}
	r, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", false
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(abs))
	if err != nil {
		return "", false
	}
	return relBelow(r, filepath.Join(dir, filepath.Base(abs)))
}

func relBelow(root, abs string) (string, bool) {
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return rel, true
}

// RelURI spells a relative path as a relative URI reference.
func RelURI(rel string) string {
	return (&url.URL{Path: filepath.ToSlash(rel)}).String()
}

// FileURI spells an absolute path as a file URI.
func FileURI(abs string) string {
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive letter
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// RootBaseIDs returns a run's originalUriBaseIds for a source root, an
// absolute directory: where RootBase was on the machine that wrote the
// log.
func RootBaseIDs(root string) map[string]ArtifactLocation {
	return map[string]ArtifactLocation{RootBase: {URI: dirURI(root)}}
}

// dirURI spells an absolute directory as a file URI ending in a slash,
// as a uriBaseId's URI must.
func dirURI(abs string) string {
	u := FileURI(abs)
	if !strings.HasSuffix(u, "/") {
		u += "/"
	}
	return u
}

// FindRoot returns the top of the Git work tree holding path (the
// nearest directory at or above it with a .git entry, a directory or
// a worktree's file), or "" when there is none.
func FindRoot(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	for dir := abs; ; {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}
