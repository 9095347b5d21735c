package compiler

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sort"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/outputs"
	"boardc.dev/boardc/schema"
)

// ManifestPath is the path of the manifest among a board's files.
const ManifestPath = "manifest.json"

// Manifest is the content of a board's manifest.json: what a build made
// and from what, so that a build system can tell whether outputs are stale
// or were edited. It holds no timestamp and no boardc version, so that it
// changes only when an output or an input list does.
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

// ManifestFile is one output file and the SHA-256 of its content.
type ManifestFile struct {
	Path string `json:"path"`
	// SHA256 is the hex digest of the file's content.
	SHA256 string `json:"sha256"`
}

// manifest returns manifest.json for the board's files, made by emitters.
// Fields are declared in key order and every list is sorted, so the JSON
// is deterministic.
func manifest(b *ir.Board, emitters []outputs.Emitter, files []outputs.File) outputs.File {
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
		if f.Path == ManifestPath {
			continue
		}
		sum := sha256.Sum256(f.Data)
		m.Files = append(m.Files, ManifestFile{Path: f.Path, SHA256: hex.EncodeToString(sum[:])})
	}
	sort.Strings(m.Emitters)
	sort.Slice(m.Files, func(i, j int) bool { return m.Files[i].Path < m.Files[j].Path })
	sort.Strings(m.Inputs)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		panic(err) // strings and ints always encode
	}
	return outputs.File{Path: ManifestPath, Data: buf.Bytes()}
}
