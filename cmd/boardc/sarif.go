package main

import (
	"bytes"
	"io"
	"os"
	"strings"

	"boardc.dev/boardc/compiler/check"
	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/diag/sarif"
	"boardc.dev/boardc/internal/outset"
)

// homeURL is boardc's home: its module path as a URL, where the go
// command resolves the module.
const homeURL = "https://boardc.dev/boardc"

// helpURI is the URI of a code's entry in docs/diagnostics.md.
func helpURI(c diag.Code) string {
	return homeURL + "/docs/diagnostics.md#" + strings.ToLower(c.ID)
}

// sarifLog returns the SARIF log of shown, the diagnostics listed, with
// counts (every diagnostic, listed or not), every code's rule and file
// URIs relative to root.
func sarifLog(shown diag.List, counts diag.Counts, root string) *sarif.Log {
	wd, _ := os.Getwd()
	return sarif.New(shown, sarif.Options{
		Name: "boardc", Version: currentVersion().Boardc, InformationURI: homeURL,
		Rules: check.Codes(), HelpURI: helpURI,
		HelpHint: func(c diag.Code) string { return "`boardc checks " + c.ID + "` prints this help." },
		Root:     root, WorkDir: wd, Counts: counts, ReadFile: os.ReadFile,
	})
}

// writeSARIF writes the SARIF log of shown to w.
func writeSARIF(w io.Writer, shown diag.List, counts diag.Counts, root string) error {
	return sarifLog(shown, counts, root).Write(w)
}

// writeSARIFFile writes the SARIF log to --sarif's file, whole or not at
// all, or to stdout for "-".
func (f *compileFlags) writeSARIFFile(stdout io.Writer, shown diag.List, counts diag.Counts, root string) error {
	if f.sarif == "-" {
		return writeSARIF(stdout, shown, counts, root)
	}
	var b bytes.Buffer
	if err := writeSARIF(&b, shown, counts, root); err != nil {
		return err
	}
	if err := outset.WriteFile(f.sarif, b.Bytes()); err != nil {
		return sarifError{err}
	}
	return nil
}

// sarifError is a failure to write --sarif's file: an I/O error.
type sarifError struct{ err error }

func (e sarifError) Error() string { return "--sarif: " + e.err.Error() }
func (e sarifError) Unwrap() error { return e.err }
