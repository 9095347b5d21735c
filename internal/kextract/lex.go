// Package kextract reads a Linux source tree (drivers/, sound/) and writes
// the driver-facts catalogue of compiler/kernel: for every driver structure
// that matches on device-tree compatibles, what its probe function does
// with the DMA masks of the device, the IRQs it requests and whether it is
// a bridge.
//
// It does not parse C: it tokenizes it (comments, strings, character
// literals and preprocessor lines handled exactly), matches braces and
// parentheses, and indexes the functions and file-scope initializers of
// every file. docs/kernel-facts.md gives the reasons and the rules.
package kextract

import (
	"strings"
)

// kind is a token's lexical class.
type kind uint8

const (
	tIdent kind = iota
	tNumber
	tString
	tChar
	tPunct
)

// token is one C token: its class, its text (a slice of the file's
// source), its line, and its byte range in the source.
type token struct {
	k    kind
	s    string
	line int32
	off  int32
	end  int32
}

// lexed is a tokenized file: its tokens, and the simple object-like
// macros it defines (#define NAME body, body on one line).
type lexed struct {
	src     string
	toks    []token
	defines map[string]string
}

// lex tokenizes C source. Comments are dropped. Preprocessor lines are
// dropped too, except that #define NAME BODY records BODY; of each
// #if/#elif/#else/#endif group only the first branch is kept (the
// branch of "#if 0" is skipped), so that braces stay balanced where the
// branches each open one.
func lex(src string) *lexed {
	l := &lexed{src: src, defines: map[string]string{}}
	line := int32(1)
	n := len(src)
	bol := true // at the beginning of a line, blanks aside
	// skip counts the #if nesting while a branch is dropped; 0 keeps.
	skip := 0
	// stack holds, per open #if, whether a branch was already kept.
	var stack []bool
	i := 0
	for i < n {
		c := src[i]
		switch {
		case c == '\n':
			line++
			bol = true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '\\' && i+1 < n && src[i+1] == '\n':
			line++
			i += 2
			continue
		case c == '/' && i+1 < n && src[i+1] == '/':
			for i < n && src[i] != '\n' {
				if src[i] == '\\' && i+1 < n && src[i+1] == '\n' {
					line++
					i++
				}
				i++
			}
			continue
		case c == '/' && i+1 < n && src[i+1] == '*':
			j := strings.Index(src[i+2:], "*/")
			end := n
			if j >= 0 {
				end = i + 2 + j + 2
			}
			line += int32(strings.Count(src[i:end], "\n"))
			i = end
			continue
		case c == '#' && bol:
			// A preprocessor line, continuations and comments included.
			j := i + 1
			for j < n && src[j] != '\n' {
				if src[j] == '\\' && j+1 < n && src[j+1] == '\n' {
					j += 2
					continue
				}
				if src[j] == '/' && j+1 < n && src[j+1] == '*' {
					k := strings.Index(src[j+2:], "*/")
					if k < 0 {
						j = n
						break
					}
					j += 2 + k + 2
					continue
				}
				j++
			}
			text := src[i+1 : j]
			line += int32(strings.Count(text, "\n"))
			dir, rest := directive(text)
			switch dir {
			case "if", "ifdef", "ifndef":
				if skip > 0 {
					skip++
				} else {
					zero := dir == "if" && strings.TrimSpace(stripComments(rest)) == "0"
					stack = append(stack, !zero)
					if zero {
						skip = 1
					}
				}
			case "elif", "else", "elifdef", "elifndef":
				if skip == 1 && len(stack) > 0 && !stack[len(stack)-1] {
					// "#if 0 ... #else": keep this branch.
					skip = 0
					stack[len(stack)-1] = true
				} else if skip == 0 && len(stack) > 0 {
					skip = 1
				}
			case "endif":
				if skip > 1 {
					skip--
				} else {
					if skip == 1 {
						skip = 0
					}
					if len(stack) > 0 {
						stack = stack[:len(stack)-1]
					}
				}
			case "define":
				if skip == 0 {
					l.define(rest)
				}
			}
			i = j
			continue
		}
		bol = false
		start := i
		k := tPunct
		switch {
		case isIdentStart(c):
			for i < n && isIdent(src[i]) {
				i++
			}
			k = tIdent
			// A string with an encoding prefix: L"...", u8"...".
			if i < n && (src[i] == '"' || src[i] == '\'') && isEncodingPrefix(src[start:i]) {
				i = skipQuoted(src, i)
				k = tString
				if src[start+len(src[start:i])-1] == '\'' {
					k = tChar
				}
			}
		case c >= '0' && c <= '9' || c == '.' && i+1 < n && src[i+1] >= '0' && src[i+1] <= '9':
			for i < n && (isIdent(src[i]) || src[i] == '.' ||
				(src[i] == '+' || src[i] == '-') && (src[i-1] == 'e' || src[i-1] == 'E' || src[i-1] == 'p' || src[i-1] == 'P')) {
				i++
			}
			k = tNumber
		case c == '"':
			i = skipQuoted(src, i)
			k = tString
		case c == '\'':
			i = skipQuoted(src, i)
			k = tChar
		default:
			i += punctLen(src[i:])
		}
		if skip > 0 {
			continue
		}
		l.toks = append(l.toks, token{k: k, s: src[start:i], line: line, off: int32(start), end: int32(i)})
	}
	return l
}

// directive splits a preprocessor line into its directive and the rest.
func directive(text string) (string, string) {
	t := strings.TrimLeft(text, " \t")
	j := 0
	for j < len(t) && isIdent(t[j]) {
		j++
	}
	return t[:j], t[j:]
}

// define records an object-like macro whose body is one short line.
func (l *lexed) define(rest string) {
	rest = strings.TrimLeft(rest, " \t")
	j := 0
	for j < len(rest) && isIdent(rest[j]) {
		j++
	}
	if j == 0 || j < len(rest) && rest[j] == '(' {
		return // a function-like macro
	}
	body := strings.TrimSpace(stripComments(rest[j:]))
	if body == "" || len(body) > 80 || strings.ContainsAny(body, "\\\n") {
		return
	}
	l.defines[strings.Clone(rest[:j])] = strings.Clone(body)
}

// stripComments drops the /* */ and // comments of a preprocessor line.
func stripComments(s string) string {
	for {
		i := strings.Index(s, "/*")
		if i < 0 {
			break
		}
		j := strings.Index(s[i+2:], "*/")
		if j < 0 {
			s = s[:i]
			break
		}
		s = s[:i] + " " + s[i+2+j+2:]
	}
	if i := strings.Index(s, "//"); i >= 0 {
		s = s[:i]
	}
	return s
}

// skipQuoted returns the index after the string or character literal
// that opens at i. An unterminated literal ends at the line's end.
func skipQuoted(src string, i int) int {
	q := src[i]
	i++
	for i < len(src) {
		switch src[i] {
		case '\\':
			i += 2
			continue
		case q:
			return i + 1
		case '\n':
			return i
		}
		i++
	}
	return len(src)
}

func isEncodingPrefix(s string) bool {
	return s == "L" || s == "u" || s == "U" || s == "u8"
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '$'
}

func isIdent(c byte) bool {
	return isIdentStart(c) || c >= '0' && c <= '9'
}

// puncts are C's multi-character punctuators, longest first.
var puncts = []string{"...", "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
	"*=", "/=", "%=", "+=", "-=", "&=", "^=", "|=", "##"}

// punctLen returns the length of the punctuator at the start of s.
func punctLen(s string) int {
	switch s[0] {
	case '.', '<', '>', '-', '+', '=', '!', '&', '|', '*', '/', '%', '^', '#':
		for _, p := range puncts {
			if strings.HasPrefix(s, p) {
				return len(p)
			}
		}
	}
	return 1
}

// text returns the source between tokens a and b (inclusive), blanks
// collapsed to single spaces.
func (l *lexed) text(a, b int) string {
	if a > b || a < 0 || b >= len(l.toks) {
		return ""
	}
	return strings.Clone(collapse(l.src[l.toks[a].off:l.toks[b].end]))
}

// collapse replaces each run of blanks (newlines included) and each
// comment by one space.
func collapse(s string) string {
	if strings.Contains(s, "/*") || strings.Contains(s, "//") {
		for {
			i := strings.Index(s, "/*")
			if i < 0 {
				break
			}
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				s = s[:i]
				break
			}
			s = s[:i] + " " + s[i+2+j+2:]
		}
		var b strings.Builder
		for _, ln := range strings.Split(s, "\n") {
			if i := strings.Index(ln, "//"); i >= 0 {
				ln = ln[:i]
			}
			b.WriteString(ln)
			b.WriteByte(' ')
		}
		s = b.String()
	}
	return strings.Join(strings.Fields(s), " ")
}

// match returns the index of the token that closes the bracket opened at
// i ("(", "[" or "{"), len(toks)-1 when it is not closed.
func (l *lexed) match(i int) int {
	depth := 0
	for j := i; j < len(l.toks); j++ {
		if l.toks[j].k != tPunct {
			continue
		}
		switch l.toks[j].s {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return len(l.toks) - 1
}

// is reports whether token i is the punctuator or identifier s.
func (l *lexed) is(i int, s string) bool {
	return i >= 0 && i < len(l.toks) && l.toks[i].s == s && (l.toks[i].k == tPunct || l.toks[i].k == tIdent)
}
