package load

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"cuelang.org/go/cue"

	"boardc.dev/boardc/compiler/diag"
)

// noCUEFiles says why the directory dir (as the user named it, path)
// holds no board: it has no .cue file. Where directories below it have
// some, it names up to four of them and the pattern that names every
// board below. It returns "" when dir has a .cue file or cannot be read.
func noCUEFiles(path, dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	var below []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".cue") && !e.IsDir() {
			return ""
		}
		if e.IsDir() && e.Name() != "cue.mod" && hasCUEBelow(filepath.Join(dir, e.Name()), 3) {
			below = append(below, e.Name())
		}
	}
	msg := "no .cue file in this directory: a board is a directory holding the board's CUE package, or one .cue file"
	if len(below) == 0 {
		return msg
	}
	sort.Strings(below)
	names := below
	if len(names) > 4 {
		names = append(names[:4:4], "...")
	}
	return fmt.Sprintf("%s; the directories %s below it hold CUE files: name a board's, or %s for every board below it",
		msg, strings.Join(names, ", "), strings.TrimSuffix(filepath.ToSlash(path), "/")+"/...")
}

// hasCUEBelow reports whether dir or a directory below it, depth levels
// down at most, holds a .cue file.
func hasCUEBelow(dir string, depth int) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".cue") {
			return true
		}
	}
	if depth == 0 {
		return false
	}
	for _, e := range entries {
		if e.IsDir() && e.Name() != "cue.mod" && !strings.HasPrefix(e.Name(), ".") && hasCUEBelow(filepath.Join(dir, e.Name()), depth-1) {
			return true
		}
	}
	return false
}

// noModuleRE matches CUE's error for an import outside a CUE module.
var noModuleRE = regexp.MustCompile(`imports are unavailable because there is no cue.mod/module.cue file`)

// importPathRE matches a quoted import path.
var importPathRE = regexp.MustCompile(`^"([^"]+)"`)

// noModule rewords CUE's error for an import in a package outside any
// CUE module ("import failed: imports are unavailable..."), naming the
// import, read at the error's position, and what to do.
func noModule(d diag.Diagnostic, file string) diag.Diagnostic {
	if d.Code != diag.Parse.ID || !noModuleRE.MatchString(d.Message) {
		return d
	}
	what := "an import"
	if data, err := os.ReadFile(file); err == nil && d.Pos.Line > 0 {
		lines := strings.Split(string(data), "\n")
		if d.Pos.Line <= len(lines) && d.Pos.Col >= 1 && d.Pos.Col <= len(lines[d.Pos.Line-1]) {
			if m := importPathRE.FindStringSubmatch(lines[d.Pos.Line-1][d.Pos.Col-1:]); m != nil {
				what = fmt.Sprintf("import %q", m[1])
			}
		}
	}
	d.Message = what + ": no CUE module: imports resolve only in one, and neither this directory nor one above it has cue.mod/module.cue; create it at the root of the boards' tree (cue mod init MODULE)"
	return d
}

// boardFields are the top-level fields every board gives and an SoC
// package does not.
var boardFields = []string{"name", "compatible", "memory"}

// socAsBoard replaces, where the package loaded is an SoC's (it gives
// soc and none of name, compatible and memory), the errors for each
// missing board field by one error saying so. The error is about no
// element, so the description is not checked as a partial board.
func socAsBoard(ds diag.List, data cue.Value, p *positions) diag.List {
	if !data.Exists() || !data.LookupPath(cue.ParsePath("soc")).Exists() {
		return ds
	}
	for _, f := range boardFields {
		if data.LookupPath(cue.ParsePath(f)).Exists() {
			return ds
		}
	}
	missing := map[string]bool{}
	for _, f := range boardFields {
		missing[f+": required field is missing"] = true
	}
	out := diag.List{}
	for _, d := range ds {
		if d.Code == diag.Missing.ID && missing[d.Message] {
			continue
		}
		out = append(out, d)
	}
	if len(out) == len(ds) {
		return ds
	}
	// At the package clause, where the missing fields were reported.
	pos := p.dirPos()
	if tp := data.Pos(); tp.IsValid() {
		pos = p.convert(tp.Filename(), tp.Line(), tp.Column())
	}
	out = append(out, diag.Diagnostic{
		Pos: pos, Severity: diag.Error, Code: diag.Missing.ID,
		Message: "this package describes an SoC, not a board: it gives soc but no name, compatible or memory; give boardc a board's directory, a package that imports this one and sets soc to its soc",
		Notes:   []diag.Note{{Message: "boardc list DIR lists the boards below DIR"}},
	})
	out.Sort()
	return out
}
