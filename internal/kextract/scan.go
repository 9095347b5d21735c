package kextract

import "strings"

// The scanners here stand for regular expressions the extractor applies
// to every expression of a driver (scan_test.go holds each expression
// and checks the scanner against it): a backtracking match anchored at
// the end is quadratic in the expression, and they were a sixth of the
// extractor's CPU.

// nameStart reports whether c may begin a name: [A-Za-z_] (the lexer's
// isIdentStart also takes GNU C's $).
func nameStart(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// nameByte reports whether c is a word byte, a regular expression's \w:
// [0-9A-Za-z_].
func nameByte(c byte) bool { return nameStart(c) || '0' <= c && c <= '9' }

// spaces is a regular expression's \s: [\t\n\f\r ].
const spaces = "\t\n\f\r "

// identifiers returns the identifiers of an expression, casts' type
// names included: the leftmost-first matches of [A-Za-z_]\w*, so that
// "0x1f" gives "x1f" as the expression does.
func identifiers(e string) []string {
	var out []string
	for i := 0; i < len(e); {
		if !nameStart(e[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(e) && nameByte(e[j]) {
			j++
		}
		out = append(out, e[i:j])
		i = j
	}
	return out
}

// memberSuffix returns where the member access that ends e begins and the
// member's name: (?:->|\.)\s*([A-Za-z_]\w*)\s*$ ("dma_mask_bits" for
// "xhci->dma_mask_bits"), ok false when e does not end with one.
func memberSuffix(e string) (start int, name string, ok bool) {
	t := strings.TrimRight(e, spaces)
	i := len(t)
	for i > 0 && nameByte(t[i-1]) {
		i--
	}
	if i == len(t) || !nameStart(t[i]) {
		return 0, "", false
	}
	name = t[i:]
	j := len(strings.TrimRight(t[:i], spaces))
	switch {
	case j >= 2 && t[j-2:j] == "->":
		return j - 2, name, true
	case j >= 1 && t[j-1] == '.':
		return j - 1, name, true
	}
	return 0, "", false
}

// lastMember returns the member an lvalue ends with ("dma_mask_bits"
// for "xhci->dma_mask_bits"), "" for a plain variable.
func lastMember(lv string) string {
	_, name, _ := memberSuffix(lv)
	return name
}

// callee returns the function e calls when e is one call and nothing
// else on one line: ^([A-Za-z_]\w*)\s*\(.*\)$, whose "." matches any
// byte but a newline.
func callee(e string) (string, bool) {
	if e == "" || !nameStart(e[0]) {
		return "", false
	}
	i := 1
	for i < len(e) && nameByte(e[i]) {
		i++
	}
	name := e[:i]
	rest := strings.TrimLeft(e[i:], spaces)
	if len(rest) < 2 || rest[0] != '(' || rest[len(rest)-1] != ')' || strings.IndexByte(rest, '\n') >= 0 {
		return "", false
	}
	return name, true
}
