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
// machine formats (json, sarif, github) to stdout.
func (f *compileFlags) print(stdout, stderr io.Writer, rs []*boardc.Result) error {
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
	if e, w := all.Count(diag.Error), all.Count(diag.Warning); e+w > 0 {
		fmt.Fprintf(stderr, "%d error(s), %d warning(s)\n", e, w)
	}
	return nil
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
