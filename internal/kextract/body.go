package kextract

import (
	"strings"
)

// evKind is the class of an event in a function body.
type evKind uint8

const (
	evCall     evKind = iota // a direct call: name(...)
	evRef                    // an identifier used as a value
	evMask                   // a call or assignment that sets a DMA mask
	evIRQ                    // an IRQ request
	evAffinity               // a place that sets IRQ affinity
	evXPS                    // netif_set_xps_queue()
)

// event is one fact of a function body, in source order.
type event struct {
	k    evKind
	name string // the callee, the identifier, the mask call, the IRQ call
	line int
	cond string // the enclosing conditions, innermost last, " && "-joined
	// arg is the mask argument or the IRQ name argument as written.
	arg string
	// alts are the mask's alternatives: one, or two for "c ? a : b".
	alts []alt
	// child is set for a mask set on a device the function created,
	// other for one on a device that is neither (a sound card's, a
	// DMA channel's); alias for "dev->dma_mask =
	// &dev->coherent_dma_mask", which makes the coherent mask the
	// streaming one too.
	child, other, alias bool
	// irqKind classifies an IRQ name: literal, format, dev_name,
	// netdev, unknown; arg then holds the name or format.
	irqKind string
}

// alt is one value a mask argument can take.
type alt struct {
	expr string // as written: "DMA_BIT_MASK(64)"
	cond string // the ternary's condition for this branch, "" for none
	// traced is what a local variable inside expr was assigned, for
	// runtime widths: "data->dma_bits"; values are the assignments one
	// by one, and local is set when they are all the values the
	// variable can have (not a parameter, its address never taken).
	traced string
	values []string
	lines  []int // the lines of values
	local  bool
	inBits bool // the variable is DMA_BIT_MASK()'s argument
	name   string
	// member is set when the variable is a structure member the
	// function assigns (values then hold its assignments there).
	member bool
}

// maskCalls are the calls that set DMA masks; coherentOnly marks the
// one that leaves the streaming mask alone.
var maskCalls = map[string]bool{
	"dma_set_mask_and_coherent":    true,
	"dma_coerce_mask_and_coherent": true,
	"dma_set_mask":                 true,
	"dma_set_coherent_mask":        true,
}

// irqNameArg gives, for each IRQ request call, the index of its name
// argument (include/linux/interrupt.h).
var irqNameArg = map[string]int{
	"request_irq":                  3,
	"request_threaded_irq":         4,
	"request_any_context_irq":      3,
	"devm_request_irq":             4,
	"devm_request_threaded_irq":    5,
	"devm_request_any_context_irq": 4,
	"request_percpu_irq":           2,
	"request_nmi":                  3,
}

// affinityCalls set IRQ affinity hints (include/linux/interrupt.h).
var affinityCalls = map[string]bool{
	"irq_set_affinity_hint":     true,
	"irq_update_affinity_hint":  true,
	"irq_set_affinity_and_hint": true,
}

// childMakers return a device the caller then owns: a mask set on
// their result is a child's.
var childMakers = []string{"platform_device_alloc", "platform_device_register", "of_platform_device_create",
	"device_create"}

// classMakers allocate a subsystem's object whose struct device is a
// class device below the bound one, no DMA master of the tree: an IIO
// device (iio_device_alloc(), drivers/iio/industrialio-core.c), an
// input device (input_allocate_device(), drivers/input/input.c), a
// network interface (alloc_etherdev_mqs(), net/ethernet/eth.c). A mask
// set on it is neither the bound device's nor a child master's
// (at91_adc_probe(), drivers/iio/adc/at91-sama5d2_adc.c).
var classMakers = []string{"iio_device_alloc", "devm_iio_device_alloc", "input_allocate_device",
	"devm_input_allocate_device", "alloc_etherdev", "devm_alloc_etherdev", "alloc_netdev"}

// body walks one function's definition.
type body struct {
	l      *lexed
	fn     *function
	params int // the "(" of the parameter list
	end    int // the "}" that ends the body
	// assigns maps an lvalue as written ("priv->name", "irqname") to the
	// right-hand sides assigned to it, in order.
	assigns map[string][]string
	// assignLines are the lines of those assignments.
	assignLines map[string][]int
	// memberCount counts, per member name, the distinct lvalues
	// ending with it that the function assigns ("dma_mask_bits" for
	// "xhci->dma_mask_bits").
	memberCount map[string]int
	// children are the lvalues assigned a device the function creates.
	children map[string]bool
	// netdevs are the variables declared struct net_device *.
	netdevs map[string]bool
	// formats maps a buffer to the format strings printed into it, at
	// their token index.
	formats map[string][]formatAt
	// once holds the calls and references already recorded.
	once map[string]bool
	// returns are the return statements.
	returns []ret
	// others are the variables that hold a device not the driver's own
	// and not one it created (an ASoC card's device).
	others map[string]bool
}

// scanLocals records the assignments, net_device variables and format
// buffers of toks[from..end].
func (b *body) scanLocals(from, end int) {
	l := b.l
	b.end = end
	b.assigns = map[string][]string{}
	b.assignLines = map[string][]int{}
	b.memberCount = map[string]int{}
	b.children = map[string]bool{}
	b.netdevs = map[string]bool{}
	b.formats = map[string][]formatAt{}
	b.once = map[string]bool{}
	b.others = map[string]bool{}
	for i := from; i < end; i++ {
		t := l.toks[i]
		switch {
		case t.k == tPunct && t.s == "=":
			lhs := b.lvalue(i - 1)
			if lhs == "" {
				continue
			}
			j := i + 1
			for j < end && !l.is(j, ";") && !l.is(j, ",") && !l.is(j, ")") {
				if l.is(j, "(") || l.is(j, "[") || l.is(j, "{") {
					j = l.match(j)
				}
				j++
			}
			rhs := l.text(i+1, j-1)
			if m := lastMember(lhs); m != "" && len(b.assigns[lhs]) == 0 {
				b.memberCount[m]++
			}
			b.assigns[lhs] = append(b.assigns[lhs], rhs)
			b.assignLines[lhs] = append(b.assignLines[lhs], int(t.line))
			if b.isChild(rhs) {
				b.children[lhs] = true // dev = &child->dev
			}
			if mentionsCard(rhs) || mentionsChan(rhs) {
				b.others[lhs] = true // dev = rtd->card->snd_card->dev
			}
			for _, m := range childMakers {
				if strings.HasPrefix(rhs, m) {
					b.children[lhs] = true
				}
			}
			for _, m := range classMakers {
				if strings.HasPrefix(rhs, m) {
					b.others[lhs] = true
				}
			}
			if f := formatOf(l, i+1, j); f != "" {
				b.formats[lhs] = append(b.formats[lhs], formatAt{i, f})
			}
		case t.k == tIdent && (t.s == "device_initialize" || t.s == "device_register") && l.is(i+1, "(") && !l.is(i-1, ".") && !l.is(i-1, "->"):
			// A struct device the function sets up itself is a child.
			if args := splitArgs(l, i+1); len(args) == 1 {
				b.children[devKey(l.text(args[0][0], args[0][1]))] = true
			}
		case t.k == tIdent && t.s == "platform_device_info" && i+1 < end:
			// The description of a device to create: its masks are a
			// child's.
			j := i + 1
			if l.is(j, "*") {
				j++
			}
			if j < end && l.toks[j].k == tIdent {
				b.children[l.toks[j].s] = true
			}
		case t.k == tIdent && t.s == "snd_card" && l.is(i+1, "*") && i+2 < end && l.toks[i+2].k == tIdent:
			b.others[l.toks[i+2].s] = true
		case t.k == tIdent && t.s == "net_device" && l.is(i+1, "*") && i+2 < end && l.toks[i+2].k == tIdent:
			b.netdevs[l.toks[i+2].s] = true
		case t.k == tIdent && (t.s == "snprintf" || t.s == "scnprintf" || t.s == "sprintf") && l.is(i+1, "("):
			args := splitArgs(l, i+1)
			if len(args) >= 2 {
				buf := l.text(args[0][0], args[0][1])
				if f := formatOf(l, i, l.match(i+1)+1); f != "" {
					k := strings.TrimPrefix(buf, "&")
					b.formats[k] = append(b.formats[k], formatAt{i, f})
				}
			}
		}
	}
}

// formatOf returns the format string of a kasprintf/devm_kasprintf/
// snprintf call starting at toks[i], "" when toks[i..end) is none.
func formatOf(l *lexed, i, end int) string {
	if i >= end || l.toks[i].k != tIdent {
		return ""
	}
	switch l.toks[i].s {
	case "devm_kasprintf", "kasprintf", "snprintf", "scnprintf", "sprintf":
	default:
		return ""
	}
	for j := i + 1; j < end; j++ {
		if l.toks[j].k == tString {
			return unquoteRun(l, j)
		}
	}
	return ""
}

// unquoteRun joins the adjacent string literals starting at toks[i].
func unquoteRun(l *lexed, i int) string {
	var sb strings.Builder
	for ; i < len(l.toks) && l.toks[i].k == tString; i++ {
		s := l.toks[i].s
		if q := strings.IndexByte(s, '"'); q >= 0 && len(s) >= q+2 {
			sb.WriteString(s[q+1 : len(s)-1])
		}
	}
	return sb.String()
}

// lvalue returns the postfix expression that ends at toks[i] ("name",
// "priv->irq[0].name"), "" when it is not one.
func (b *body) lvalue(i int) string {
	l := b.l
	end := i
	for i >= 0 {
		switch {
		case l.is(i, "]"):
			i = l.back(i) - 1
		case l.toks[i].k == tIdent:
			if l.is(i-1, ".") || l.is(i-1, "->") {
				i -= 2
				continue
			}
			s := l.text(i, end)
			if keyword[s] {
				return ""
			}
			return s
		default:
			return ""
		}
	}
	return ""
}

// splitArgs returns the token ranges [first, last] of the arguments of
// the call whose "(" is at open.
func splitArgs(l *lexed, open int) [][2]int {
	end := l.match(open)
	var out [][2]int
	start := open + 1
	for j := open + 1; j <= end; j++ {
		if j == end || l.is(j, ",") {
			if start <= j-1 {
				out = append(out, [2]int{start, j - 1})
			}
			start = j + 1
			continue
		}
		if l.is(j, "(") || l.is(j, "[") || l.is(j, "{") {
			j = l.match(j)
		}
	}
	return out
}

// block walks the statements of toks[i..end).
func (b *body) block(i, end int, cond string) {
	for i < end {
		i = b.stmt(i, end, cond)
	}
}

// stmt walks one statement at toks[i] and returns the index after it.
func (b *body) stmt(i, end int, cond string) int {
	l := b.l
	t := l.toks[i]
	if t.k == tPunct && t.s == "{" {
		e := l.match(i)
		b.block(i+1, e, cond)
		return e + 1
	}
	if t.k == tIdent {
		switch t.s {
		case "if", "switch", "while", "for":
			if !l.is(i+1, "(") {
				break
			}
			c := l.match(i + 1)
			b.expr(i+2, c, cond)
			inner := cond
			switch t.s {
			case "if":
				inner = joinCond(cond, l.text(i+2, c-1))
			case "switch":
				inner = joinCond(cond, "switch ("+l.text(i+2, c-1)+")")
			}
			if c+1 >= end {
				return end
			}
			next := b.stmt(c+1, end, inner)
			if t.s == "if" && next < end && l.is(next, "else") {
				next = b.stmt(next+1, end, joinCond(cond, "!("+l.text(i+2, c-1)+")"))
			}
			return next
		case "do":
			if i+1 >= end {
				return end
			}
			return b.stmt(i+1, end, cond) // "while (...);" follows as a statement
		case "else":
			return i + 1
		case "return":
			j := i + 1
			for j < end && !l.is(j, ";") {
				if l.is(j, "(") || l.is(j, "[") || l.is(j, "{") {
					j = l.match(j)
				}
				j++
			}
			if j > i+1 {
				b.returns = append(b.returns, ret{expr: l.text(i+1, j-1), cond: cond})
			}
		}
	}
	// An expression statement, up to ";" at depth 0. A brace group after
	// "macro(...)" is a loop body (list_for_each_entry(...) {...}).
	j := i
	for j < end {
		if l.is(j, ";") {
			b.expr(i, j, cond)
			return j + 1
		}
		if l.is(j, "{") && l.is(j-1, ")") {
			p := l.back(j - 1)
			if p > 0 && l.toks[p-1].k == tIdent && !keyword[l.toks[p-1].s] {
				b.expr(i, j, cond)
				return b.stmt(j, end, cond)
			}
		}
		if l.is(j, "(") || l.is(j, "[") || l.is(j, "{") {
			j = l.match(j)
		}
		j++
	}
	b.expr(i, end, cond)
	return end
}

// expr records the events of the expression toks[i..end).
func (b *body) expr(i, end int, c string) {
	l := b.l
	for k := i; k < end; k++ {
		t := l.toks[k]
		if t.k != tIdent {
			continue
		}
		line := int(t.line)
		member := l.is(k-1, ".") || l.is(k-1, "->")
		switch {
		case l.is(k+1, "(") && !member:
			if keyword[t.s] {
				continue
			}
			switch {
			case maskCalls[t.s]:
				b.maskCall(k, c)
			case irqNameArg[t.s] > 0:
				b.irq(k, c)
			case affinityCalls[t.s]:
				b.add(event{k: evAffinity, name: t.s, line: line, cond: c})
			case t.s == "netif_set_xps_queue":
				b.add(event{k: evXPS, name: t.s, line: line, cond: c})
			default:
				b.add(event{k: evCall, name: t.s, line: line, cond: c})
			}
		case member && (t.s == "coherent_dma_mask" || t.s == "dma_mask") && l.is(k+1, "=") && (k < 2 || l.toks[k-2].k == tIdent || l.is(k-2, ")") || l.is(k-2, "]")):
			b.maskAssign(k, c)
		case t.s == "PCI_IRQ_AFFINITY":
			b.add(event{k: evAffinity, name: t.s, line: line, cond: c})
		case !member && !l.is(k+1, "(") && !macroCase(t.s) && (l.is(k-1, "=") || l.is(k-1, ",") || l.is(k-1, "(") || l.is(k-1, "&") || l.is(k-1, "return") || l.is(k-1, "?") || l.is(k-1, ":")):
			b.add(event{k: evRef, name: t.s, line: line, cond: c})
		}
	}
}

// add appends an event, its strings copied out of the file's source so
// that the source can be freed. Of the calls of and references to one
// name only the first is kept: the walk follows a function once.
func (b *body) add(e event) {
	if e.k == evCall || e.k == evRef {
		key := string(rune('0'+e.k)) + e.name
		if b.once[key] {
			return
		}
		b.once[key] = true
	}
	e.name = strings.Clone(e.name)
	b.fn.events = append(b.fn.events, e)
}

// maskCall records dma_set_mask(dev, MASK) and its kin at toks[k].
func (b *body) maskCall(k int, cond string) {
	l := b.l
	args := splitArgs(l, k+1)
	if len(args) < 2 {
		return
	}
	e := event{k: evMask, name: l.toks[k].s, line: int(l.toks[k].line), cond: cond}
	e.arg = l.text(args[1][0], args[1][1])
	e.alts = b.alts(args[1][0], args[1][1])
	e.child = b.isChild(l.text(args[0][0], args[0][1]))
	e.other = b.isOther(l.text(args[0][0], args[0][1]))
	b.add(e)
}

// maskAssign records "x->coherent_dma_mask = MASK" at toks[k].
func (b *body) maskAssign(k int, cond string) {
	l := b.l
	j := k + 2
	for j < len(l.toks) && !l.is(j, ";") && !l.is(j, ",") {
		if l.is(j, "(") || l.is(j, "[") || l.is(j, "{") {
			j = l.match(j)
		}
		j++
	}
	if j == k+2 {
		return
	}
	if l.is(k+2, "&") {
		// dev->dma_mask = &dev->coherent_dma_mask: the streaming mask
		// is the coherent one from then on (owl_mmc_probe(),
		// drivers/mmc/host/owl-mmc.c). Any other pointer is no width.
		lhs := l.text(b.lhsStart(k), k-2)
		rhs := devKey(l.text(k+3, j-1))
		if to, ok := strings.CutSuffix(rhs, ".coherent_dma_mask"); ok && l.toks[k].s == "dma_mask" && devKey(to) == devKey(lhs) {
			b.add(event{k: evMask, name: "dma_mask =", line: int(l.toks[k].line), cond: cond, arg: l.text(k+2, j-1),
				alias: true, child: b.isChild(lhs), other: b.isOther(lhs)})
		}
		return
	}
	if j == k+3 && l.toks[k+2].s == "0" {
		return // a cleared member, no mask
	}
	// "dev->dma_mask = X" stores a pointer in struct device; a width is
	// stored through it, "*dev->dma_mask = X", or in a u64 field of
	// platform_device and fsl_mc_device ("mc_dev->dma_mask = X").
	lhsStart := b.lhsStart(k)
	deref := l.is(lhsStart-1, "*")
	if l.toks[k].s == "dma_mask" && !deref && l.is(k-1, ".") && l.is(k-2, "dev") {
		return // pdev->dev.dma_mask = ...: the pointer of a struct device
	}
	name := l.toks[k].s + " ="
	if deref {
		name = "*" + name
	}
	e := event{k: evMask, name: name, line: int(l.toks[k].line), cond: cond}
	e.arg = l.text(k+2, j-1)
	e.alts = b.alts(k+2, j-1)
	lhs := l.text(lhsStart, k-2)
	// ctx->dma_mask = M with ctx->dev a device the function set up:
	// the member backs the child's mask (host1x_memory_context_list_init(),
	// drivers/gpu/host1x/context.c).
	e.child = b.isChild(lhs) || b.children[devKey(lhs)+"->dev"] || b.children[devKey(lhs)+".dev"]
	e.other = b.isOther(lhs)
	b.add(e)
}

// memberPath reports whether toks[a..z] is a member access: an
// identifier followed by "->" or "." and identifiers.
func (b *body) memberPath(a, z int) bool {
	l := b.l
	if l.toks[a].k != tIdent || (z-a)%2 != 0 {
		return false
	}
	for i := a + 1; i < z; i += 2 {
		if !(l.is(i, "->") || l.is(i, ".")) || l.toks[i+1].k != tIdent {
			return false
		}
	}
	return true
}

// lhsStart returns the first token of the member access that ends
// with the member at toks[k] ("pdev" for "pdev->dev.dma_mask").
func (b *body) lhsStart(k int) int {
	l := b.l
	for k > 0 && (l.toks[k-1].k == tIdent || l.is(k-1, ".") || l.is(k-1, "->")) {
		k--
	}
	return k
}

// isChild reports whether a device expression names a device the
// function created ("&child->dev", "mc_dev->dev").
func (b *body) isChild(dev string) bool {
	k := devKey(dev)
	if b.children[k] {
		return true
	}
	for _, suf := range []string{"->dev", ".dev"} {
		if p, ok := strings.CutSuffix(k, suf); ok && b.children[p] {
			return true
		}
	}
	return false
}

// devKey returns a device expression as written, without its "&".
func devKey(dev string) string {
	return strings.ReplaceAll(strings.TrimPrefix(strings.TrimSpace(dev), "&"), " ", "")
}

// isOther reports whether a device expression names a device that is
// neither the driver's nor one it created: an ASoC card's
// ("card->dev", "rtd->card->snd_card->dev"), set up by the card's own
// driver.
func (b *body) isOther(dev string) bool {
	return mentionsCard(dev) || mentionsChan(dev) || b.others[base(dev)] || b.others[devKey(dev)]
}

// chanNames are the identifiers that name a DMA channel or its device
// (struct dma_chan, include/linux/dmaengine.h; a channel's chan_dev):
// the controller's device or one the dmaengine core created, never
// the device a client driver binds.
var chanNames = map[string]bool{"chan": true, "dma_chan": true, "chan_dev": true, "dmaengine_get_dma_device": true}

// mentionsChan reports whether a device expression reads a DMA channel.
func mentionsChan(e string) bool {
	for _, id := range identifiers(e) {
		if chanNames[id] {
			return true
		}
	}
	return false
}

// base returns the variable a device expression starts from: "child"
// for "&child->dev".
func base(dev string) string {
	dev = strings.TrimPrefix(strings.TrimSpace(dev), "&")
	if i := strings.IndexAny(dev, ".-[ "); i >= 0 {
		dev = dev[:i]
	}
	return strings.TrimSpace(dev)
}

// mentionsCard reports whether an expression reads a sound card member.
func mentionsCard(e string) bool {
	for _, id := range identifiers(e) {
		if id == "card" || id == "snd_card" {
			return true
		}
	}
	return false
}

// alts splits a mask argument toks[a..z] into its alternatives.
func (b *body) alts(a, z int) []alt {
	l := b.l
	// Strip enclosing parentheses.
	for l.is(a, "(") && l.match(a) == z {
		a, z = a+1, z-1
	}
	// A ternary at depth 0: c ? x : y.
	q, col := -1, -1
	for j := a; j <= z; j++ {
		if l.is(j, "(") || l.is(j, "[") || l.is(j, "{") {
			j = l.match(j)
			continue
		}
		if q < 0 && l.is(j, "?") {
			q = j
		} else if q >= 0 && col < 0 && l.is(j, ":") {
			col = j
		}
	}
	if q > a && col > q && col < z {
		c := l.text(a, q-1)
		x := b.alts(q+1, col-1)
		y := b.alts(col+1, z)
		for i := range x {
			x[i].cond = joinCond(c, x[i].cond)
		}
		for i := range y {
			y[i].cond = joinCond("!("+c+")", y[i].cond)
		}
		return append(x, y...)
	}
	e := alt{expr: l.text(a, z)}
	// A local variable (possibly inside DMA_BIT_MASK()) traced to its
	// assignment.
	inner := a
	if l.is(a, "DMA_BIT_MASK") && l.is(a+1, "(") && l.match(a+1) == z {
		inner = a + 2
		z--
	}
	if inner == z && l.toks[inner].k == tIdent {
		name := l.toks[inner].s
		if rhs := b.assigns[name]; len(rhs) > 0 {
			e.traced = strings.Join(rhs, " or ")
			e.values = rhs
			e.lines = b.assignLines[name]
			e.inBits = inner != a
			e.name = strings.Clone(name)
			e.local = b.local(name)
		}
	} else if inner < z && b.memberPath(inner, z) {
		// A member (xhci->dma_mask_bits) this function assigns: what
		// it assigns, to be trusted only when no other reached code
		// assigns that member (classify decides).
		key := l.text(inner, z)
		if rhs := b.assigns[key]; len(rhs) > 0 && b.memberCount[lastMember(key)] == 1 {
			e.traced = strings.Join(rhs, " or ")
			e.values = rhs
			e.lines = b.assignLines[key]
			e.inBits = inner != a
			e.name = strings.Clone(key)
			e.member = true
		}
	}
	return []alt{e}
}

// local reports whether a variable's assignments are all its values:
// it is not a parameter, and its address is never taken (passed to
// of_property_read_u32(np, "...", &bits), say).
func (b *body) local(name string) bool {
	l := b.l
	pe := l.match(b.params)
	for i := b.params; i < b.end; i++ {
		if l.toks[i].k != tIdent || l.toks[i].s != name {
			continue
		}
		if i < pe || l.is(i-1, "&") && !l.is(i+1, ".") && !l.is(i+1, "->") && !l.is(i+1, "[") {
			return false
		}
	}
	return true
}

func joinCond(a, b string) string {
	if a == "" {
		return b
	}
	if b == "" {
		return a
	}
	return a + " && " + b
}

// irq records an IRQ request at toks[k] and classifies its name.
func (b *body) irq(k int, cond string) {
	l := b.l
	name := l.toks[k].s
	args := splitArgs(l, k+1)
	n := irqNameArg[name]
	if len(args) <= n {
		return
	}
	a, z := args[n][0], args[n][1]
	text := l.text(a, z)
	e := event{k: evIRQ, name: name, line: int(l.toks[k].line), cond: cond, arg: text, irqKind: "unknown"}
	switch {
	case l.toks[a].k == tString && l.toks[z].k == tString:
		e.irqKind, e.arg = "literal", unquoteRun(l, a)
	case l.is(a, "dev_name") || l.is(a, "netdev_name"):
		e.irqKind = map[bool]string{true: "dev_name", false: "netdev"}[l.toks[a].s == "dev_name"]
	case text == "NULL" && strings.HasPrefix(name, "devm_"):
		// devm_request_threaded_irq() names the action after the
		// device when the name is NULL (kernel/irq/devres.c).
		e.irqKind = "dev_name"
	case formatOf(l, a, z+1) != "":
		e.irqKind, e.arg = "format", formatOf(l, a, z+1)
	case b.format(strings.TrimPrefix(text, "&"), k) != "":
		e.irqKind, e.arg = "format", b.format(strings.TrimPrefix(text, "&"), k)
	case strings.HasSuffix(text, "->name") && b.netdevs[strings.TrimSuffix(text, "->name")]:
		e.irqKind = "netdev"
	}
	b.add(e)
}

// macroCase reports whether an identifier is spelled like a macro or
// an enumerator (FOO_BAR), which names no function or variable: such
// references are not recorded.
func macroCase(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'a' && c <= 'z' {
			return false
		}
	}
	return true
}

// formatAt is a format string printed into a buffer at a token index.
type formatAt struct {
	at int
	f  string
}

// format returns the format last printed into buf before token k, ""
// when none is.
func (b *body) format(buf string, k int) string {
	f := ""
	for _, x := range b.formats[buf] {
		if x.at < k {
			f = x.f
		}
	}
	return f
}
