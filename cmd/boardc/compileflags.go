package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"boardc.dev/boardc"
	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/diag/sarif"
	"boardc.dev/boardc/compiler/ir"
)

// compileFlags are the flags of the commands that compile boards: how the
// diagnostics are printed (--format, -q, -v, --sarif, --source-root),
// whether warnings fail the build (--werror), and the base tree the checks
// compare with.
type compileFlags struct {
	format  string
	werror  bool
	quiet   bool
	verbose bool
	// sarif is the file --sarif writes the SARIF log to, beside the
	// --format output; root is --source-root.
	sarif, root string
	// always prints each board's summary line, clean or not (vet);
	// otherwise only a board with errors, warnings or hidden infos has
	// one.
	always bool
	// base chooses the base tree, on the commands that register it.
	base     baseFlags
	baseTree func(*ir.Board) (*basetree.Tree, error)
}

func (f *compileFlags) register(c *cobra.Command) {
	c.Flags().StringVar(&f.format, "format", "text", "diagnostics format: text, json, sarif (SARIF 2.1.0) or github (workflow commands)")
	c.Flags().StringVar(&f.sarif, "sarif", "", "also write the diagnostics as a SARIF 2.1.0 log to `FILE` (- for stdout, with --format=text)")
	c.Flags().StringVar(&f.root, "source-root", "", "make SARIF and github file paths relative to `DIR` (default: the top of the Git work tree holding the first BOARD, else the working directory)")
	c.Flags().BoolVar(&f.werror, "werror", false, "treat warnings as errors")
	c.Flags().BoolVarP(&f.quiet, "quiet", "q", false, "print no info diagnostics, and no summary line for a board without errors or warnings")
	if c.Flags().Lookup("verbose") == nil {
		c.Flags().BoolVarP(&f.verbose, "verbose", "v", false, "also list info diagnostics (hidden by default, counted in the summary line)")
	}
}

func (f *compileFlags) validate() error {
	switch f.format {
	case "text", "json", "sarif", "github":
	default:
		return fmt.Errorf("unknown --format %q (want text, json, sarif or github)", f.format)
	}
	if f.sarif == "-" && f.format != "text" {
		return fmt.Errorf("--sarif -: stdout holds the --format=%s output; name a file", f.format)
	}
	if f.root != "" {
		if fi, err := os.Stat(f.root); err != nil || !fi.IsDir() {
			return fmt.Errorf("--source-root %s: not a directory", f.root)
		}
	}
	src, err := f.base.source()
	f.baseTree = src
	return err
}

func (f *compileFlags) options() boardc.Options {
	return boardc.Options{WarningsAsErrors: f.werror, BaseTree: f.baseTree}
}

// showInfos reports whether info diagnostics are listed: with -v, and
// not -q.
func (f *compileFlags) showInfos() bool { return f.verbose && !f.quiet }

// print reports the diagnostics of every result: text to stderr, the
// machine formats (json, sarif, github) to stdout, and with --sarif a
// SARIF log to its file as well. Infos are listed only with -v, in every
// format; they are always counted. The text ends with a summary line per
// board (see summaryLine), in argument order: for every board when
// f.always is set, unless -q hides it on a clean one, and otherwise for
// the boards with errors, warnings or infos not listed, unless -q. command
// names the command in it, paths the BOARD of each result.
func (f *compileFlags) print(stdout, stderr io.Writer, command string, paths []string, rs []*boardc.Result) error {
	var all diag.List
	var counts diag.Counts
	for _, r := range rs {
		counts = counts.Add(r.Diagnostics.Counts())
		if f.showInfos() {
			all = append(all, r.Diagnostics...)
		} else {
			all = append(all, r.Diagnostics.Without(diag.Info)...)
		}
	}
	root := f.sourceRoot(paths)
	if f.sarif != "" {
		if err := f.writeSARIFFile(stdout, all, counts, root); err != nil {
			return err
		}
	}
	switch f.format {
	case "json":
		return writeJSON(stdout, all)
	case "sarif":
		return writeSARIF(stdout, all, counts, root)
	case "github":
		return writeGitHub(stdout, all, root)
	}
	if err := all.WriteText(stderr); err != nil {
		return err
	}
	for i, r := range rs {
		c := r.Diagnostics.Counts()
		hidden := !f.showInfos() && c.Infos > 0
		if f.always && !f.quiet || !f.quiet && hidden || c.Errors+c.Warnings > 0 {
			if _, err := io.WriteString(stderr, summaryLine(command, paths[i], r, hidden)+"\n"); err != nil {
				return err
			}
		}
	}
	return nil
}

// sourceRoot returns the absolute directory SARIF and github paths are
// relative to: --source-root, else the top of the Git work tree holding
// the first BOARD, else the working directory.
func (f *compileFlags) sourceRoot(paths []string) string {
	if f.root != "" {
		if abs, err := filepath.Abs(f.root); err == nil {
			return abs
		}
	}
	if len(paths) > 0 {
		if r := sarif.FindRoot(paths[0]); r != "" {
			return r
		}
	}
	wd, _ := os.Getwd()
	return wd
}

// summaryLine returns the summary line of one board's result:
//
//	boardc vet: espressobin: 0 errors, 0 warnings, 3 infos (-v lists them); 42 checks ran
//
// the words in parentheses when hidden, the infos not listed; ", N
// skipped" after the checks when a description lacking facts kept some
// from running. The board is named by its name, or by path when its
// description gives none that loaded.
func summaryLine(command, path string, r *boardc.Result, hidden bool) string {
	name := r.Name
	if name == "" {
		name = path
	}
	s := fmt.Sprintf("boardc %s: %s: %s", command, name, r.Diagnostics.Counts())
	if hidden {
		s += " (-v lists them)"
	}
	s += fmt.Sprintf("; %s ran", plural(len(r.Checks), "check"))
	if n := len(r.Skipped); n > 0 {
		s += fmt.Sprintf(", %d skipped", n)
	}
	return s
}

// plural spells n things: "1 error", "3 errors".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

type jsonNote struct {
	Pos     string `json:"pos,omitempty"`
	Message string `json:"message"`
}

type jsonDiag struct {
	File     string     `json:"file"`
	Line     int        `json:"line"`
	Col      int        `json:"col"`
	Severity string     `json:"severity"`
	Code     string     `json:"code"`
	Message  string     `json:"message"`
	Notes    []jsonNote `json:"notes,omitempty"`
	// Ref is the element the finding is about, as waivers name it.
	Ref string `json:"ref,omitempty"`
}

func writeJSON(w io.Writer, l diag.List) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(jsonDiags(l))
}

// jsonDiags returns l as --format=json prints it.
func jsonDiags(l diag.List) []jsonDiag {
	out := make([]jsonDiag, 0, len(l))
	for _, d := range l {
		j := jsonDiag{File: d.Pos.File, Line: d.Pos.Line, Col: d.Pos.Col, Severity: d.Severity.String(), Code: d.Code, Message: d.Message, Ref: string(d.Ref)}
		for _, n := range d.Notes {
			jn := jsonNote{Message: n.Message}
			if n.Pos.IsValid() {
				jn.Pos = n.Pos.String()
			}
			j.Notes = append(j.Notes, jn)
		}
		out = append(out, j)
	}
	return out
}
