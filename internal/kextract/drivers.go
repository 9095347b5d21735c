package kextract

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"boardc.dev/boardc/compiler/kernel"
)

// busOf names the bus of a driver structure type.
func busOf(typ string) string {
	switch typ {
	case "fsl_mc_driver":
		return "fsl-mc"
	}
	return strings.ReplaceAll(strings.TrimSuffix(typ, "_driver"), "_", "-")
}

// first returns the first non-empty value of v's fields at paths.
func first(v *variable, paths ...string) (string, int) {
	for _, p := range paths {
		if s, line := v.get(p); s != "" {
			return s, line
		}
	}
	return "", 0
}

var reUnwrap = regexp.MustCompile(`^(?:of_match_ptr|ACPI_PTR|pm_ptr)\s*\((.*)\)$`)

// unwrap returns the table a driver names: X from "of_match_ptr(X)",
// "&X[0]", "X".
func unwrap(s string) string {
	s = strip(s)
	if m := reUnwrap.FindStringSubmatch(s); m != nil {
		s = strip(m[1])
	}
	s = strings.TrimPrefix(s, "&")
	if i := strings.IndexByte(s, '['); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// str returns the string a value denotes: a literal, or a macro whose
// body is one; the value as written otherwise.
func (ix *index) str(s, file string) string {
	s = strings.TrimSpace(s)
	for range 4 {
		if strings.HasPrefix(s, "\"") {
			return unquote(s)
		}
		b, ok := ix.define(s, file)
		if !ok || !reIdent.MatchString(s) {
			return s
		}
		s = b
	}
	return s
}

// unquote joins adjacent string literals as written in source.
func unquote(s string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '"')
		if i < 0 {
			return b.String()
		}
		j := i + 1
		for j < len(s) && s[j] != '"' {
			if s[j] == '\\' {
				j++
			}
			j++
		}
		if j > len(s) {
			j = len(s)
		}
		b.WriteString(s[i+1 : min(j, len(s))])
		if j >= len(s) {
			return b.String()
		}
		s = s[j+1:]
	}
}

// entry is one element of a match table: its key and its .data.
type entry struct {
	key  string
	data string
}

// table reads a match table: of_device_id (.compatible), amba_id (.id,
// .mask, keyed "amba:ID/MASK") or fsl_mc_device_id (.obj_type, keyed
// "fsl-mc:TYPE").
func (ix *index) table(v *variable) []entry {
	var out []entry
	for _, e := range v.entries {
		get := func(name string) string {
			for _, f := range e {
				if f.path == name {
					return f.value
				}
			}
			return ""
		}
		var key string
		switch v.typ {
		case "of_device_id":
			if c := get("compatible"); c != "" {
				key = ix.str(c, v.file)
			}
		case "amba_id":
			id, mask := get("id"), get("mask")
			if id == "" {
				id, mask = get("#0"), get("#1")
			}
			if id != "" && strip(id) != "0" {
				key = "amba:" + strings.ToLower(strip(id))
				if mask != "" {
					key += "/" + strings.ToLower(strip(mask))
				}
			}
		case "fsl_mc_device_id":
			if t := get("obj_type"); t != "" {
				key = "fsl-mc:" + ix.str(t, v.file)
			}
		}
		if key != "" && !strings.HasPrefix(key, "\"") {
			out = append(out, entry{key: key, data: get("data")})
		}
	}
	return out
}

// drivers returns the catalogue's drivers: every *_driver structure
// with a probe function and a match table the extractor can key.
func (ix *index) drivers(paths []string) []kernel.Driver {
	var out []kernel.Driver
	for _, p := range paths {
		f := ix.files[p]
		for _, v := range f.vars {
			if !strings.HasSuffix(v.typ, "_driver") || v.typ == "device_driver" {
				continue
			}
			if d, ok := ix.driver(v); ok {
				out = append(out, d)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b kernel.Driver) int {
		if c := strings.Compare(a.Site.File, b.Site.File); c != 0 {
			return c
		}
		return a.Site.Line - b.Site.Line
	})
	return out
}

// driver reads one driver structure.
func (ix *index) driver(v *variable) (kernel.Driver, bool) {
	probe, _ := first(v, "probe", "probe_new")
	probe = strip(probe)
	if probe == "" || !reIdent.MatchString(probe) {
		return kernel.Driver{}, false
	}
	tname, _ := first(v, "driver.of_match_table", "drv.of_match_table")
	var tables []*variable
	if t := ix.variable(unwrap(tname), v.file); tname != "" && t != nil && t.typ == "of_device_id" {
		tables = append(tables, t)
	}
	if v.typ == "amba_driver" || v.typ == "fsl_mc_driver" {
		id, _ := first(v, "id_table", "match_id_table")
		if t := ix.variable(unwrap(id), v.file); id != "" && t != nil {
			tables = append(tables, t)
		}
	}
	var entries []entry
	for _, t := range tables {
		entries = append(entries, ix.table(t)...)
	}
	if len(entries) == 0 {
		return kernel.Driver{}, false
	}
	name, _ := first(v, "driver.name", "drv.name", "name")
	d := kernel.Driver{
		Name: ix.str(name, v.file),
		Bus:  busOf(v.typ),
		Site: kernel.Site{File: v.file, Line: v.line},
	}
	for _, e := range entries {
		if !slices.Contains(d.Compatibles, e.key) {
			d.Compatibles = append(d.Compatibles, e.key)
		}
		if e.data != "" && strip(e.data) != "NULL" && strip(e.data) != "0" {
			d.MatchData = true
		}
	}
	fns := ix.resolve(probe, v.file)
	if len(fns) != 1 {
		d.Probe = kernel.Site{File: v.file, Func: probe}
		d.DMA = kernel.DMA{Kind: kernel.DMAUnknown, Reason: fmt.Sprintf("probe function %s() is defined in %d places the extractor can see", probe, len(fns))}
		return d, true
	}
	pf := fns[0]
	d.Probe = kernel.Site{File: pf.file, Line: pf.line, Func: pf.name}
	w := newWalk(ix)
	w.visit(pf, nil, "", 0, false)
	// The module's init function runs before any probe and can fill in
	// the callbacks probe's code calls (xhci_plat_init() gives
	// xhci_plat_hc_driver its .reset, drivers/usb/host/xhci-plat.c).
	for _, name := range ix.files[v.file].inits {
		if fn := ix.fileFuncs[v.file][name]; fn != nil {
			w.visit(fn, []string{"module_init(" + name + ")"}, "", 1, false)
		}
	}
	// The match data's callbacks run at probe too (a per-SoC .init).
	for _, e := range entries {
		for _, id := range identifiers(e.data) {
			if mv := ix.variable(id, v.file); mv != nil {
				w.visitVar(mv, []string{"&" + id}, "", 1, false)
			}
		}
	}
	w.run()
	d.DMA = ix.classify(w, entries, v.file)
	d.IRQs = w.irqs
	d.Affinity = w.affinity
	if w.netdev || len(w.xps) > 0 {
		d.Netdev = &kernel.Netdev{SetChannels: w.setCh, XPS: w.xps}
	}
	d.Bridge = w.bridge
	if d.Bridge == "fsl-mc" && !fslMC(v.file) {
		d.Bridge = "" // an object driver adding its endpoint through the bus
	}
	return d, true
}
