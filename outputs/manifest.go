package outputs

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sort"
	"strings"

	"boardc.dev/boardc/compiler/ir"
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
	Lines []Lines `json:"lines,omitempty"`
	// Names maps what a line defines or sets (a DT property, a C symbol,
	// a runtime path, an IRQ action name, a sysctl) to the lines that do.
	Names map[string]Runs `json:"names,omitempty"`
}

// ManifestEntry returns f's entry in the manifest: its SHA-256 and where
// its lines come from. It only reads f, so the emitters' goroutines can
// call it, each on its own files.
func ManifestEntry(f File) ManifestFile {
	sum := sha256.Sum256(f.Data)
	lines, names := Origins(f)
	return ManifestFile{Path: f.Path, SHA256: hex.EncodeToString(sum[:]), Lines: lines, Names: names}
}

// NewManifest returns the manifest of the board's files, made by emitters,
// from their entries (ManifestEntry). Every list is sorted, so its JSON
// (Encode) is deterministic.
func NewManifest(b *ir.Board, emitters []Emitter, files []ManifestFile) *Manifest {
	m := Manifest{
		Board:    b.Name,
		Emitters: []string{},
		Files:    []ManifestFile{},
		Inputs:   make([]string, 0, len(b.Sources)),
		Schema:   schema.Version,
	}
	for _, s := range b.Sources {
		m.Inputs = append(m.Inputs, s.Rel)
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
	return &m
}

// DecodeManifest reads a manifest.json, as Encode writes it.
func DecodeManifest(data []byte) (*Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// File returns the manifest as the board's manifest.json.
func (m *Manifest) File() File { return File{Path: ManifestPath, Data: m.Encode()} }

// Encode returns m as JSON indented by two spaces, as encoding/json
// indents it, except that each entry of a file's lines and names is
// written on one line of its own: they are most of the manifest, and one
// entry a line keeps it compact and a diff of it readable.
func (m *Manifest) Encode() []byte {
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
				b.WriteString("\n        ")
				writeJSONString(&b, k)
				b.WriteString(": ")
				writeJSONString(&b, f.Names[k].String())
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

// writeJSONString writes s to b as a JSON string, as jsonText would
// return it, without making the string unless it needs escaping: a
// manifest writes several for every annotation.
func writeJSONString(b *bytes.Buffer, s string) {
	if !plainJSON(s) {
		b.WriteString(jsonText(s))
		return
	}
	b.WriteByte('"')
	b.WriteString(s)
	b.WriteByte('"')
}

// plainJSON reports whether s is written in JSON as it is, between
// quotes.
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
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
