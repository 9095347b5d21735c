package draft

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The draft's CUE text is written through the functions below: every
// string (model, compatibles, labels, paths, core names, sources) is
// quoted by quote, through the writer's q, every field key written by
// label, every comment cleaned by commentText. CUE's string literals are not Go's: a double-quoted
// string holds valid UTF-8 only and has no \x or octal escapes; a control
// character is written \a \b \f \n \r \t \v or \uXXXX (the CUE
// specification, "String and byte sequence literals").

// quote quotes s as a CUE string literal, the way cuelang.org/go's
// literal.String quotes it: printable characters as they are, " and \
// backslashed, other characters as \a \b \f \n \r \t \v, \uXXXX or
// \UXXXXXXXX. A byte that is not part of valid UTF-8 cannot be in a CUE
// string; it is written as U+FFFD, and lossy reports that s held one.
func quote(s string) (q string, lossy bool) {
	b := make([]byte, 0, len(s)+2)
	b = append(b, '"')
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		s = s[n:]
		if r == utf8.RuneError && n == 1 {
			lossy = true
		}
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case strconv.IsPrint(r):
			b = utf8.AppendRune(b, r)
		case r == '\a':
			b = append(b, `\a`...)
		case r == '\b':
			b = append(b, `\b`...)
		case r == '\f':
			b = append(b, `\f`...)
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r == '\t':
			b = append(b, `\t`...)
		case r == '\v':
			b = append(b, `\v`...)
		case r < 0x10000:
			b = append(b, `\u`...)
			b = appendHex(b, uint32(r), 4)
		default:
			b = append(b, `\U`...)
			b = appendHex(b, uint32(r), 8)
		}
	}
	return string(append(b, '"')), lossy
}

func appendHex(b []byte, v uint32, digits int) []byte {
	const hexDigits = "0123456789ABCDEF"
	for i := digits - 1; i >= 0; i-- {
		b = append(b, hexDigits[v>>(4*i)&0xF])
	}
	return b
}

// q quotes s as a CUE string (see quote). Where s is not valid UTF-8,
// the next line is preceded by a TODO comment saying so and quoting s's
// bytes, for the vendor to write the string the tree meant.
func (w *w) q(s string) string {
	q, lossy := quote(s)
	if lossy {
		w.notes = append(w.notes, fmt.Sprintf("TODO the tree's string %s is not valid UTF-8, which a CUE string must be: its other bytes are written as U+FFFD below.", strconv.QuoteToASCII(s)))
	}
	return q
}

// qs quotes a list of strings.
func (w *w) qs(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = w.q(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// reserved are the identifiers a field key is quoted for: CUE's keywords,
// and its predeclared identifiers, which a bare label of the same name
// would shadow in the struct it is declared in.
var reserved = map[string]bool{
	// Keywords.
	"package": true, "import": true, "for": true, "in": true, "if": true, "let": true,
	"true": true, "false": true, "null": true,
	// Predeclared identifiers.
	"bool": true, "int": true, "float": true, "string": true, "bytes": true, "number": true,
	"int8": true, "int16": true, "int32": true, "int64": true, "int128": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "uint128": true,
	"float32": true, "float64": true, "rune": true,
	"len": true, "close": true, "and": true, "or": true, "div": true, "mod": true, "quo": true, "rem": true,
	"error": true, "matchN": true, "matchIf": true,
}

// label prints a field key: bare when it is an identifier CUE reads as a
// regular field of that name, quoted otherwise (a keyword, a predeclared
// identifier, a name starting with _ or # that would make it hidden or a
// definition, any other character).
func label(s string) string {
	quoted, _ := quote(s)
	if s == "" || reserved[s] || strings.HasPrefix(s, "__") {
		return quoted
	}
	for i, r := range s {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '$'
		digit := r >= '0' && r <= '9'
		if !letter && !(i > 0 && (digit || r == '_')) {
			return quoted
		}
	}
	return s
}

// commentText makes text safe in a // comment: valid UTF-8 (other bytes
// as U+FFFD) and no control characters, which are written as U+FFFD too
// (a line break would end the comment).
func commentText(text string) string {
	return strings.Map(func(r rune) rune {
		if r != ' ' && !strconv.IsPrint(r) {
			return utf8.RuneError
		}
		return r
	}, strings.ToValidUTF8(text, string(utf8.RuneError)))
}
