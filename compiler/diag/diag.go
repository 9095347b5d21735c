// Package diag defines compiler diagnostics and their text form:
//
//	file:line:col: severity: message [CODE]
//	    note: ...
package diag

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"boardc.dev/boardc/compiler/ir"
)

// Severity orders diagnostics from informational to fatal.
type Severity int

// Severities.
const (
	Info Severity = iota
	Warning
	Error
)

// String returns the severity as printed in diagnostics.
func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	default:
		return "error"
	}
}

// Note is an indented follow-up line of a diagnostic.
type Note struct {
	Pos     ir.Pos // may be invalid
	Message string
}

// Diagnostic is one finding about a board description.
type Diagnostic struct {
	Pos      ir.Pos
	Severity Severity
	Code     string
	Message  string
	Notes    []Note
	// Ref is the description element the finding is about, as waivers
	// name it; empty when it is about none (a file that does not parse).
	Ref ir.Ref
}

// String formats d as its first line.
func (d Diagnostic) String() string {
	return fmt.Sprintf("%s: %s: %s [%s]", d.Pos, d.Severity, d.Message, d.Code)
}

// List is a list of diagnostics.
type List []Diagnostic

// HasErrors reports whether any diagnostic is an error.
func (l List) HasErrors() bool {
	for _, d := range l {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Count returns how many diagnostics have severity s.
func (l List) Count(s Severity) int {
	n := 0
	for _, d := range l {
		if d.Severity == s {
			n++
		}
	}
	return n
}

// Counts is how many diagnostics a list has of each severity: the one
// count the summary line, the SARIF log and every other report of a run
// print, whether or not the infos themselves are shown.
type Counts struct {
	Errors, Warnings, Infos int
}

// Counts counts the diagnostics of l by severity.
func (l List) Counts() Counts {
	return Counts{Errors: l.Count(Error), Warnings: l.Count(Warning), Infos: l.Count(Info)}
}

// Add returns the sum of c and o.
func (c Counts) Add(o Counts) Counts {
	return Counts{Errors: c.Errors + o.Errors, Warnings: c.Warnings + o.Warnings, Infos: c.Infos + o.Infos}
}

// String spells c as the summary line does: "1 error, 0 warnings, 3 infos".
func (c Counts) String() string {
	return plural(c.Errors, "error") + ", " + plural(c.Warnings, "warning") + ", " + plural(c.Infos, "info")
}

// plural spells n things: "1 error", "3 errors".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// Without returns the diagnostics of l whose severity is not s.
func (l List) Without(s Severity) List {
	out := make(List, 0, len(l))
	for _, d := range l {
		if d.Severity != s {
			out = append(out, d)
		}
	}
	return out
}

// Sort orders the list by file, line, column, then code.
func (l List) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return l[i].Code < l[j].Code
	})
}

// WriteText writes the list in the text form, one diagnostic with its notes
// after another.
func (l List) WriteText(w io.Writer) error {
	var b strings.Builder
	for _, d := range l {
		b.WriteString(d.String())
		b.WriteByte('\n')
		for _, n := range d.Notes {
			b.WriteString("    note: ")
			if n.Pos.IsValid() {
				b.WriteString(n.Pos.String())
				b.WriteString(": ")
			}
			b.WriteString(n.Message)
			b.WriteByte('\n')
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
