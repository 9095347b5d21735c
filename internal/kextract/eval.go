package kextract

import (
	"math/bits"
	"regexp"
	"strconv"
	"strings"
)

// define returns the body of the macro name as the file sees it: its
// own #define first, then the tree's when every file that defines it
// agrees.
func (ix *index) define(name, file string) (string, bool) {
	if f := ix.files[file]; f != nil {
		if b, ok := f.defines[name]; ok {
			return b, true
		}
	}
	bs := ix.defines[name]
	if len(bs) == 1 {
		return bs[0], true
	}
	return "", false
}

var (
	reCast   = regexp.MustCompile(`^\(\s*(u64|u32|dma_addr_t|unsigned long long|unsigned long|unsigned int|int)\s*\)\s*`)
	reBitMsk = regexp.MustCompile(`^DMA_BIT_MASK\s*\((.*)\)$`)
	reIdent  = regexp.MustCompile(`^[A-Za-z_]\w*$`)
)

// strip removes blanks at the ends and the parentheses and casts that
// enclose the whole expression.
func strip(e string) string {
	for {
		e = strings.TrimSpace(e)
		if m := reCast.FindString(e); m != "" {
			e = e[len(m):]
			continue
		}
		if strings.HasPrefix(e, "(") && strings.HasSuffix(e, ")") && closes(e) {
			e = e[1 : len(e)-1]
			continue
		}
		return e
	}
}

// closes reports whether e's first "(" is closed by its last character.
func closes(e string) bool {
	depth := 0
	for i := 0; i < len(e); i++ {
		switch e[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i == len(e)-1
			}
		}
	}
	return false
}

// width evaluates a mask expression to its width in bits, 0 when it is
// not a constant this reads: DMA_BIT_MASK(N), N a literal or a macro
// that is one; an all-ones literal (0xffffffff, ~0ULL); a macro of
// either.
func (ix *index) width(e, file string, depth int) int {
	e = strip(e)
	if depth > 8 || e == "" {
		return 0
	}
	if m := reBitMsk.FindStringSubmatch(e); m != nil {
		if n := ix.intval(m[1], file, depth+1); n >= 1 && n <= 64 {
			return n
		}
		return 0
	}
	if strings.HasPrefix(e, "~") {
		if v, ok := literal(strip(e[1:])); ok && v == 0 {
			return 64
		}
		return 0
	}
	if v, ok := literal(e); ok {
		if v != 0 && v&(v+1) == 0 {
			return bits.Len64(v)
		}
		return 0
	}
	if reIdent.MatchString(e) {
		if b, ok := ix.define(e, file); ok {
			return ix.width(b, file, depth+1)
		}
	}
	return 0
}

// intval evaluates an integer expression: a literal or a macro that is
// one; -1 when it is neither.
func (ix *index) intval(e, file string, depth int) int {
	e = strip(e)
	if depth > 8 {
		return -1
	}
	if v, ok := literal(e); ok && v < 1<<16 {
		return int(v)
	}
	if reIdent.MatchString(e) {
		if b, ok := ix.define(e, file); ok {
			return ix.intval(b, file, depth+1)
		}
	}
	return -1
}

// literal parses a C integer literal, suffixes included.
func literal(e string) (uint64, bool) {
	e = strings.TrimRight(e, "uUlL")
	if e == "" || e[0] < '0' || e[0] > '9' {
		return 0, false
	}
	v, err := strconv.ParseUint(e, 0, 64)
	if err != nil {
		return 0, false
	}
	return v, true
}

// fieldOf returns the structure member a runtime mask expression reads
// ("data->dma_bits" gives "dma_bits") and whether the member holds a
// width in bits (inside DMA_BIT_MASK()) or a whole mask.
func fieldOf(a alt) (string, bool) {
	e := strip(a.expr)
	inBits := false
	if m := reBitMsk.FindStringSubmatch(e); m != nil {
		e, inBits = strip(m[1]), true
	}
	if reIdent.MatchString(e) && len(a.values) == 1 {
		e = strip(a.traced)
	}
	if _, name, ok := memberSuffix(e); ok {
		return name, inBits
	}
	return "", false
}
