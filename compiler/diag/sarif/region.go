package sarif

import (
	"bytes"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// region returns the region of line and col (a byte column, as CUE
// counts) in the file abs. Where the file can be read, the columns are
// counted in UTF-16 code units, as SARIF's default columnKind counts
// them, and the region ends where the token at col ends: an identifier,
// a number, a quoted string, else one character.
func (w *writer) region(abs string, line, col int) *Region {
	r := &Region{StartLine: line, StartColumn: col}
	if col <= 0 {
		r.StartColumn = 0
		return r
	}
	text, ok := w.line(abs, line)
	if !ok || col-1 > len(text) {
		return r
	}
	start := col - 1
	end := tokenEnd(text, start)
	r.StartColumn = utf16Len(text[:start]) + 1
	if end > start {
		r.EndLine, r.EndColumn = line, utf16Len(text[:end])+1
	}
	return r
}

// line returns line n (1-based) of the file abs, without its newline.
func (w *writer) line(abs string, n int) ([]byte, bool) {
	if w.o.ReadFile == nil {
		return nil, false
	}
	data, seen := w.files[abs]
	if !seen {
		var err error
		if data, err = w.o.ReadFile(abs); err != nil {
			data = nil
		}
		w.files[abs] = data
	}
	if data == nil {
		return nil, false
	}
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(data, '\n')
		if j < 0 {
			return nil, false
		}
		data = data[j+1:]
	}
	if j := bytes.IndexByte(data, '\n'); j >= 0 {
		data = data[:j]
	}
	return bytes.TrimSuffix(data, []byte("\r")), true
}

// tokenEnd returns the byte offset just past the token of text that
// starts at start: a quoted string to its closing quote, a run of
// identifier or number characters (CUE's letters, digits, _, $ and #),
// else one character. It returns start at the end of the line.
func tokenEnd(text []byte, start int) int {
	if start >= len(text) {
		return start
	}
	if text[start] == '"' {
		for i := start + 1; i < len(text); i++ {
			switch text[i] {
			case '\\':
				i++
			case '"':
				return i + 1
			}
		}
		return len(text)
	}
	i := start
	for i < len(text) {
		r, size := utf8.DecodeRune(text[i:])
		if !identRune(r) {
			break
		}
		i += size
	}
	if i == start {
		_, size := utf8.DecodeRune(text[start:])
		i += size
	}
	return i
}

// identRune reports whether r continues an identifier or a number.
func identRune(r rune) bool {
	return r == '_' || r == '$' || r == '#' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// utf16Len counts the UTF-16 code units of text; an invalid byte counts
// as one.
func utf16Len(text []byte) int {
	n := 0
	for len(text) > 0 {
		r, size := utf8.DecodeRune(text)
		n += max(1, utf16.RuneLen(r))
		text = text[size:]
	}
	return n
}
