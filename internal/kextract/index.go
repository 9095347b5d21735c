package kextract

import (
	"slices"
	"strconv"
	"strings"
)

// file is what one source file holds that the extractor uses: its
// simple macros, its function definitions and its file-scope
// initialized variables.
type file struct {
	path    string
	defines map[string]string
	funcs   []*function
	vars    []*variable
	// inits are the functions module_init() names.
	inits []string
}

// function is one function definition, reduced to the events of its
// body in source order.
type function struct {
	name   string
	file   string
	line   int
	static bool
	events []event
	// returns are the function's return statements, kept when one
	// returns a DMA_BIT_MASK(): a helper that computes a mask.
	returns []ret
	// matchVars are the lvalues the function assigns the match data
	// to first: "priv->hw_version" for
	// "priv->hw_version = (unsigned long)device_get_match_data(dev)".
	matchVars []matchVar
	// members are the structure members the function assigns, by
	// name, sorted ("dma_mask_bits" for "xhci->dma_mask_bits = 64").
	members []string
	// consts are the members the function assigns an integer from 1
	// to 64, with those integers (a width a hardware-feature callback
	// decodes: dwmac4_get_hw_feature() sets dma_cap->addr64 = 40).
	consts []memberConst
}

// memberConst is what one function assigns one member (by name):
// its constants, and other when it also assigns it something else that
// stands.
type memberConst struct {
	name  string
	vals  []int
	other bool
}

// matchVar is an lvalue that holds the match data: from its assignment
// on, up to the line of the function's next assignment to it (until,
// 0 for none).
type matchVar struct {
	name, fn, file string
	until          int
}

// ret is one return statement: its expression and its conditions.
type ret struct {
	expr, cond string
}

// variable is a file-scope variable with an initializer.
type variable struct {
	name   string
	typ    string // the struct tag for "struct X name = {...}", "" otherwise
	file   string
	line   int
	static bool
	// fields are the designated initializers, flattened: the path
	// ("driver.of_match_table") and the value as written.
	fields []field
	// refs are the identifiers the initializer uses as values (function
	// names, &other_variable), in order.
	refs []ref
	// entries are the elements of an array of structures
	// (of_device_id, amba_id, fsl_mc_device_id tables).
	entries [][]field
}

// field is one designated initializer.
type field struct {
	path  string
	value string
	line  int
}

// ref is an identifier used as a value, and its line.
type ref struct {
	name string
	line int
}

// get returns the value of the field at path, "" when there is none.
func (v *variable) get(path string) (string, int) {
	for _, f := range v.fields {
		if f.path == path {
			return f.value, f.line
		}
	}
	return "", 0
}

// attribute reports whether an identifier is a declaration attribute
// rather than a name: __init, __maybe_unused, __acquires(x)...
func attribute(s string) bool {
	return strings.HasPrefix(s, "__") || s == "asmlinkage" || s == "noinline" || s == "notrace"
}

// parseFile indexes one tokenized file.
func parseFile(path string, l *lexed) *file {
	f := &file{path: path, defines: l.defines}
	toks := l.toks
	enumerators(l)
	stmt := 0 // the first token of the current file-scope declaration
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.k == tIdent && t.s == "module_init" && l.is(i+1, "(") && i+3 < len(toks) && toks[i+2].k == tIdent && l.is(i+3, ")") {
			f.inits = append(f.inits, strings.Clone(toks[i+2].s))
		}
		if t.k != tPunct {
			continue
		}
		switch t.s {
		case ";":
			stmt = i + 1
		case "(", "[":
			i = l.match(i)
		case "{":
			end := l.match(i)
			switch {
			case l.is(i-1, "="):
				if v := parseVar(l, path, stmt, i, end); v != nil {
					f.vars = append(f.vars, v)
				}
			case l.is(i-1, ")"):
				if fn := parseFunc(l, path, stmt, i, end); fn != nil {
					f.funcs = append(f.funcs, fn)
				}
			}
			// A function body, or a definition whose declarators
			// follow: the next declaration starts after it.
			i = end
			stmt = end + 1
		}
	}
	return f
}

// enumerators records the constants of every enum the file declares,
// at file scope or inside a structure, as the macros the file defines
// (a #define of the same name wins): "enum { MVPP21, MVPP22 }" gives
// MVPP21 = 0 and MVPP22 = 1 (drivers/net/ethernet/marvell/mvpp2/mvpp2.h).
// An enumerator whose value the file cannot read ends the run.
func enumerators(l *lexed) {
	toks := l.toks
	for i := 0; i+1 < len(toks); i++ {
		if toks[i].k != tIdent || toks[i].s != "enum" {
			continue
		}
		open := i + 1
		if toks[open].k == tIdent {
			open++
		}
		if !l.is(open, "{") {
			continue
		}
		end := l.match(open)
		next, known := 0, true
		for j := open + 1; j < end; j++ {
			if toks[j].k != tIdent {
				continue
			}
			name := toks[j].s
			k := j + 1
			if l.is(k, "=") {
				e := k + 1
				for e < end && !l.is(e, ",") {
					if l.is(e, "(") {
						e = l.match(e)
					}
					e++
				}
				v, ok := enumValue(l, k+1, e-1)
				next, known = v, ok
				k = e
			}
			if known && next >= 0 {
				if _, dup := l.defines[name]; !dup {
					l.defines[strings.Clone(name)] = strconv.Itoa(next)
				}
			}
			next++
			for k < end && !l.is(k, ",") {
				k++
			}
			j = k
		}
		i = end
	}
}

// enumValue reads an enumerator's value toks[a..z]: a literal, or a
// name the file defined before.
func enumValue(l *lexed, a, z int) (int, bool) {
	for a < z && l.is(a, "(") && l.match(a) == z {
		a, z = a+1, z-1
	}
	if a != z {
		return 0, false
	}
	s := l.toks[a].s
	if v, ok := l.defines[s]; ok {
		s = v
	}
	v, ok := literal(s)
	if !ok || v >= 1<<31 {
		return 0, false
	}
	return int(v), true
}

// back returns the index of the "(" that matches the ")" at i.
func (l *lexed) back(i int) int {
	depth := 0
	for j := i; j >= 0; j-- {
		if l.toks[j].k != tPunct {
			continue
		}
		switch l.toks[j].s {
		case ")", "]", "}":
			depth++
		case "(", "[", "{":
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return 0
}

// parseFunc reads the definition whose body is toks[open..end].
func parseFunc(l *lexed, path string, stmt, open, end int) *function {
	// Step back over trailing attributes: f(args) __acquires(x) {.
	p := l.back(open - 1)
	for p > stmt && l.toks[p-1].k == tIdent && attribute(l.toks[p-1].s) && l.is(p-2, ")") {
		p = l.back(p - 2)
	}
	if p <= stmt || l.toks[p-1].k != tIdent {
		return nil
	}
	name := strings.Clone(l.toks[p-1].s)
	if keyword[name] {
		return nil
	}
	fn := &function{name: name, file: path, line: int(l.toks[p-1].line)}
	for j := stmt; j < p; j++ {
		if l.toks[j].s == "static" {
			fn.static = true
		}
		if l.toks[j].s == "=" {
			return nil
		}
	}
	b := &body{l: l, fn: fn, params: p}
	b.scanLocals(p, end)
	fn.matchVars = b.matchVars()
	for m := range b.memberCount {
		fn.members = append(fn.members, strings.Clone(m))
	}
	slices.Sort(fn.members)
	fn.consts = b.memberConsts()
	b.block(open+1, end, "")
	keep := false
	for _, r := range b.returns {
		keep = keep || strings.Contains(r.expr, "DMA_BIT_MASK")
	}
	if keep {
		fn.returns = b.returns
	}
	return fn
}

// parseVar reads the initialized variable declared by toks[stmt..open-1]
// ("... name[] = {") whose initializer is toks[open..end].
func parseVar(l *lexed, path string, stmt, open, end int) *variable {
	v := &variable{file: path}
	// The name: the last identifier before "=" that is not an attribute,
	// stepping over [] and attribute(...) groups.
	for j := open - 2; j >= stmt; j-- {
		t := l.toks[j]
		if t.k == tPunct && (t.s == ")" || t.s == "]") {
			j = l.back(j)
			continue
		}
		if t.k == tIdent && !attribute(t.s) {
			v.name = strings.Clone(t.s)
			v.line = int(t.line)
			break
		}
	}
	if v.name == "" {
		return nil
	}
	for j := stmt; j < open; j++ {
		switch l.toks[j].s {
		case "static":
			v.static = true
		case "struct", "union":
			if j+1 < open && l.toks[j+1].k == tIdent && v.typ == "" {
				v.typ = strings.Clone(l.toks[j+1].s)
			}
		}
	}
	if v.typ == "" {
		// Not a structure: a table of numbers or strings, nothing the
		// extractor reads.
		return v
	}
	table := strings.HasSuffix(v.typ, "_device_id") || v.typ == "amba_id"
	if !l.is(open-2, "]") || table {
		v.fields = designators(l, open, end, "", v)
	} else {
		// An array of other structures: only the values it refers to.
		for m := open; m < end; m++ {
			if l.toks[m].k == tIdent && !l.is(m+1, "(") && !l.is(m-1, ".") && !l.is(m-1, "->") {
				v.refs = append(v.refs, ref{strings.Clone(l.toks[m].s), int(l.toks[m].line)})
			}
		}
	}
	if table && l.is(open+1, "{") {
		// An array of structures: one entry per inner brace group.
		for j := open + 1; j < end; j++ {
			if l.is(j, "{") {
				e := l.match(j)
				v.entries = append(v.entries, designators(l, j, e, "", nil))
				j = e
			}
		}
	}
	return v
}

// designators flattens the designated initializers of the brace group
// toks[open..end] under prefix. Positional elements are named by their
// index ("#0"). When v is not nil, identifiers used as values are
// appended to v.refs.
func designators(l *lexed, open, end int, prefix string, v *variable) []field {
	var out []field
	idx := 0
	j := open + 1
	for j < end {
		// One element: [designator =] value, up to "," or the end.
		name := ""
		if l.is(j, ".") && j+1 < end && l.toks[j+1].k == tIdent {
			k := j
			var parts []string
			for l.is(k, ".") && k+1 < end && l.toks[k+1].k == tIdent {
				parts = append(parts, l.toks[k+1].s)
				k += 2
			}
			if l.is(k, "=") {
				name = strings.Clone(strings.Join(parts, "."))
				j = k + 1
			}
		} else if l.is(j, "[") {
			k := l.match(j)
			if l.is(k+1, "=") {
				name = "[" + l.text(j+1, k-1) + "]"
				j = k + 2
			}
		}
		if name == "" {
			name = "#" + itoa(idx)
		}
		idx++
		path := name
		if prefix != "" {
			path = prefix + "." + name
		}
		// The value.
		k := j
		for k < end && !l.is(k, ",") {
			if l.is(k, "(") || l.is(k, "[") || l.is(k, "{") {
				k = l.match(k)
			}
			k++
		}
		if k > end {
			k = end
		}
		if l.is(j, "{") && l.match(j) == k-1 {
			out = append(out, designators(l, j, k-1, path, v)...)
		} else if j < k {
			out = append(out, field{path: path, value: l.text(j, k-1), line: int(l.toks[j].line)})
			if v != nil {
				for m := j; m < k; m++ {
					if l.toks[m].k == tIdent && !l.is(m+1, "(") && !l.is(m-1, ".") && !l.is(m-1, "->") {
						v.refs = append(v.refs, ref{strings.Clone(l.toks[m].s), int(l.toks[m].line)})
					}
				}
			}
		}
		j = k + 1
	}
	return out
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

// keyword lists the C keywords and operators-by-name that look like
// calls: "if (", "sizeof (".
var keyword = map[string]bool{
	"if": true, "else": true, "while": true, "for": true, "do": true, "switch": true, "case": true,
	"default": true, "return": true, "sizeof": true, "typeof": true, "__typeof__": true, "__typeof": true,
	"_Generic": true, "goto": true, "break": true, "continue": true, "struct": true, "union": true,
	"enum": true, "alignof": true, "__alignof__": true, "_Alignof": true, "asm": true, "__asm__": true,
	"volatile": true, "__volatile__": true, "defined": true, "offsetof": true, "__builtin_expect": true,
	"likely": true, "unlikely": true, "static_assert": true, "_Static_assert": true, "BUILD_BUG_ON": true,
	"container_of": true, "ARRAY_SIZE": true, "IS_ENABLED": true, "IS_ERR": true, "PTR_ERR": true,
	"ERR_PTR": true, "WARN_ON": true, "dev_err": true, "dev_warn": true, "dev_info": true, "dev_dbg": true,
	"DMA_BIT_MASK": true, "pr_err": true, "pr_info": true, "pr_warn": true, "pr_debug": true, "dev_err_probe": true,
}

// memberConsts returns the members the function assigns integer widths
// (1 to 64), sorted by name. A first assignment of something else that
// a switch on the member then replaces in every case, default
// included, does not stand: dwmac4_get_hw_feature() decodes
// "dma_cap->addr64 = (hw_cap & GMAC_HW_ADDR64) >> 14" into 32, 40 or 48
// (drivers/net/ethernet/stmicro/stmmac/dwmac4_dma.c).
func (b *body) memberConsts() []memberConst {
	var out []memberConst
	for lhs, rhs := range b.assigns {
		m := lastMember(lhs)
		if m == "" {
			continue
		}
		c := memberConst{name: strings.Clone(m)}
		for i, r := range rhs {
			if n, err := strconv.Atoi(r); err == nil && n >= 1 && n <= 64 {
				c.vals = append(c.vals, n)
			} else if i > 0 || !b.switchReplaces(lhs) {
				c.other = true
			}
		}
		if len(c.vals) > 0 {
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(x, y memberConst) int { return strings.Compare(x.name, y.name) })
	return out
}

// switchReplaces reports whether the function switches on lv with a
// default label: the switch decodes the value into the constants its
// cases assign (memberConsts counts them).
func (b *body) switchReplaces(lv string) bool {
	l := b.l
	for i := b.params; i+1 < b.end; i++ {
		if l.toks[i].k != tIdent || l.toks[i].s != "switch" || !l.is(i+1, "(") {
			continue
		}
		z := l.match(i + 1)
		if l.text(i+2, z-1) != lv || !l.is(z+1, "{") {
			continue
		}
		e := l.match(z + 1)
		for j := z + 2; j < e; j++ {
			if l.toks[j].k == tIdent && l.toks[j].s == "default" {
				return true
			}
		}
	}
	return false
}
