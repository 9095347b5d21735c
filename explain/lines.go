package explain

import (
	"slices"
	"strings"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/outputs"
)

// origin reads one entry of a manifest file's lines: the elements the
// lines are made from and the lines' numbers, from 1. It is the one
// place explain reads the form of outputs.Lines.
func origin(l outputs.Lines) ([]ir.Ref, []int) {
	return l.Refs, lines(l.Runs)
}

// named returns the lines of a manifest file that define or set name, and
// whether there is any: the one place explain reads the form of
// outputs.ManifestFile.Names.
func named(f outputs.ManifestFile, name string) (lineSet, bool) {
	at, ok := f.Names[name]
	if !ok {
		return nil, false
	}
	return newLineSet(lines(at)), true
}

// lines returns the line numbers the runs hold.
func lines(rs outputs.Runs) []int {
	var out []int
	for _, r := range rs {
		for n := r.First; n <= r.Last; n++ {
			out = append(out, n)
		}
	}
	return out
}

// lineSet is a set of line numbers.
type lineSet map[int]bool

func newLineSet(lines []int) lineSet {
	s := make(lineSet, len(lines))
	for _, n := range lines {
		s[n] = true
	}
	return s
}

func (s lineSet) has(n int) bool { return s[n] }

func (s lineSet) anyOf(lines []int) bool {
	for _, n := range lines {
		if s.has(n) {
			return true
		}
	}
	return false
}

// generatedLines returns the lines the manifest records as made from the
// elements of refs (and, with a name, defining or setting it), in file
// and line order, their text taken from files; an empty list, not nil,
// when there is none.
func generatedLines(m *outputs.Manifest, files []outputs.File, refs refSet, name string) []Line {
	out := []Line{}
	if m == nil {
		return out
	}
	data := make(map[string][]byte, len(files))
	for _, f := range files {
		data[f.Path] = f.Data
	}
	for _, f := range m.Files {
		var setting lineSet
		if name != "" {
			var ok bool
			if setting, ok = named(f, name); !ok {
				continue
			}
		}
		var nums []int
		for _, l := range f.Lines {
			lineRefs, lines := origin(l)
			if !refs.any(lineRefs) {
				continue
			}
			for _, n := range lines {
				if name == "" || setting.has(n) {
					nums = append(nums, n)
				}
			}
		}
		if len(nums) == 0 {
			continue
		}
		slices.Sort(nums)
		text := strings.Split(string(data[f.Path]), "\n")
		for _, n := range slices.Compact(nums) {
			if n <= len(text) {
				out = append(out, Line{File: f.Path, Line: n, Text: text[n-1]})
			}
		}
	}
	return out
}
