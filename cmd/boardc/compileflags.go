package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"boardc.dev/boardc"
	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// compileFlags are the flags of the commands that compile boards: how the
// diagnostics are printed (--format, -q), whether warnings fail the build
// (--werror), and the base tree the checks compare with.
type compileFlags struct {
	format  string
	werror  bool
	quiet   bool
	verbose bool
	// always prints each board's summary line, clean or not (vet);
	// otherwise only a board with errors or warnings has one.
	always bool
	// base chooses the base tree, on the commands that register it.
	base     baseFlags
	baseTree func(*ir.Board) (*basetree.Tree, error)
}

func (f *compileFlags) register(c *cobra.Command) {
	c.Flags().StringVar(&f.format, "format", "text", "diagnostics format: text, json, sarif (SARIF 2.1.0) or github (workflow commands)")
	c.Flags().BoolVar(&f.werror, "werror", false, "treat warnings as errors")
	c.Flags().BoolVarP(&f.quiet, "quiet", "q", false, "do not print info diagnostics")
}

func (f *compileFlags) validate() error {
	switch f.format {
	case "text", "json", "sarif", "github":
	default:
		return fmt.Errorf("unknown --format %q (want text, json, sarif or github)", f.format)
	}
	src, err := f.base.source()
	f.baseTree = src
	return err
}

func (f *compileFlags) options() boardc.Options {
	return boardc.Options{WarningsAsErrors: f.werror, BaseTree: f.baseTree}
}

// print reports the diagnostics of every result: text to stderr, the
// machine formats (json, sarif, github) to stdout. The text ends with a
// summary line per board (see summaryLine), in argument order: for every
// board when f.always is set, unless -q hides it on a clean one, and
// otherwise for the boards with errors or warnings. command names the
// command in it, paths the BOARD of each result.
func (f *compileFlags) print(stdout, stderr io.Writer, command string, paths []string, rs []*boardc.Result) error {
	var all diag.List
	for _, r := range rs {
		for _, d := range r.Diagnostics {
			if f.quiet && d.Severity == diag.Info {
				continue
			}
			all = append(all, d)
		}
	}
	switch f.format {
	case "json":
		return writeJSON(stdout, all)
	case "sarif":
		return writeSARIF(stdout, all)
	case "github":
		return writeGitHub(stdout, all)
	}
	if err := all.WriteText(stderr); err != nil {
		return err
	}
	for i, r := range rs {
		bad := r.Diagnostics.Count(diag.Error)+r.Diagnostics.Count(diag.Warning) > 0
		if bad || f.always && !f.quiet {
			if _, err := io.WriteString(stderr, summaryLine(command, paths[i], r)+"\n"); err != nil {
				return err
			}
		}
	}
	return nil
}

// summaryLine returns the summary line of one board's result:
//
//	boardc vet: espressobin: 0 errors, 0 warnings, 3 infos; 42 checks ran
//
// with ", N skipped" after the checks when a description lacking facts
// kept some from running. The board is named by its name, or by path when
// its description gives none that loaded.
func summaryLine(command, path string, r *boardc.Result) string {
	name := r.Name
	if name == "" {
		name = path
	}
	ds := r.Diagnostics
	s := fmt.Sprintf("boardc %s: %s: %s, %s, %s; %s ran", command, name,
		plural(ds.Count(diag.Error), "error"), plural(ds.Count(diag.Warning), "warning"),
		plural(ds.Count(diag.Info), "info"), plural(len(r.Checks), "check"))
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
