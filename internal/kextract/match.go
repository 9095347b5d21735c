package kextract

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"boardc.dev/boardc/compiler/kernel"
)

// dataGetters return the .data of the of_device_id entry that matched
// (drivers/of/device.c, drivers/base/property.c, drivers/i2c/i2c-core-base.c,
// drivers/spi/spi.c); idGetters the entry itself, whose ->data it is.
var (
	dataGetters = []string{"of_device_get_match_data", "device_get_match_data", "i2c_get_match_data", "spi_get_device_match_data"}
	idGetters   = []string{"of_match_device", "of_match_node"}
)

// reTypeCast is a cast to a scalar or pointer type: "(void *)",
// "(unsigned long)", "(const struct foo_data *)".
var reTypeCast = regexp.MustCompile(`^\(\s*(?:const\s+|struct\s+|enum\s+|unsigned\s+|signed\s+|long\s+)*[A-Za-z_]\w*\s*\**\s*\)\s*`)

// uncast removes the casts and parentheses around an expression.
func uncast(e string) string {
	for {
		e = strip(e)
		m := reTypeCast.FindString(e)
		if m == "" || m == e {
			return e
		}
		e = e[len(m):]
	}
}

// calls reports whether e is a call of one of fns.
func calls(e string, fns []string) bool {
	name, ok := callee(uncast(e))
	return ok && slices.Contains(fns, name)
}

// matchVars returns the lvalues the function assigns the match data to
// in their first assignment: directly from a data getter, or as the
// ->data of the entry an id getter returned. A later assignment ends
// what is known (mvpp2_probe() sets priv->hw_version = MVPP23 after its
// mask sets).
func (b *body) matchVars() []matchVar {
	var out []matchVar
	for lhs, rhs := range b.assigns {
		r := uncast(rhs[0])
		ok := calls(r, dataGetters)
		if m, found := strings.CutSuffix(r, "->data"); found && !ok {
			ids := b.assigns[strings.TrimSpace(m)]
			ok = len(ids) == 1 && calls(ids[0], idGetters)
		}
		if !ok {
			continue
		}
		mv := matchVar{name: strings.Clone(lhs), fn: b.fn.name, file: b.fn.file}
		if len(rhs) > 1 {
			mv.until = b.assignLines[lhs][1]
		}
		out = append(out, mv)
	}
	slices.SortFunc(out, func(a, b matchVar) int { return strings.Compare(a.name, b.name) })
	return out
}

// conjuncts splits a condition at its top-level "&&".
func conjuncts(c string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(c); i++ {
		switch c[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case '&':
			if depth == 0 && i+1 < len(c) && c[i+1] == '&' {
				out = append(out, strings.TrimSpace(c[start:i]))
				start = i + 2
				i++
			}
		}
	}
	return append(out, strings.TrimSpace(c[start:]))
}

// topOp finds the comparison operator at the top level of e: its index
// and spelling, -1 when there is none. "->", "<<" and ">>" are no
// comparisons; "||", "?" and "&" make the expression unreadable (-2).
func topOp(e string) (int, string) {
	depth := 0
	for i := 0; i < len(e); i++ {
		c := e[i]
		switch c {
		case '(', '[':
			depth++
			continue
		case ')', ']':
			depth--
			continue
		}
		if depth != 0 {
			continue
		}
		two := ""
		if i+1 < len(e) {
			two = e[i : i+2]
		}
		switch {
		case two == "->" || two == "<<" || two == ">>":
			i++
		case two == "==" || two == "!=" || two == ">=" || two == "<=":
			return i, two
		case c == '<' || c == '>':
			return i, string(c)
		case two == "||" || c == '?' || c == '|' || c == '&' && two != "&&":
			return -2, ""
		}
	}
	return -1, ""
}

// matchEval evaluates conditions for one entry of the match table: the
// lvalues that hold the match data take that entry's .data.
type matchEval struct {
	ix   *index
	vars map[string]matchVar
	e    entry
	keys map[string]bool // the keys of the driver's match table
	file string
	site kernel.Site // the set whose condition is read
}

// reIsCompat is a test of the bound device's own node for a compatible
// (of_device_is_compatible(), drivers/of/base.c).
var reIsCompat = regexp.MustCompile(`^of_device_is_compatible\s*\(\s*(?:pdev->dev\.of_node|dev->of_node|np|node)\s*,\s*"([^"]*)"\s*\)$`)

// is reports whether x holds the match data where the set is: in the
// function that assigned it, before its next assignment; anywhere when
// there is none.
func (m matchEval) is(x string) bool {
	v, ok := m.vars[x]
	if !ok {
		return false
	}
	return v.until == 0 || m.site.File == v.file && m.site.Func == v.fn && m.site.Line < v.until
}

// value is the integer an expression has for the entry: a match
// variable (the .data value itself), a member of the structure it
// points to (a member the initializer leaves out is 0), or a constant.
func (m matchEval) value(x string) (int, bool) {
	x = uncast(x)
	if sm := reIsCompat.FindStringSubmatch(x); sm != nil {
		// The node matched by one compatible of the table is taken
		// not to list another of the table's.
		switch {
		case sm[1] == m.e.key:
			return 1, true
		case m.keys[sm[1]]:
			return 0, true
		}
		return 0, false
	}
	if m.is(x) {
		if m.e.data == "" {
			return 0, true
		}
		if d := uncast(m.e.data); strings.HasPrefix(d, "&") && reIdent.MatchString(strings.TrimSpace(d[1:])) {
			return 1, true // a pointer to an initializer: not NULL
		}
		v := m.ix.intval(uncast(m.e.data), m.file, 0)
		return v, v >= 0
	}
	if start, member, ok := memberSuffix(x); ok {
		base := strings.TrimSpace(x[:start])
		if m.is(base) {
			id := strings.TrimPrefix(uncast(m.e.data), "&")
			if !reIdent.MatchString(id) {
				return 0, false
			}
			v := m.ix.variable(id, m.file)
			if v == nil || len(v.entries) > 0 {
				return 0, false
			}
			val, _ := v.get(member)
			switch val {
			case "":
				return 0, true
			case "true":
				return 1, true
			case "false":
				return 0, true
			}
			n := m.ix.intval(val, v.file, 0)
			return n, n >= 0
		}
	}
	switch x {
	case "true":
		return 1, true
	case "false":
		return 0, true
	}
	if !strings.ContainsAny(x, "-.>([") {
		if n := m.ix.intval(x, m.file, 0); n >= 0 {
			return n, true
		}
	}
	return 0, false
}

// holds evaluates one conjunct; ok is false when it reads anything but
// the match data and constants, or does not read the match data.
func (m matchEval) holds(c string) (bool, bool) {
	c = strip(c)
	if rest, neg := strings.CutPrefix(c, "!"); neg && !strings.HasPrefix(rest, "=") {
		rest = strings.TrimSpace(rest)
		switch {
		case strings.HasPrefix(rest, "(") && closes(rest):
			all, ok := true, true
			for _, p := range conjuncts(rest[1 : len(rest)-1]) {
				h, k := m.holds(p)
				all, ok = all && h, ok && k
			}
			return !all, ok
		case m.reads(rest):
			if i, _ := topOp(rest); i != -1 {
				return false, false // "!a == b"
			}
			v, ok := m.value(rest)
			return v == 0, ok
		}
		return false, false
	}
	if !m.reads(c) {
		return false, false
	}
	i, op := topOp(c)
	switch {
	case i == -2:
		return false, false
	case i == -1:
		v, ok := m.value(c)
		return v != 0, ok
	}
	a, ok1 := m.value(c[:i])
	b, ok2 := m.value(c[i+len(op):])
	if !ok1 || !ok2 {
		return false, false
	}
	switch op {
	case "==":
		return a == b, true
	case "!=":
		return a != b, true
	case ">=":
		return a >= b, true
	case "<=":
		return a <= b, true
	case ">":
		return a > b, true
	}
	return a < b, true
}

// reads reports whether an expression mentions a match variable.
func (m matchEval) reads(c string) bool {
	if strings.Contains(c, "of_device_is_compatible") {
		return true
	}
	for v := range m.vars {
		if !m.is(v) {
			continue
		}
		if i := strings.Index(c, v); i >= 0 {
			end := i + len(v)
			if (i == 0 || !isIdent(c[i-1])) && (end == len(c) || !isIdent(c[end])) {
				return true
			}
		}
	}
	return false
}

// resolve evaluates a set's condition for the entry: whether the set
// can run, and the conjuncts it could not evaluate.
func (m matchEval) resolve(cond string) (bool, string) {
	if cond == "" {
		return true, ""
	}
	var rest []string
	for _, c := range conjuncts(cond) {
		h, ok := m.holds(c)
		if !ok {
			rest = append(rest, c)
			continue
		}
		if !h {
			return false, ""
		}
	}
	return true, strings.Join(rest, " && ")
}

// byMatchData resolves, compatible by compatible, the conditions of
// constant-width streaming sets that read the match data (mvpp2_probe()
// sets a 40-bit mask only "if (priv->hw_version >= MVPP22)", the
// hw_version being the .data of marvell,armada-7k-pp22,
// drivers/net/ethernet/marvell/mvpp2/mvpp2_main.c). It succeeds when
// some condition was resolved and every compatible then has one width:
// an unconditional set's, or the default of 32 when no set runs; why
// says which, compatible by compatible.
func (ix *index) byMatchData(w *walk, streaming []set, entries []entry, file string) (per map[string]int, why []string, ok bool) {
	if len(w.matchVars) == 0 && !slices.ContainsFunc(streaming, func(s set) bool { return strings.Contains(s.ms.Cond, "of_device_is_compatible") }) {
		return nil, nil, false
	}
	keys := map[string]bool{}
	for _, e := range entries {
		keys[e.key] = true
	}
	per = map[string]int{}
	resolved := false
	for _, e := range entries {
		if strings.HasPrefix(e.key, "amba:") || strings.HasPrefix(e.key, "fsl-mc:") {
			return nil, nil, false
		}
		width, uncond := 0, false
		for _, s := range streaming {
			m := matchEval{ix: ix, vars: w.matchVars, e: e, keys: keys, file: file, site: s.ms.Site}
			runs, rest := m.resolve(s.ms.Cond)
			if !runs || rest != s.ms.Cond {
				resolved = true
			}
			if !runs {
				continue
			}
			if width != 0 && width != s.ms.Width {
				return nil, nil, false
			}
			width = s.ms.Width
			uncond = uncond || rest == "" || s.always
		}
		switch {
		case width == 0:
			per[e.key] = 32
			why = append(why, e.key+": no set runs, the default of 32")
		case uncond:
			per[e.key] = width
			why = append(why, fmt.Sprintf("%s: %d", e.key, width))
		default:
			return nil, nil, false
		}
	}
	return per, why, resolved
}
