package load

import (
	"path/filepath"
	"slices"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/build"
	"cuelang.org/go/cue/token"

	"boardc.dev/boardc/compiler/ir"
)

// socTemplate is an SoC package's soc, validated against #SoC and
// lowered, before what a board adds: the masters a board sets fields of
// are lowered again in each board.
type socTemplate struct {
	soc ir.SoC
	// masters is the position of soc.masters, the masters' fallback.
	masters ir.Pos
	// silentEnabled says the SoC package never names enabled
	// (silentOn): a board that sets only that of a master changes only
	// that of its lowered form.
	silentEnabled bool
	ok            bool
}

// loadOnSoC loads the prepared board at path when it has the shape
// onSoC: its SoC evaluated, validated and lowered once for every board
// prepared with it (socTemplate), the board's value built with #Board's
// fields but soc (boardScope) and validated, the masters it sets fields
// of lowered from that value. The result is the one LoadPartial gives by
// unifying the whole description with #Board. It reports false, having
// changed nothing, for any other board and for one in error: LoadPartial
// then evaluates it whole, which gives every diagnostic.
func (l *Loader) loadOnSoC(path string) (Partial, bool) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return Partial{}, false
	}
	inst := l.prepared[abs]
	if inst == nil {
		return Partial{}, false
	}
	shape, ok := l.shapeOnSoC(inst)
	if !ok {
		return Partial{}, false
	}
	p := &positions{wd: l.wd, root: inst.Root, dir: abs}
	tmpl := l.socTemplate(shape.soc, p)
	if !tmpl.ok {
		return Partial{}, false
	}
	// After socTemplate, which may have spent the context.
	ctx, _, err := l.context()
	if err != nil {
		return Partial{}, false
	}
	bs, err := l.boardScope()
	if err != nil {
		return Partial{}, false
	}
	refs, fields, ok := bs.refs(shape.fields, false)
	if !ok {
		return Partial{}, false
	}
	reread, enabled := tmpl.split(shape)
	data := ctx.BuildInstance(shape.mastersOf(inst, reread, refs), cue.Scope(bs.scope))
	if data.Err() != nil {
		return Partial{}, false
	}
	if !concrete(data, fields) {
		return Partial{}, false
	}
	soc, ok := l.applyOnSoC(tmpl, reread, enabled, data, p)
	if !ok {
		return Partial{}, false
	}
	lw := &lowerer{pos: p, onSoC: &soc}
	b := lw.board(node{v: data, pos: p, fallback: p.dirPos()})
	if len(lw.diags) > 0 || len(lw.missing) > 0 {
		return Partial{}, false
	}
	for _, f := range sources(inst) {
		b.Sources = append(b.Sources, ir.Source{Path: f, Rel: p.convert(f, 0, 0).Src})
	}
	delete(l.prepared, abs)
	l.spendFiles(inst)
	return Partial{Board: b, OnSoC: true}, true
}

// socTemplate returns the SoC package inst's soc validated and lowered,
// once per Prepare, or once for every Loader sharing l's Templates when
// the source of its files is known (sharedTemplate); ok is false when it
// is in error, which its boards then report.
func (l *Loader) socTemplate(inst *build.Instance, p *positions) *socTemplate {
	if t, ok := l.socs[inst]; ok {
		return t
	}
	if l.socs == nil {
		l.socs = map[*build.Instance]*socTemplate{}
	}
	if s := l.sharedTemplate(inst); s != nil {
		s.once.Do(func() { s.t = l.makeSoCTemplate(inst, p) })
		l.socs[inst] = s.t
		return s.t
	}
	t := l.makeSoCTemplate(inst, p)
	l.socs[inst] = t
	return t
}

// makeSoCTemplate validates and lowers the SoC package inst's soc.
func (l *Loader) makeSoCTemplate(inst *build.Instance, p *positions) *socTemplate {
	t := &socTemplate{}
	ctx, _, err := l.context()
	if err != nil {
		return t
	}
	pkg := ctx.BuildInstance(inst)
	if pkg.Err() != nil {
		return t
	}
	v := pkg.LookupPath(cue.MakePath(cue.Str("soc"))).Unify(l.socDef)
	if v.Validate(cue.Concrete(true), cue.Final()) != nil {
		return t
	}
	n := node{v: v, pos: p, fallback: p.dirPos(), src: pkg.LookupPath(cue.MakePath(cue.Str("soc"))), hasSrc: true}
	lw := &lowerer{pos: p}
	soc := lw.soc(n)
	if len(lw.diags) > 0 || len(lw.missing) > 0 {
		return t
	}
	t.soc, t.masters, t.ok = soc, n.at("masters").Pos(), true
	t.silentEnabled = silentOn(inst, "enabled")
	l.spend(inst)
	return t
}

// split divides the masters a board of the shape sets fields of into
// those lowered again from the board's value unified with #Master, and
// those the board only enables or disables, which take the template's
// lowered master with that changed: the SoC says nothing of their
// enabled (silentEnabled, and the lowered master has none), so that the
// board's literal is the field's whole value, the schema's bool admits
// it, and nothing else of the SoC depends on it.
func (t *socTemplate) split(shape onSoC) (reread []string, enabled map[string]*ast.BasicLit) {
	for _, key := range shape.masters {
		lit, only := shape.enabled[key]
		if m := t.soc.Master(key); only && t.silentEnabled && m != nil && m.EnabledPos == (ir.Pos{}) {
			if enabled == nil {
				enabled = map[string]*ast.BasicLit{}
			}
			enabled[key] = lit
		} else {
			reread = append(reread, key)
		}
	}
	return reread, enabled
}

// applyOnSoC returns the board's SoC: the template with the masters keys
// lowered again from the board's value, each unified with #Master and
// validated, and the masters of enabled given the board's literal
// (socTemplate.split); ok is false when one is in error or the SoC does
// not declare it.
func (l *Loader) applyOnSoC(t *socTemplate, keys []string, enabled map[string]*ast.BasicLit, data cue.Value, p *positions) (ir.SoC, bool) {
	soc := t.soc
	soc.Masters = make([]*ir.Master, len(t.soc.Masters))
	for i, m := range t.soc.Masters {
		c := *m
		c.NetDevs = slices.Clone(m.NetDevs) // DeriveDPNIs writes them
		soc.Masters[i] = &c
	}
	for _, key := range keys {
		i := slices.IndexFunc(soc.Masters, func(m *ir.Master) bool { return m.Key == key })
		if i < 0 {
			return ir.SoC{}, false
		}
		src := data.LookupPath(cue.MakePath(cue.Str("soc"), cue.Str("masters"), cue.Str(key)))
		v := src.Unify(l.masterDef)
		if v.Validate(cue.Concrete(true), cue.Final()) != nil {
			return ir.SoC{}, false
		}
		m, bus, problem := lowerMaster(key, node{v: v, pos: p, fallback: t.masters, src: src, hasSrc: true})
		if problem != nil {
			return ir.SoC{}, false
		}
		if m.Bus = soc.Bus(bus); m.Bus == nil {
			return ir.SoC{}, false
		}
		// The master's own position is the SoC's: in the whole board,
		// the SoC's declarations of it come after the board's (its
		// fields are reached through soc: NAME.soc), and CUE places a
		// struct at the last of them; here the board's value reaches
		// the master through a reference (onSoC.mastersOf).
		m.Pos = t.soc.Masters[i].Pos
		soc.Masters[i] = m
	}
	for key, lit := range enabled {
		// The literal is the field's whole value: its position is the
		// value's, as a scalar's is in the whole board.
		m, at := soc.Master(key), lit.Pos()
		m.Enabled, m.EnabledPos = lit.Kind == token.TRUE, p.convert(at.Filename(), at.Line(), at.Column())
	}
	soc.DeriveDPNIs()
	return soc, true
}
