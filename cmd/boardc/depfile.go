package main

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"boardc.dev/boardc"
)

// depfile returns a Make dependency file for the results: one rule whose
// targets are every output written under outDir (or targets, when given)
// and whose prerequisites are every CUE file loaded, the directory of
// each package loaded (a .cue file added to a package changes the
// directory's modification time, and the package with it), and the boardc
// binary itself (a new boardc may generate other bytes); then an empty
// rule per prerequisite (as gcc -MP writes) so that make does not fail
// when an input is deleted or renamed.
func depfile(outDir string, targets []string, results []*boardc.Result) []byte {
	wd, _ := os.Getwd()
	if len(targets) == 0 {
		for _, r := range results {
			for _, f := range r.Files {
				targets = append(targets, filepath.Join(outDir, r.Board.Name, filepath.FromSlash(f.Path)))
			}
		}
	}
	seen := map[string]bool{}
	var prereqs []string
	add := func(p string) {
		p = relToWD(wd, p)
		if !seen[p] {
			seen[p] = true
			prereqs = append(prereqs, p)
		}
	}
	for _, r := range results {
		for _, s := range r.Board.Sources {
			add(s.Path)
			add(filepath.Dir(s.Path))
		}
		if m := boardc.ModuleFile(r.Board.Sources); m != "" {
			add(m)
		}
	}
	if exe, err := os.Executable(); err == nil {
		add(exe)
	}
	sort.Strings(prereqs)

	var b bytes.Buffer
	for i, t := range targets {
		if i > 0 {
			b.WriteString(" \\\n ")
		}
		b.WriteString(makeEscape(t))
	}
	b.WriteString(":")
	for _, p := range prereqs {
		b.WriteString(" \\\n  ")
		b.WriteString(makeEscape(p))
	}
	b.WriteString("\n")
	for _, p := range prereqs {
		b.WriteString("\n")
		b.WriteString(makeEscape(p))
		b.WriteString(":\n")
	}
	return b.Bytes()
}

// relToWD returns path relative to wd when it lies below wd, else path.
func relToWD(wd, path string) string {
	if wd == "" || !filepath.IsAbs(path) {
		return path
	}
	if r, err := filepath.Rel(wd, path); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return r
	}
	return path
}

// makeEscape escapes a file name for a Make rule the way gcc does: spaces
// and '#' get a backslash (as do the backslashes before a space), '$'
// doubles.
func makeEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ', '\t':
			for j := i - 1; j >= 0 && s[j] == '\\'; j-- {
				b.WriteByte('\\')
			}
			b.WriteByte('\\')
			b.WriteByte(c)
		case '#':
			b.WriteString(`\#`)
		case '$':
			b.WriteString("$$")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
