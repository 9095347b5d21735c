package load

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/load"
	"cuelang.org/go/cue/parser"
	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc/compiler/diag"
)

// bspModule is a CUE module with one SoC package and boards on it: two
// valid, one whose value conflicts with the SoC's, one that sets fields
// of a master, one that refers to its SoC, one with a pattern over the
// masters, one that sets a bus's field, one setting a master the SoC
// lacks, one on an SoC that refers to its masters, one on an SoC with
// a pattern over its masters, one on an SoC with an alias naming its
// masters together, one that does not
// parse, one importing a package the module lacks, and one on an SoC
// package of its own that does not parse.
var bspModule = map[string]string{
	"cue.mod/module.cue":    "module: \"example.com/bsp@v0\"\nlanguage: version: \"v0.17.0\"\n",
	"soc/s/s.cue":           socS,
	"soc/broken/broken.cue": "package broken\n\nsoc: {\n",
	// An SoC whose own fields refer to its masters.
	"soc/r/r.cue": "package r\n\nimport \"example.com/bsp/soc/s\"\n\nsoc: s.soc\nsoc: cpus: clusters: [{core: \"arm,cortex-a53\", cpus: [0, len(soc.masters)]}]\n",
	// An SoC with a pattern over its masters naming each (allowed), and
	// one with an alias naming them together.
	"soc/pat/pat.cue": strings.Replace(socS, "package s", "package pat", 1) + "soc: masters: [_]: M={if M.bridge == _|_ {irqCount: {}}}\n",
	"soc/al/al.cue":   strings.Replace(socS, "package s", "package al", 1) + "soc: masters: X={dma0: driver: \"d\\(len(X))\"}\n",
	"onpat/board.cue": onSoCPackage(board("onpat", "soc: masters: dma0: enabled: false\n"), "pat"),
	// A pattern that reads a field a board sets: the board's master is
	// what the pattern makes of the SoC's and the board's fields together.
	"soc/rd/rd.cue":  strings.Replace(socS, "package s", "package rd", 1) + "soc: masters: [_]: M={if M.driver != _|_ {irqs: drv: \"dma0-\\(M.driver)\"}}\n",
	"onrd/board.cue": onSoCPackage(board("onrd", "soc: masters: dma0: driver: \"d\"\n"), "rd"),
	"onal/board.cue": onSoCPackage(board("onal", ""), "al"),
	// Boards that only disable a master: on an SoC that states the
	// master's enabled (the board's conflicts), on one whose pattern
	// reads it, and one that names its SoC package elsewhere too (its
	// import stays).
	"soc/en/en.cue":   strings.Replace(socS, "package s", "package en", 1) + "soc: masters: dma0: enabled: true\n",
	"onen/board.cue":  onSoCPackage(board("onen", "soc: masters: dma0: enabled: false\n"), "en"),
	"soc/enp/enp.cue": strings.Replace(socS, "package s", "package enp", 1) + "soc: masters: [_]: M={if M.enabled != _|_ {irqs: off: \"dma0-off\"}}\n",
	"onenp/board.cue": onSoCPackage(board("onenp", "soc: masters: dma0: enabled: false\n"), "enp"),
	"soc/use/use.cue": strings.Replace(socS, "package s", "package use", 1) + "model: \"from the SoC\"\n",
	"onuse/board.cue": onSoCPackage(board("onuse", "model: use.model\nsoc: masters: dma0: enabled: false\n"), "use"),
	// Boards that set fields of the SoC's masters, and others.
	"on/board.cue":         board("on", "soc: masters: dma0: {enabled: false, irqs: rx: \"dma0-rx\"}\n// A comment.\nsoc: masters: dma0: irqCount: rx: 2\n"),
	"refers/board.cue":     board("refers", "model: \"on \" + soc.name\n"),
	"pattern/board.cue":    board("pattern", "soc: masters: [_]: enabled: false\n"),
	"buses/board.cue":      board("buses", "soc: buses: soc: addressBits: 40\n"),
	"undeclared/board.cue": board("undeclared", "soc: masters: dma9: enabled: false\n"),
	"onr/board.cue":        onSoCPackage(board("onr", ""), "r"),
	// #Board's fields on a board of the shape onSoC: optional ones set, a
	// field #Board does not have, one it closes, one of the wrong type,
	// one not concrete, and a required one left out.
	"opt/board.cue":      board("opt", "kernel: \"6.12\"\ndts: \"arch/arm64/boot/dts/v/opt.dts\"\nwaivers: []\nschema: 2\n"),
	"stray/board.cue":    board("stray", "extra: 1\n"),
	"closed/board.cue":   board("closed", "policy: bogus: 1\n"),
	"typed/board.cue":    board("typed", "model: 5\n"),
	"vague/board.cue":    board("vague", "model: string\n"),
	"noname/board.cue":   strings.Replace(board("noname", ""), "name: \"noname\"\n", "", 1),
	"a/board.cue":        board("a", ""),
	"b/board.cue":        board("b", "memory: [{base: 0x4000_0000, size: 0x8000_0000}]\n"),
	"conflict/board.cue": board("conflict", "soc: masters: dma0: bus: \"other\"\n"),
	"syntax/board.cue":   "package syntax\n\nname: \"syntax\"\nsoc: {\n",
	"missing/board.cue":  strings.Replace(board("missing", ""), "example.com/bsp/soc/s", "example.com/bsp/soc/none", 1),
	"onbroken/board.cue": onSoCPackage(board("onbroken", ""), "broken"),
	// Files cue/load decodes before it parses them, which Prepare
	// leaves it to read (inputChecker.parse): a byte-order mark, and a
	// byte that is no UTF-8.
	"bom/board.cue":   "\uFEFF" + board("bom", ""),
	"latin/board.cue": board("latin", "model: \"caf\xe9\"\n"),
	// A directory of two packages, which Prepare leaves unqualified
	// (inputChecker.packageOf) for cue/load to refuse.
	"two/board.cue": board("two", ""),
	"two/other.cue": "package other\n",
}

// socS is the SoC package s.
const socS = `package s

soc: {
	name: "s"
	compatible: ["vendor,s"]
	root: {"#address-cells": 1, "#size-cells": 1}
	cpus: clusters: [{core: "arm,cortex-a53", cpus: [0, 1]}]
	buses: soc: {
		node: path:       "/soc"
		"#address-cells": 1
		"#size-cells":    1
		coherency: {coherent: true, source: "vendor datasheet 4.2", masters: "all"}
	}
	masters: dma0: {
		node: {label: "dma0", path: "/soc/dma@1000"}
		compatible: ["vendor,dma"]
		bus: "soc"
		dma: streaming: 32
		irqs: {}
	}
}
`

// onSoCPackage returns the board src on the SoC package named pkg
// instead of s.
func onSoCPackage(src, pkg string) string {
	return strings.Replace(strings.Replace(src, "soc/s\"", "soc/"+pkg+"\"", 1), "s.soc", pkg+".soc", 1)
}

// board returns a board package named name on the SoC package s, with
// extra appended.
func board(name, extra string) string {
	return "package " + name + `

import "example.com/bsp/soc/s"

name: "` + name + `"
compatible: ["vendor,` + name + `"]
soc: s.soc
policy: {irqs: [], net: {}, sysctls: {}, isolatedCPUs: []}
memory: *[{base: 0, size: 0x4000_0000}] | _
` + extra
}

// TestPrepareChangesNoResult loads every board of bspModule with a Loader
// prepared for all of them and with one loading each on its own, and
// requires the same lowered boards and diagnostics, positions included.
// The boards that load (valid or not) must have come from Prepare,
// sharing their SoC package's instance; those that do not must have been
// left to load alone. The valid boards of the shape onSoC must have been
// loaded on their SoC lowered once (loadOnSoC), the others evaluated
// whole.
func TestPrepareChangesNoResult(t *testing.T) {
	t.Setenv("CUE_REGISTRY", "none")
	root := t.TempDir()
	writeTree(t, root, bspModule)
	names := []string{"a", "b", "conflict", "on", "refers", "pattern", "buses", "undeclared", "onr", "onpat", "onrd", "onal", "onen", "onenp", "onuse", "bom", "latin", "opt", "stray", "closed", "typed", "vague", "noname", "syntax", "missing", "onbroken", "two"}
	const loads = 23 // the boards before syntax load
	// The boards the SoC is lowered once for: the others are evaluated
	// whole.
	onSoC := map[string]bool{"a": true, "b": true, "conflict": true, "on": true, "undeclared": true, "onpat": true, "onrd": true, "onen": true, "onenp": true, "onuse": true, "bom": true, "latin": true, "opt": true, "stray": true, "closed": true, "typed": true, "vague": true, "noname": true}
	inError := map[string]bool{"conflict": true, "undeclared": true, "syntax": true, "missing": true, "onbroken": true, "onen": true, "two": true, "stray": true, "closed": true, "typed": true, "vague": true, "noname": true}
	// The boards whose masters take the lowered SoC's with only enabled
	// changed (socTemplate.split).
	enabledOnly := map[string]bool{"onpat": true, "onuse": true}
	var paths []string
	for _, n := range names {
		paths = append(paths, filepath.Join(root, n))
	}

	prepared, err := New()
	if err != nil {
		t.Fatal(err)
	}
	prepared.Prepare(paths)
	soc := prepared.prepared[paths[0]]
	for i, p := range paths[:loads] {
		inst := prepared.prepared[p]
		if inst == nil {
			t.Fatalf("%s was not prepared: %v", p, prepared.prepared)
		}
		if !strings.HasPrefix(names[i], "on") && (len(inst.Imports) != 1 || inst.Imports[0] != soc.Imports[0]) {
			t.Errorf("%s does not share the SoC's instance: %v and %v", p, inst.Imports, soc.Imports)
		}
		shape, ok := prepared.shapeOnSoC(inst)
		if ok != onSoC[names[i]] {
			t.Errorf("%s: shapeOnSoC = %v, want %v", names[i], ok, onSoC[names[i]])
		}
		if ok {
			tmpl := prepared.socTemplate(shape.soc, &positions{wd: prepared.wd, root: inst.Root, dir: p})
			if _, en := tmpl.split(shape); (len(en) > 0) != enabledOnly[names[i]] {
				t.Errorf("%s: masters only enabled or disabled %v, want some: %v", names[i], en, enabledOnly[names[i]])
			}
		}
	}
	for _, p := range paths[loads:] {
		if prepared.prepared[p] != nil {
			t.Errorf("%s, in error, was prepared: it must load on its own", p)
		}
	}

	for i, p := range paths {
		alone, err := New()
		if err != nil {
			t.Fatal(err)
		}
		want, got, fast := loadBoth(t, names[i], alone, prepared, p)
		if wantFast := onSoC[names[i]] && !inError[names[i]]; fast != wantFast {
			t.Errorf("%s: loaded on its prepared SoC: %v, want %v", names[i], fast, wantFast)
		}
		if !inError[names[i]] && want.Board == nil {
			t.Errorf("%s does not load:\n%s", names[i], diagText(want.Diagnostics))
		}
		// The case is one only if the pattern saw the board's driver.
		if names[i] == "onrd" && got.Board != nil {
			if irqs := got.Board.SoC.Masters[0].IRQs; len(irqs) != 1 || irqs[0].Name != "dma0-d" {
				t.Errorf("onrd: IRQs %+v, want the pattern's dma0-d", irqs)
			}
		}
		if names[i] == "onenp" && got.Board != nil {
			if irqs := got.Board.SoC.Masters[0].IRQs; len(irqs) != 1 || irqs[0].Name != "dma0-off" {
				t.Errorf("onenp: IRQs %+v, want the pattern's dma0-off", irqs)
			}
		}
		if enabledOnly[names[i]] && got.Board != nil && got.Board.SoC.Masters[0].Enabled {
			t.Errorf("%s: master dma0 enabled, want the board's false", names[i])
		}
		if names[i] == "onuse" && got.Board != nil && got.Board.Model != "from the SoC" {
			t.Errorf("onuse: model %q, want the SoC package's", got.Board.Model)
		}
		if inError[names[i]] && !want.Diagnostics.HasErrors() {
			t.Errorf("%s loads without error; the test needs it in error", names[i])
		}
	}
	if len(prepared.prepared) != 0 {
		t.Errorf("prepared instances left after loading every board: %v", prepared.prepared)
	}
}

// loadBoth loads the board at path with alone, a Loader of its own, and
// with prepared (on its SoC lowered once where it can), fails the test
// unless both give the same board and diagnostics, and returns both and
// whether prepared took its SoC lowered once.
func loadBoth(t *testing.T, name string, alone, prepared *Loader, path string) (want, got Partial, fast bool) {
	t.Helper()
	want = alone.LoadPartial(path)
	if got, fast = prepared.loadOnSoC(path); !fast {
		got = prepared.LoadPartial(path)
	}
	if diff := cmp.Diff(diagText(want.Diagnostics), diagText(got.Diagnostics)); diff != "" {
		t.Errorf("%s: diagnostics (-alone +prepared):\n%s", name, diff)
	}
	if diff := cmp.Diff(want.Board, got.Board); diff != "" {
		t.Errorf("%s: board (-alone +prepared):\n%s", name, diff)
	}
	return want, got, fast
}

// diagText is ds as boardc prints them.
func diagText(ds diag.List) string {
	var s strings.Builder
	if err := ds.WriteText(&s); err != nil {
		return err.Error()
	}
	return s.String()
}

// TestPrepareFS checks that the files Prepare's input check parses are
// the syntax cue/load builds the instances from, read from what the
// check kept (checkedFS): with a board's file and its SoC's file gone from
// the disk, cue/load still lists and reads them. The files cue/load would
// decode first, or could not parse, are left to it.
func TestPrepareFS(t *testing.T) {
	t.Setenv("CUE_REGISTRY", "none")
	root := t.TempDir()
	writeTree(t, root, bspModule)
	c := newInputChecker(root)
	c.parsed = map[string]*ast.File{}
	var args []string
	for _, n := range []string{"a", "bom", "latin", "syntax", "two"} {
		if file, why := c.check(filepath.Join(root, n)); file != "" {
			t.Fatalf("%s: %s", file, why)
		}
		args = append(args, "./"+n)
	}
	kept := func(file string) *ast.File { return c.parsed[filepath.Join(root, file)] }
	for n, want := range map[string]bool{"a": true, "bom": false, "latin": false, "syntax": false} {
		if got := kept(n+"/board.cue") != nil; got != want {
			t.Errorf("%s/board.cue kept parsed: %v, want %v", n, got, want)
		}
	}
	if kept("soc/s/s.cue") == nil {
		t.Errorf("the SoC package's file, which a's imports lead to, was not kept parsed")
	}
	for n, want := range map[string]string{"a": "a", "bom": "", "latin": "", "syntax": "", "two": ""} {
		if got := c.packageOf(filepath.Join(root, n)); got != want {
			t.Errorf("packageOf(%s) = %q, want %q", n, got, want)
		}
	}
	for _, f := range []string{"a/board.cue", "soc/s/s.cue"} {
		if err := os.Remove(filepath.Join(root, f)); err != nil {
			t.Fatal(err)
		}
	}
	insts := load.Instances(args, &load.Config{Dir: root, Registry: registry(), FS: checkedFS{c}, ParseFile: c.parseFile})
	if len(insts) != len(args) || len(insts[0].Files) != 1 || len(insts[0].Imports) != 1 {
		t.Fatalf("cue/load gave %d instances for %d packages", len(insts), len(args))
	}
	if err := insts[0].Err; err != nil {
		t.Fatalf("a: %v", err)
	}
	if insts[0].Files[0] != kept("a/board.cue") || insts[0].Imports[0].Files[0] != kept("soc/s/s.cue") {
		t.Errorf("cue/load parsed a/board.cue or its SoC's file again")
	}
	if got, want := insts[0].Files[0].Filename, filepath.Join(root, "a/board.cue"); got != want {
		t.Errorf("a's file is named %q, want %q", got, want)
	}
}

// TestShareTemplates checks that Loaders sharing Templates lower an SoC
// package once for all of them, with the results of a Loader alone, and
// that one whose SoC package's source changed lowers it again.
func TestShareTemplates(t *testing.T) {
	t.Setenv("CUE_REGISTRY", "none")
	root := t.TempDir()
	writeTree(t, root, bspModule)
	var shared Templates
	var tmpls []*socTemplate
	for i, boards := range [][]string{{"a", "b"}, {"on", "undeclared"}, {"a", "on"}} {
		if i == 2 {
			writeTree(t, root, map[string]string{"soc/s/s.cue": strings.Replace(socS, "streaming: 32", "streaming: 40", 1)})
		}
		l, err := New()
		if err != nil {
			t.Fatal(err)
		}
		l.ShareTemplates(&shared)
		var paths []string
		for _, n := range boards {
			paths = append(paths, filepath.Join(root, n))
		}
		l.Prepare(paths)
		shape, ok := l.shapeOnSoC(l.prepared[paths[0]])
		if !ok {
			t.Fatalf("%s is not on its SoC", boards[0])
		}
		tmpls = append(tmpls, l.socTemplate(shape.soc, &positions{wd: l.wd, root: root, dir: paths[0]}))
		for j, p := range paths {
			alone, err := New()
			if err != nil {
				t.Fatal(err)
			}
			loadBoth(t, boards[j], alone, l, p)
		}
	}
	if tmpls[0] != tmpls[1] || !tmpls[0].ok {
		t.Errorf("two Loaders sharing templates lowered the SoC twice (or not at all)")
	}
	if tmpls[2] == tmpls[0] || tmpls[2].soc.Masters[0].DMABits != 40 {
		t.Errorf("after the SoC's source changed, a Loader took the template of the old source")
	}
}

// TestRefersWithin: a field of #Board that refers to another of its
// fields is found (boardScope then refuses the schema, which a
// description built with it would otherwise read apart from its values); one
// referring to a top-level definition or within a struct of its own is
// not.
func TestRefersWithin(t *testing.T) {
	f, err := parser.ParseFile("s.cue", "#X: int\n#Board: {a: int, b: a + 1, c: #X, d: {e: 1, f: e}, g: [for x in [1] {x}]}\n")
	if err != nil {
		t.Fatal(err)
	}
	s := f.Decls[1].(*ast.Field).Value.(*ast.StructLit)
	want := map[string]bool{"a": false, "b": true, "c": false, "d": false, "g": false}
	for _, e := range s.Elts {
		fl := e.(*ast.Field)
		name, _, _ := ast.LabelName(fl.Label)
		if got := refersWithin(fl.Value, s); got != want[name] {
			t.Errorf("%s: refersWithin = %v, want %v", name, got, want[name])
		}
	}
}
