package outputs

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Lang is the escaping policy of one output language: how a comment is
// written in it and how free text is made safe inside one, how a string
// from the description becomes one literal or word of it, and how free
// text is written as a setting's value. The printer applies it to every
// value an emitter hands it as text (Text, Note, a comment) or as a
// string (Str); what an emitter passes as code is written as is.
type Lang struct {
	// Name names the language in panics.
	Name string
	// open, prefix and close frame a comment block ("/*", " *", " */");
	// a language of line comments has only a prefix ("#").
	open, prefix, close string
	// trailOpen and trailClose frame a comment after code on the same
	// line; empty where the language has none.
	trailOpen, trailClose string
	// width is the column Comment wraps paragraphs at; 0 never wraps.
	width int
	// comment makes free text safe inside one comment line.
	comment func(string) string
	// str renders a string as one literal or word of the language.
	str func(string) string
	// check, where not nil, says why str cannot write a string: the
	// language has no way to write it as it is (see Lang.Check).
	check func(string) error
	// text renders free text as a setting's value; nil where the
	// language has no such place.
	text func(string) string
}

// The output languages.
var (
	// C is kernel C: block comments wrapped at 80 columns, string literals
	// with octal escapes.
	C = &Lang{
		Name: "C", open: "/*", prefix: " *", close: " */",
		trailOpen: " /* ", trailClose: " */", width: 80,
		comment: blockComment, str: cString,
	}
	// DTS is device-tree source, as dtc and the C preprocessor the kernel
	// runs before it read it: block comments, never wrapped, and string
	// literals with dtc's escapes.
	DTS = &Lang{
		Name: "DTS", open: "/*", prefix: " *", close: " */",
		trailOpen: " /* ", trailClose: " */",
		comment: blockComment, str: dtsString,
	}
	// Shell is POSIX sh: '#' comments, and every string one single-quoted
	// word, in which nothing is expanded.
	Shell = &Lang{
		Name: "shell", prefix: "#", trailOpen: " # ",
		comment: oneLine, str: shellWord,
	}
	// Systemd is a systemd unit file: '#' comment lines, strings as
	// arguments of an Exec*= line, free text as a setting's value with
	// specifiers escaped.
	Systemd = &Lang{
		Name: "systemd", prefix: "#",
		comment: confComment, str: execArg, text: unitText,
	}
	// Conf is a key = value file (sysctl.d, an environment file): '#'
	// comment lines, and keys and values written as they are. It has no
	// quoting that every reader shares, so a string it cannot write as
	// it is is refused, never altered: Check says why, and the printer
	// panics on it, so an emitter checks first and leaves the value out
	// with a comment saying why.
	Conf = &Lang{
		Name: "conf", prefix: "#",
		comment: confComment, str: confValue, check: checkConf, text: confComment,
	}
)

// oneLine makes s one line of text: each control character, which could
// end the line or a comment in some consumer, each Unicode line or
// paragraph separator, each bidirectional control (which can make a
// reviewer read code as comment) and each byte that is not UTF-8 becomes
// '?'. A tab stays.
func oneLine(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1, unsafeRune(r):
			b.WriteByte('?')
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// isPlain reports whether s is printable ASCII or tabs, which every policy
// keeps as it is.
func isPlain(s string) bool {
	// Eight bytes at a time: a word none of whose bytes is 0x7f or
	// more, or below 0x20, is plain; one that may hold a tab is looked
	// at byte by byte.
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		// x+1 per byte carries into the high bit for 0x7f; x-0x20 per
		// byte borrows into it below 0x20 (no byte has its high bit
		// set by then, so neither crosses into the next byte).
		if x&highs != 0 || (x+ones)&highs != 0 || (x-0x20*ones)&^x&highs != 0 {
			if !plainBytes(s[i : i+8]) {
				return false
			}
		}
	}
	return plainBytes(s[i:])
}

// plainBytes is isPlain one byte at a time.
func plainBytes(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\t') || c >= 0x7f {
			return false
		}
	}
	return true
}

// unsafeRune reports whether oneLine replaces r.
func unsafeRune(r rune) bool {
	switch {
	case r == '\t':
		return false
	case r < 0x20, r >= 0x7f && r < 0xa0: // C0, DEL, C1 (NEL among them)
		return true
	case r == 0x2028, r == 0x2029: // line and paragraph separators
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f,
		r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069: // bidi controls
		return true
	}
	return false
}

// blockComment makes s safe inside a C or DTS block comment, on one line:
// oneLine, then no "*/" that would end the comment early, no "/*"
// (-Wcomment, and a reader's eye) and no trigraph, which the C
// preprocessor warns about where wrapping puts it at the end of a line
// (-Wtrigraphs: "??/" there is an escaped newline).
func blockComment(s string) string {
	s = oneLine(s)
	for strings.Contains(s, "*/") || strings.Contains(s, "/*") {
		s = commentEnds.Replace(s)
	}
	if strings.Contains(s, "??") {
		s = trigraphs.Replace(s)
	}
	return s
}

// confComment makes s safe as the text of a '#' comment line of a systemd
// unit, an environment file or a sysctl.d file: oneLine, and no odd run of
// backslashes at its end, which systemd's parsers read as a continuation
// that swallows the next line into the comment.
func confComment(s string) string {
	s = oneLine(s)
	n := len(s) - len(strings.TrimRight(s, `\`))
	if n%2 == 1 {
		s += `\`
	}
	return s
}

// Check returns nil when the language writes s as a string (Str) as it
// is, and otherwise an error saying why it cannot. Every language but
// Conf quotes or escapes whatever s holds.
func (l *Lang) Check(s string) error {
	if l.check == nil {
		return nil
	}
	return l.check(s)
}

// checkConf says why a key or value cannot be written in a key = value
// file, read by systemd-sysctl, sysctl --system and systemd's environment
// file parser: a character that ends the line or that oneLine would
// replace; a blank at either end, which every reader strips; a
// backslash or a quote, which an environment file reads as quoting or an
// escape.
func checkConf(s string) error {
	switch {
	case oneLine(s) != s:
		return fmt.Errorf("%q holds a control character, a line separator, a bidirectional control or a byte that is not UTF-8", s)
	case strings.TrimSpace(s) != s:
		return fmt.Errorf("%q has a blank at its start or end, which the readers of the file strip", s)
	case strings.ContainsAny(s, `\"'`):
		return fmt.Errorf("%q holds a backslash or a quote, which an environment file reads as an escape or quoting", s)
	}
	return nil
}

// confValue returns s, which checkConf accepted, as it is.
func confValue(s string) string { return s }

// The replacers of the policies, built once (a Replacer is safe for
// concurrent use).
var (
	commentEnds = strings.NewReplacer("*/", "* /", "/*", "/ *")
	trigraphs   = strings.NewReplacer("??=", "?? =", "??/", "?? /", "??'", "?? '", "??(", "?? (",
		"??)", "?? )", "??!", "?? !", "??<", "?? <", "??>", "?? >", "??-", "?? -")
	unitEscapes  = strings.NewReplacer("%", "%%", "$", "$$")
	quoteEscapes = strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	shellQuotes  = strings.NewReplacer("'", `'\''`, "\x00", "?")
)

// cString returns s as a C string literal: '"' and '\\' escaped, every
// byte outside printable ASCII and every '?' (trigraphs) in octal, so the
// literal stays valid C on one line whatever s holds.
func cString(s string) string { return quoteBytes(s, "\\%03o") }

// dtsString returns s as a DTS string literal, as dtc reads one
// (get_escape_char() in dtc's util.c): '"' and '\\' escaped and every byte
// outside printable ASCII, and every '?' (a trigraph to the C preprocessor
// kbuild runs first), as \xNN. A NUL would end the property's value early,
// so it is escaped like any other control byte.
func dtsString(s string) string { return quoteBytes(s, "\\x%02x") }

// quoteBytes returns s double-quoted with '"' and '\\' escaped by a
// backslash and every other byte outside printable ASCII, and '?', written
// with format.
func quoteBytes(s, format string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c >= 0x7f || c == '?':
			fmt.Fprintf(&b, format, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// shellWord returns s as one single-quoted shell word: nothing in it is
// expanded, whatever it contains, and a newline in it stays part of the
// word. A NUL, which no shell word can hold, becomes '?'.
func shellWord(s string) string {
	return "'" + shellQuotes.Replace(s) + "'"
}

// execArg returns s as one argument of a systemd Exec*= line: on one line,
// specifiers ('%') and variable references ('$') escaped, and quoted where
// it holds blanks, quotes, backslashes or a ';' (which alone would
// separate commands).
func execArg(s string) string {
	s = unitEscapes.Replace(oneLine(s))
	if s == "" || strings.ContainsAny(s, " \t\"'\\;") {
		s = `"` + quoteEscapes.Replace(s) + `"`
	}
	return s
}

// unitText returns free text as the value of a systemd unit setting such
// as Description=: on one line, with '%' (a specifier) doubled and no odd
// run of backslashes at its end (a continuation).
func unitText(s string) string {
	return confComment(strings.ReplaceAll(s, "%", "%%"))
}

// SystemdEscape escapes s for use in a unit name as systemd-escape does:
// every byte outside [a-zA-Z0-9:_.] (and a leading '.') becomes \xNN, so
// "br-lan" is "br\x2dlan".
func SystemdEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == ':' || c == '_' || c == '.' && i > 0
		if ok {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, `\x%02x`, c)
		}
	}
	return b.String()
}

// OneLine makes s one line of text, as every policy makes free text:
// control characters, line and paragraph separators, bidirectional
// controls and bytes that are not UTF-8 become '?'. An output written
// without a Printer (the report's DOT and HTML) applies it to
// description text before its own escaping.
func OneLine(s string) string { return oneLine(s) }
