package load_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	cueerrors "cuelang.org/go/cue/errors"
	cueload "cuelang.org/go/cue/load"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/compiler/load"
	"boardc.dev/boardc/internal/synth"
)

// tiny is a valid description of a board with one bus and one master.
const tiny = synth.Tiny

func write(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func mustLoad(t *testing.T, path string) *ir.Board {
	t.Helper()
	l, err := load.New()
	if err != nil {
		t.Fatal(err)
	}
	b, ds := l.Load(path)
	if b == nil {
		t.Fatalf("does not load:\n%s", text(ds))
	}
	return b
}

// The schema a description is unified with must not meet the user's
// names: a let, a hidden field and definitions named as the schema's.
func TestSchemaNamesAreTheSchemas(t *testing.T) {
	dir := write(t, map[string]string{"board.cue": "package tiny\n" + tiny + `
let boardcSchema = {#SoC: {anything: _}}
_boardcSchema: 1
#Board: {colour: string}
#SoC: {anything: int}
#Key: "UPPER only"
model: boardcSchema.#SoC.anything & "a model"
`})
	b := mustLoad(t, dir)
	if b.Model != "a model" || b.SoC.Masters[0].Key != "dma0" {
		t.Errorf("model %q, masters %v", b.Model, b.SoC.Masters)
	}
}

// A single file without a package clause is a description too.
func TestNoPackageClause(t *testing.T) {
	dir := write(t, map[string]string{"board.cue": tiny})
	b := mustLoad(t, filepath.Join(dir, "board.cue"))
	if b.Name != "tiny" {
		t.Errorf("name %q", b.Name)
	}
}

// Positions come from the one evaluated value, and are the user's.
func TestPositionsAreTheUsers(t *testing.T) {
	dir := write(t, map[string]string{"board.cue": "package tiny\n" + tiny})
	b := mustLoad(t, dir)
	line := func(p ir.Pos) int {
		t.Helper()
		if !strings.HasSuffix(p.File, "board.cue") {
			t.Errorf("position %v is not in board.cue", p)
		}
		return p.Line
	}
	m := b.SoC.Masters[0]
	for _, c := range []struct {
		what      string
		got, want int
	}{
		{"name", line(b.Pos), 3},
		{"master", line(m.Pos), 18},
		{"master node", line(m.Node.Pos), 19},
		{"dmaBits", line(m.DMABitsPos), 22},
		{"bus", line(m.BusPos), 21},
		{"bus coherency", line(b.SoC.Buses[0].Coherency.Pos), 16},
	} {
		if c.got != c.want {
			t.Errorf("%s: line %d, want %d", c.what, c.got, c.want)
		}
	}
	if m.DMABitsPos.Col != 12 {
		t.Errorf("dmaBits: column %d, want 12 (the value)", m.DMABitsPos.Col)
	}
}

// The schema printed for a package, put in a board's directory, makes CUE
// alone check the board: a valid one evaluates, a bad value is rejected at
// the user's position.
func TestSchemaFileChecksThePackage(t *testing.T) {
	text, err := load.SchemaFile("tiny")
	if err != nil {
		t.Fatal(err)
	}
	ctx := cuecontext.New()
	check := func(board string) error {
		dir := write(t, map[string]string{"board.cue": "package tiny\n" + board, "zz_boardc.cue": string(text)})
		inst := cueload.Instances([]string{"."}, &cueload.Config{Dir: dir})[0]
		if inst.Err != nil {
			t.Fatal(inst.Err)
		}
		v := ctx.BuildInstance(inst)
		if err := v.Err(); err != nil {
			return err
		}
		return v.Validate(cue.Concrete(true))
	}
	if err := check(tiny); err != nil {
		t.Errorf("valid board rejected: %v", err)
	}
	err = check(strings.Replace(tiny, "dmaBits: 32", "dmaBits: 80", 1))
	if d := cueerrors.Details(err, nil); err == nil || !strings.Contains(d, "out of bound <=64") || !strings.Contains(d, "board.cue:") {
		t.Errorf("dmaBits 80: got %v, want out of bound in board.cue", d)
	}
	if _, err := load.SchemaFile("two words"); err == nil {
		t.Error("a package name with a space is accepted")
	}
}

// A bus's node may be the root "/" (masters directly under the root, as on
// QEMU's virt machine); a master's node may not.
func TestRootNodePath(t *testing.T) {
	const busPath, masterPath = `node: path:       "/soc"`, `path: "/soc/dma@1000"`
	if !strings.Contains(tiny, busPath) || !strings.Contains(tiny, masterPath) {
		t.Fatal("synth.Tiny no longer has the paths this test replaces")
	}
	root := strings.Replace(tiny, busPath, `node: path:       "/"`, 1)
	root = strings.Replace(root, masterPath, `path: "/dma@1000"`, 1)
	b := mustLoad(t, write(t, map[string]string{"board.cue": "package tiny\n" + root}))
	if got := b.SoC.Buses[0].Node.Path; got != "/" {
		t.Errorf("bus node path %q, want /", got)
	}
	if got := b.SoC.Masters[0].Bus; got != b.SoC.Buses[0] {
		t.Errorf("master on bus %v, want the root bus", got)
	}

	bad := strings.Replace(root, `path: "/dma@1000"`, `path: "/"`, 1)
	l, err := load.New()
	if err != nil {
		t.Fatal(err)
	}
	got, ds := l.Load(write(t, map[string]string{"board.cue": "package tiny\n" + bad}))
	if got != nil {
		t.Fatal("a master on the root node loads")
	}
	if s := text(ds); !strings.Contains(s, `soc.masters.dma0.node.path: invalid value "/"`) || strings.Contains(s, "soc.buses") {
		t.Errorf("want one error on the master's path, none on the bus's; got:\n%s", s)
	}
}

// A board's kernel series and a driver's mask widths reach the IR, the
// widths sorted and without repeats, each with its position.
func TestKernelAndDriverWidths(t *testing.T) {
	const dma = "dmaBits: 32\n"
	if !strings.Contains(tiny, dma) {
		t.Fatal("synth.Tiny no longer has the line this test extends")
	}
	src := "package tiny\nkernel: \"6.1\"\n" + strings.Replace(tiny, dma,
		dma+"\t\tdriverSets: {source: \"vendor_probe()\", widths: [64, 32, 64]}\n", 1)
	b := mustLoad(t, write(t, map[string]string{"board.cue": src}))
	if b.Kernel != "6.1" || b.KernelPos.Line != 2 {
		t.Errorf("kernel %q at line %d, want \"6.1\" at line 2", b.Kernel, b.KernelPos.Line)
	}
	d := b.SoC.Masters[0].DriverSets
	if d == nil {
		t.Fatal("driverSets not lowered")
	}
	if !slices.Equal(d.Widths, []int{32, 64}) || !d.WidthsPos.IsValid() {
		t.Errorf("widths %v at %v, want [32 64] with a position", d.Widths, d.WidthsPos)
	}
}
