package load

import (
	"strings"

	"cuelang.org/go/cue"

	"boardc.dev/boardc/compiler/diag"
)

// schemaAt returns the schema, #Board, at path: what the schema says of
// a struct there, through the patterns of maps and the elements of lists
// (soc.masters.dma0 is a #Master). It returns a value that does not exist
// where path goes through no struct of the schema.
func schemaAt(board cue.Value, path []string) cue.Value {
	if len(path) == 0 || !board.Exists() {
		return board
	}
	p := pathOf(path)
	v := board.FillPath(p, struct{}{}).LookupPath(p)
	if v.Err() != nil {
		return cue.Value{}
	}
	return v
}

// unknownField returns the path of the field not allowed that path, the
// path of an error CUE reports below it (a list element, a field of a
// struct: soc.masters.dma0.compatibel[0]), is in: its shortest prefix
// whose last element the schema, board, does not allow where it is. It
// returns path when the schema allows every shorter prefix.
func unknownField(board cue.Value, path []string) []string {
	for n := 1; n < len(path); n++ {
		s := schemaAt(board, path[:n-1])
		if s.Exists() && s.IncompleteKind() == cue.StructKind && !s.Allows(selector(path[n-1])) {
			return path[:n]
		}
	}
	return path
}

// pathOf turns an error path back into a CUE path.
func pathOf(path []string) cue.Path {
	sels := make([]cue.Selector, 0, len(path))
	for _, s := range path {
		sels = append(sels, selector(s))
	}
	return cue.MakePath(sels...)
}

// suggest appends to d, about the field at path that the schema does not
// allow, the field of the schema there its name is likely a misspelling
// of (diag.Suggest): "; did you mean driverSets?".
func suggest(d diag.Diagnostic, board cue.Value, path []string) diag.Diagnostic {
	if len(path) == 0 || !strings.HasSuffix(d.Message, "field not allowed") {
		return d
	}
	s := schemaAt(board, path[:len(path)-1])
	if !s.Exists() {
		return d
	}
	it, err := s.Fields(cue.Optional(true))
	if err != nil {
		return d
	}
	var known []string
	for it.Next() {
		if it.Selector().LabelType() == cue.StringLabel {
			known = append(known, it.Selector().Unquoted())
		}
	}
	if s := diag.Suggest(strings.Trim(path[len(path)-1], `"`), known); s != "" {
		d.Message += "; did you mean " + s + "?"
	}
	return d
}
