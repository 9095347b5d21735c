package load

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMigrate migrates a version-1 description whose coherent bus leaves
// masters out, through a shared struct in an SoC package: the result
// loads, the struct gets masters: "all" once, and migrating it again
// changes nothing.
func TestMigrate(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"cue.mod/module.cue": "module: \"m.example\"\nlanguage: version: \"v0.9.0\"\n",
		"board.cue": `package b

import "m.example/soc/s"

schema: 1
name:   "b"
compatible: ["v,b"]
soc: s.soc
memory: [{base: 0, size: 0x4000_0000}]
policy: {irqs: [], net: {}, sysctls: {}, isolatedCPUs: []}
waivers: []
`,
		"soc/s/s.cue": `package s

_coherent: {
	coherent: true
	source:   "vendor datasheet 4.2"
}

soc: {
	name: "s"
	compatible: []
	root: {"#address-cells": 1, "#size-cells": 1}
	cpus: clusters: [{core: "arm,cortex-a53", cpus: [0]}]
	buses: {
		a: {node: path: "/a", "#address-cells": 1, "#size-cells": 1, coherency: _coherent}
		b: {node: path: "/b", "#address-cells": 1, "#size-cells": 1, coherency: {coherent: true, source: "vendor datasheet 4.3"}}
		c: {node: path: "/c", "#address-cells": 1, "#size-cells": 1, coherency: {coherent: false, source: "vendor datasheet 4.4"}}
	}
	masters: dma0: {
		node: {label: "dma0", path: "/a/dma@1000"}
		compatible: ["vendor,dma"]
		bus:     "a"
		dmaBits: 32
		irqs: {}
		coherency: {coherent: true, source: "vendor datasheet 4.5"}
	}
}
`,
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	l, err := New()
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := l.Load(dir); b != nil {
		t.Fatal("a version-1 description loaded")
	}
	ms, ds := l.Migrate(dir)
	if len(ds) > 0 {
		t.Fatalf("migrate: %v", ds)
	}
	if len(ms) != 2 {
		t.Errorf("%d files migrated, want 2", len(ms))
	}
	for file, m := range ms {
		if err := os.WriteFile(file, m.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	socText, _ := os.ReadFile(filepath.Join(dir, "soc/s/s.cue"))
	boardText, _ := os.ReadFile(filepath.Join(dir, "board.cue"))
	if got := len(regexp.MustCompile(`masters:\s+"all"`).FindAll(socText, -1)); got != 2 {
		t.Errorf("masters: \"all\" written %d times, want 2 (_coherent and bus b):\n%s", got, socText)
	}
	if !strings.Contains(string(socText), `coherency: {coherent: true, source: "vendor datasheet 4.3", masters: "all"}`) {
		t.Errorf("bus b not completed on its line:\n%s", socText)
	}
	if !strings.Contains(string(socText), `coherency: {coherent: true, source: "vendor datasheet 4.5"}`) {
		t.Errorf("the master's own coherency fact was changed:\n%s", socText)
	}
	if !strings.Contains(string(boardText), "schema: 2\n") {
		t.Errorf("schema not migrated:\n%s", boardText)
	}
	if b, ds := l.Load(dir); b == nil {
		t.Fatalf("migrated description does not load: %v", ds)
	}
	again, ds := l.Migrate(dir)
	if len(ds) > 0 || len(again) > 0 {
		t.Errorf("second migration changed %d files (%v)", len(again), ds)
	}
}

// TestMigrateLayout finds the coherent: and schema: fields to migrate
// however they are laid out: a value on the line after its label, left
// of it or further right.
func TestMigrateLayout(t *testing.T) {
	dir := t.TempDir()
	board := `package b

schema:
	1
name:   "b"
compatible: ["v,b"]
memory: [{base: 0, size: 0x4000_0000}]
policy: {irqs: [], net: {}, sysctls: {}, isolatedCPUs: []}
waivers: []
soc: {
	name: "s"
	compatible: []
	root: {"#address-cells": 1, "#size-cells": 1}
	cpus: clusters: [{core: "arm,cortex-a53", cpus: [0]}]
	buses: {
		a: {
			node: path: "/a"
			"#address-cells": 1
			"#size-cells":    1
			coherency: {
				coherent:
					true
				source: "vendor datasheet 4.2"
			}
		}
		b: {node: path: "/b", "#address-cells": 1, "#size-cells": 1, coherency: {source: "vendor datasheet 4.3", coherent:
			true}}
	}
	masters: {}
}
`
	for name, text := range map[string]string{
		"cue.mod/module.cue": "module: \"m.example\"\nlanguage: version: \"v0.9.0\"\n",
		"board.cue":          board,
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	l, err := New()
	if err != nil {
		t.Fatal(err)
	}
	ms, ds := l.Migrate(dir)
	if len(ds) > 0 {
		t.Fatalf("migrate: %v", ds)
	}
	m := ms[filepath.Join(dir, "board.cue")]
	if m == nil {
		t.Fatalf("board.cue not migrated: %v", ms)
	}
	want := []string{"board.cue:4: schema: 2", `board.cue:20: masters: "all"`, `board.cue:26: masters: "all"`}
	var got []string
	for _, c := range m.Changes {
		got = append(got, strings.TrimPrefix(c, dir+string(filepath.Separator)))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if err := os.WriteFile(filepath.Join(dir, "board.cue"), m.Data, 0o644); err != nil {
		t.Fatal(err)
	}
	if b, ds := l.Load(dir); b == nil {
		t.Fatalf("the migrated description does not load: %v", ds)
	}
	if again, ds := l.Migrate(dir); len(again) != 0 || len(ds) != 0 {
		t.Errorf("migrating again: %v %v, want nothing", again, ds)
	}
}
