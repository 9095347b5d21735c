package load

import (
	"path/filepath"
	"strings"

	"cuelang.org/go/cue"

	"boardc.dev/boardc/compiler/ir"
)

// positions converts CUE positions to IR positions, relative to the working
// directory for display and to the module root for provenance.
type positions struct {
	wd, root, dir string
	// schema is #Board, where the description built: the fields it
	// allows are read from it.
	schema cue.Value
	// names caches the display and provenance names of each file.
	names map[string][2]string
	// paths caches the path of each field name lowering looks up: a path
	// made for every lookup cost an allocation each.
	paths map[string]cue.Path
}

// field returns the path of the field name.
func (p *positions) field(name string) cue.Path {
	if p == nil {
		return cue.MakePath(cue.Str(name))
	}
	if path, ok := p.paths[name]; ok {
		return path
	}
	if p.paths == nil {
		p.paths = map[string]cue.Path{}
	}
	path := cue.MakePath(cue.Str(name))
	p.paths[name] = path
	return path
}

func (p *positions) convert(file string, line, col int) ir.Pos {
	if file == "" {
		return ir.Pos{}
	}
	names, ok := p.names[file]
	if !ok {
		names = p.relNames(file)
		if p.names == nil {
			p.names = map[string][2]string{}
		}
		p.names[file] = names
	}
	return ir.Pos{File: names[0], Src: names[1], Line: line, Col: col}
}

// relNames returns the display and provenance names of file.
func (p *positions) relNames(file string) [2]string {
	names := [2]string{file, filepath.Base(file)}
	if p.wd != "" {
		if r, err := filepath.Rel(p.wd, file); err == nil && !strings.HasPrefix(r, "..") {
			names[0] = r
		}
	}
	base := p.root
	if base == "" {
		base = p.dir
	}
	if r, err := filepath.Rel(base, file); err == nil && !strings.HasPrefix(r, "..") {
		names[1] = filepath.ToSlash(r)
	}
	return names
}

// dirPos is the position of the board itself, used when nothing closer is
// known.
func (p *positions) dirPos() ir.Pos {
	return p.convert(p.dir, 0, 0)
}
