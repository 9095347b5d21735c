package compiler

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"sort"
	"strconv"
	"strings"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/outputs"
	"boardc.dev/boardc/schema"
)

// ManifestPath is the path of the manifest among a board's files.
const ManifestPath = "manifest.json"

// Manifest is the content of a board's manifest.json: what a build made
// and from what, so that a build system can tell whether outputs are stale
// or were edited, and where each generated line comes from. It holds no
// timestamp and no boardc version, so that it changes only when an output
// or an input list does.
type Manifest struct {
	// Board is the board's name.
	Board string `json:"board"`
	// Emitters are the names of the emitters that ran, sorted.
	Emitters []string `json:"emitters"`
	// Files are every other output of the board, sorted by path.
	Files []ManifestFile `json:"files"`
	// Inputs are the CUE files the description was loaded from, relative
	// to its CUE module root, sorted.
	Inputs []string `json:"inputs"`
	// Schema is the schema version the description was checked against.
	Schema int `json:"schema"`
}

// ManifestFile is one output file, the SHA-256 of its content and where
// its lines come from.
type ManifestFile struct {
	Path string `json:"path"`
	// SHA256 is the hex digest of the file's content.
	SHA256 string `json:"sha256"`
	// Lines give the origin of the lines that come from the description
	// elements: the lines of one origin together, in the order of their
	// first line. Lines of boilerplate are not listed.
	Lines []ManifestLines `json:"lines,omitempty"`
	// Names maps what a line defines or sets (a DT property, a C symbol,
	// a runtime path, an IRQ action name, a sysctl) to the lines that do,
	// as in ManifestLines.At.
	Names map[string]string `json:"names,omitempty"`
}

// ManifestLines is the origin shared by some lines of an output.
type ManifestLines struct {
	// At lists the lines, numbered from 1, as runs "27-28,30,34".
	At string `json:"at"`
	// Refs are the description elements the lines are made from, as
	// diagnostics and waivers name them (soc.masters.crypto).
	Refs []ir.Ref `json:"refs,omitempty"`
	// Pos are the positions of the facts behind the lines, as src:line
	// relative to the description's CUE module root, as the lines'
	// comments print them.
	Pos []string `json:"pos,omitempty"`
}

// lineSet collects line runs and prints them as "27-28,30,34".
type lineSet struct{ runs [][2]int }

func (s *lineSet) add(first, last int) {
	if n := len(s.runs); n > 0 && s.runs[n-1][1] == first-1 {
		s.runs[n-1][1] = last
		return
	}
	s.runs = append(s.runs, [2]int{first, last})
}

func (s *lineSet) String() string {
	var b strings.Builder
	for i, r := range s.runs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(r[0]))
		if r[1] != r[0] {
			b.WriteString("-" + strconv.Itoa(r[1]))
		}
	}
	return b.String()
}

// short formats p as ir.Pos.Short does, src:line, without fmt: a large
// board's map has tens of thousands of them.
func short(p ir.Pos) string {
	if !p.IsValid() {
		return "-"
	}
	return src(p) + ":" + strconv.Itoa(p.Line)
}

// manifestLines returns where f's lines come from: the lines of each
// origin, and the lines of each name.
func manifestLines(f outputs.File) ([]ManifestLines, map[string]string) {
	type group struct {
		refs []ir.Ref
		pos  []ir.Pos
		at   lineSet
	}
	var groups []*group
	// Groups by a hash of their refs and positions; equal hashes are
	// told apart by content.
	byHash := map[uint64][]*group{}
	names := map[string]*lineSet{}
	for _, a := range f.Annotations {
		for _, n := range a.Names {
			if names[n] == nil {
				names[n] = &lineSet{}
			}
			names[n].add(a.Line, a.End)
		}
		if len(a.Refs) == 0 && len(a.Pos) == 0 {
			continue
		}
		h := originHash(a.Refs, a.Pos)
		var g *group
		for _, c := range byHash[h] {
			if slices.Equal(c.refs, a.Refs) && slices.EqualFunc(c.pos, a.Pos, sameLine) {
				g = c
				break
			}
		}
		if g == nil {
			g = &group{refs: a.Refs, pos: a.Pos}
			byHash[h] = append(byHash[h], g)
			groups = append(groups, g)
		}
		g.at.add(a.Line, a.End)
	}
	lines := make([]ManifestLines, 0, len(groups))
	for _, g := range groups {
		l := ManifestLines{At: g.at.String(), Refs: g.refs}
		if len(g.pos) > 0 {
			l.Pos = make([]string, len(g.pos))
			for i, p := range g.pos {
				l.Pos[i] = short(p)
			}
		}
		lines = append(lines, l)
	}
	var at map[string]string
	if len(names) > 0 {
		at = make(map[string]string, len(names))
		for n, s := range names {
			at[n] = s.String()
		}
	}
	return lines, at
}

// sameLine reports whether a and b print as the same src:line.
func sameLine(a, b ir.Pos) bool { return src(a) == src(b) && a.Line == b.Line }

// src returns the file of p as short prints it.
func src(p ir.Pos) string {
	if p.Src == "" {
		return p.File
	}
	return p.Src
}

// originHash hashes refs and the src:line of pos (FNV-1a).
func originHash(refs []ir.Ref, pos []ir.Pos) uint64 {
	h := uint64(14695981039346656037)
	mix := func(s string) {
		for i := 0; i < len(s); i++ {
			h ^= uint64(s[i])
			h *= 1099511628211
		}
		h ^= 0xff
		h *= 1099511628211
	}
	for _, r := range refs {
		mix(string(r))
	}
	h ^= 0xfe
	for _, p := range pos {
		mix(src(p))
		h ^= uint64(p.Line)
		h *= 1099511628211
	}
	return h
}

// manifestFile returns f's entry in the manifest: its SHA-256 and where
// its lines come from. The emitters' goroutines call it, each on its
// files.
func manifestFile(f outputs.File) ManifestFile {
	sum := sha256.Sum256(f.Data)
	lines, names := manifestLines(f)
	return ManifestFile{Path: f.Path, SHA256: hex.EncodeToString(sum[:]), Lines: lines, Names: names}
}

// manifest returns manifest.json for the board's files, made by emitters,
// from their entries (manifestFile). Every list is sorted, so the JSON is
// deterministic.
func manifest(b *ir.Board, emitters []outputs.Emitter, files []ManifestFile) outputs.File {
	m := Manifest{
		Board:    b.Name,
		Emitters: []string{},
		Files:    []ManifestFile{},
		Inputs:   append([]string{}, b.SourcesRel...),
		Schema:   schema.Version,
	}
	for _, e := range emitters {
		m.Emitters = append(m.Emitters, e.Name)
	}
	for _, f := range files {
		if f.Path != ManifestPath {
			m.Files = append(m.Files, f)
		}
	}
	sort.Strings(m.Emitters)
	sort.Slice(m.Files, func(i, j int) bool { return m.Files[i].Path < m.Files[j].Path })
	sort.Strings(m.Inputs)
	return outputs.File{Path: ManifestPath, Data: m.encode()}
}

// encode returns m as JSON indented by two spaces, as encoding/json
// indents it, except that each entry of a file's lines and names is
// written on one line of its own: they are most of the manifest, and one
// entry a line keeps it compact and a diff of it readable.
func (m *Manifest) encode() []byte {
	var b bytes.Buffer
	b.WriteString("{\n")
	b.WriteString(`  "board": ` + jsonText(m.Board) + ",\n")
	b.WriteString(`  "emitters": ` + jsonList(m.Emitters, "  ") + ",\n")
	b.WriteString(`  "files": [`)
	for i, f := range m.Files {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    {\n")
		b.WriteString(`      "path": ` + jsonText(f.Path) + ",\n")
		b.WriteString(`      "sha256": ` + jsonText(f.SHA256))
		if len(f.Lines) > 0 {
			b.WriteString(",\n" + `      "lines": [`)
			for j, l := range f.Lines {
				if j > 0 {
					b.WriteByte(',')
				}
				b.WriteString("\n        ")
				l.encode(&b)
			}
			b.WriteString("\n      ]")
		}
		if len(f.Names) > 0 {
			b.WriteString(",\n" + `      "names": {`)
			keys := make([]string, 0, len(f.Names))
			for k := range f.Names {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for j, k := range keys {
				if j > 0 {
					b.WriteByte(',')
				}
				b.WriteString("\n        " + jsonString(k) + ": " + jsonString(f.Names[k]))
			}
			b.WriteString("\n      }")
		}
		b.WriteString("\n    }")
	}
	if len(m.Files) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("],\n")
	b.WriteString(`  "inputs": ` + jsonList(m.Inputs, "  ") + ",\n")
	b.WriteString(`  "schema": ` + jsonText(m.Schema) + "\n")
	b.WriteString("}\n")
	return b.Bytes()
}

// encode writes l as compact JSON, as encoding/json writes it.
func (l ManifestLines) encode(b *bytes.Buffer) {
	b.WriteString(`{"at":` + jsonString(l.At))
	if len(l.Refs) > 0 {
		b.WriteString(`,"refs":[`)
		for i, r := range l.Refs {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(jsonString(string(r)))
		}
		b.WriteByte(']')
	}
	if len(l.Pos) > 0 {
		b.WriteString(`,"pos":[`)
		for i, p := range l.Pos {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(jsonString(p))
		}
		b.WriteByte(']')
	}
	b.WriteByte('}')
}

// jsonString returns s as a JSON string, as jsonText would.
func jsonString(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return jsonText(s)
		}
	}
	return `"` + s + `"`
}

// jsonText returns v as compact JSON, without escaping HTML.
func jsonText(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // strings, ints and lists of them always encode
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// jsonList returns a list of strings as encoding/json indents it at
// indent: one element a line, or [] when empty.
func jsonList(s []string, indent string) string {
	if len(s) == 0 {
		return "[]"
	}
	var b strings.Builder
	b.WriteByte('[')
	for i, x := range s {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n" + indent + "  " + jsonText(x))
	}
	b.WriteString("\n" + indent + "]")
	return b.String()
}
