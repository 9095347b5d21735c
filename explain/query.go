package explain

import (
	"strings"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/outputs"
	"boardc.dev/boardc/outputs/tune"
)

// query is WHAT resolved: the elements it names or that stand behind it,
// and, where WHAT is a name the outputs define or set, that name.
type query struct {
	what string
	refs refSet
	// lines, when set, are the elements whose generated lines are shown,
	// where they are fewer than those whose facts are (the pins of an IRQ
	// rather than the master declaring it).
	lines refSet
	// name, when set, keeps only the generated lines that define or set
	// it (a property, a symbol, a runtime path).
	name string
}

// lineRefs returns the elements whose generated lines q shows.
func (q *query) lineRefs() refSet {
	if q.lines != nil {
		return q.lines
	}
	return q.refs
}

// addMaster adds m and the runtime policy that names it: the pins of its
// IRQs and the steering of its interfaces.
func (q *query) addMaster(b *ir.Board, m *ir.Master) {
	q.refs.add(m.Ref())
	for i, p := range b.Policy.IRQs {
		for _, o := range p.Owners {
			if o == m {
				q.refs.add(ir.IRQPinRef(i))
			}
		}
	}
	for _, n := range b.Policy.Net {
		if n.Master == m {
			q.refs.add(n.Ref())
		}
	}
}

// refSet is a set of refs; it holds a ref when it holds the ref or an
// element above it.
type refSet []ir.Ref

func (s *refSet) add(r ir.Ref) {
	if r != "" && !s.has(r) {
		*s = append(*s, r)
	}
}

func (s refSet) has(r ir.Ref) bool {
	for _, x := range s {
		if x.Contains(r) {
			return true
		}
	}
	return false
}

func (s refSet) any(rs []ir.Ref) bool {
	for _, r := range rs {
		if s.has(r) {
			return true
		}
	}
	return false
}

// resolve works out the elements what names, through the description and
// the names the outputs record.
func resolve(b *ir.Board, m *outputs.Manifest, what string) *query {
	q := &query{what: what}
	// A path (soc.masters.crypto, policy.irqs[0]) is a ref first; a
	// single word (soc, name) is a key, label or name first.
	if strings.ContainsAny(what, ".[") && q.byRef(b) {
		return q
	}
	if q.byDescription(b, what) || q.byRef(b) {
		return q
	}
	q.byName(m)
	return q
}

// byRef resolves q.what as a ref: the element it names, the elements it
// holds (soc.masters), or else the nearest element that holds it
// (soc.masters.crypto.dmaBits), unless the ref goes on into a collection
// of elements without naming one of them (soc.masters.nope). A master
// comes with the runtime policy that names it, as by its key. It reports
// whether it named any.
func (q *query) byRef(b *ir.Board) bool {
	r := ir.Ref(q.what)
	elems := b.Refs()
	var holder ir.Ref
	for _, e := range elems {
		switch {
		case r.Contains(e):
			q.refs.add(e)
		case e.Contains(r) && len(e) > len(holder):
			holder = e
		}
	}
	if len(q.refs) == 0 && holder != "" {
		rest := string(r)[len(holder):]
		next := holder + ir.Ref(rest[:segment(rest)])
		for _, e := range elems {
			if next.Contains(e) {
				return false
			}
		}
		q.refs.add(holder)
	}
	if len(q.refs) == 1 {
		if m := masterByRef(b, q.refs[0]); m != nil {
			q.addMaster(b, m)
		}
	}
	return len(q.refs) > 0
}

// segment returns the length of the first element of a ref's rest, which
// starts with ".name", ".\"quoted name\"" or "[index]".
func segment(rest string) int {
	if strings.HasPrefix(rest, `."`) {
		if i := strings.Index(rest[2:], `"`); i >= 0 {
			return i + 3
		}
		return len(rest)
	}
	if i := strings.IndexAny(rest[1:], ".["); i >= 0 {
		return i + 1
	}
	return len(rest)
}

func masterByRef(b *ir.Board, r ir.Ref) *ir.Master {
	for _, m := range b.SoC.Masters {
		if m.Ref() == r {
			return m
		}
	}
	return nil
}

// byDescription resolves what through the description: a master or bus
// by key, label or path, a master's property, an IRQ action name, an
// interface or a path below it, a sysctl by key or path. It reports
// whether any matched.
func (q *query) byDescription(b *ir.Board, what string) bool {

	master := func(name string) *ir.Master {
		for _, m := range b.SoC.Masters {
			if m.Key == name || m.Node.Path == name || (m.Node.Label != "" && m.Node.Label == name) {
				return m
			}
		}
		return nil
	}
	if m := master(what); m != nil {
		q.addMaster(b, m)
	}
	for _, bus := range b.SoC.Buses {
		if bus.Key == what || bus.Node.Path == what || (bus.Node.Label != "" && bus.Node.Label == what) {
			q.refs.add(bus.Ref())
		}
	}
	if k, prop, ok := strings.Cut(what, "/"); ok && k != "" {
		if m := master(k); m != nil {
			q.refs.add(m.Ref())
			q.name = prop
			return true
		}
	}
	// An IRQ action name: the facts of the masters declaring it and of
	// its pins, the lines of its pins.
	var irqLines refSet
	for _, m := range b.SoC.Masters {
		for _, irq := range m.IRQs {
			if irq.Name == what {
				q.refs.add(m.Ref())
			}
		}
	}
	for i, p := range b.Policy.IRQs {
		if p.IRQ == what {
			q.refs.add(ir.IRQPinRef(i))
			irqLines.add(ir.IRQPinRef(i))
		}
	}
	if len(q.refs) > 0 && len(irqLines) > 0 && master(what) == nil {
		q.lines = irqLines
	}
	// An interface, or a path below /sys/class/net/IF: its steering and
	// the master declaring it.
	ifname, sysPath := what, false
	if rest, ok := strings.CutPrefix(what, "/sys/class/net/"); ok {
		ifname, _, _ = strings.Cut(rest, "/")
		sysPath = true
	}
	for _, m := range b.SoC.Masters {
		for _, n := range m.NetDevs {
			if n.Name == ifname {
				q.refs.add(m.Ref())
			}
		}
	}
	for _, n := range b.Policy.Net {
		if n.IfName == ifname {
			q.refs.add(n.Ref())
		}
	}
	// A sysctl, by key or by its /proc/sys path.
	for _, s := range b.Policy.Sysctls {
		if s.Key == what || tune.SysctlPath(s.Key) == what {
			q.refs.add(s.Ref())
		}
	}
	if sysPath && len(q.refs) > 0 {
		q.name = what
	}
	return len(q.refs) > 0
}

// byName resolves q.what as a name the outputs define or set: a
// property, a C symbol, a compatible string, a device unit. The elements
// are those of the lines that do, as the manifest records them.
func (q *query) byName(m *outputs.Manifest) {
	if m == nil {
		return
	}
	for _, f := range m.Files {
		at, ok := named(f, q.what)
		if !ok {
			continue
		}
		q.name = q.what
		for _, l := range f.Lines {
			refs, lines := origin(l)
			if at.anyOf(lines) {
				for _, r := range refs {
					q.refs.add(r)
				}
			}
		}
	}
}

// withBuses returns refs with the buses, and their parents, of every
// master among them: a master's coherency is its bus's.
func withBuses(b *ir.Board, refs refSet) refSet {
	out := append(refSet{}, refs...)
	for _, m := range b.SoC.Masters {
		if !refs.has(m.Ref()) {
			continue
		}
		out.add(m.Bus.Ref())
		for _, a := range m.Bus.Ancestors() {
			out.add(a.Ref())
		}
	}
	return out
}
