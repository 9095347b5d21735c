package outputs_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc/internal/fdt"
	"boardc.dev/boardc/internal/intree"
	"boardc.dev/boardc/internal/testtool"
	"boardc.dev/boardc/outputs"
)

// hostileModels are models the schema accepts (one line, no control
// character, at most 128 characters) that would change a generated file
// if printed raw: the first ends the DT header comment and sets the
// kernel's command line in every tree the fragment is included in.
var hostileModels = []string{
	`x */ / { chosen { bootargs = "init=/bin/sh"; }; }; /* y`,
	`*/ /delete-node/ &crypto; /*`,
	`x */ &crypto { status = "disabled"; dma-noncoherent; }; /* y`,
	`*//**/*/ /* */ */`,
	`// */ #include "/etc/passwd" /*`,
	`" ; } ; /dts-v1/; / { model = "pwned"; }; \`,
	`Board ™ — ü */ ✓ /*`,
	`it's '$(touch pwned)' "$HOME" ` + "`id`" + ` %n %% $$ ${X} \ ;`,
	strings.Repeat("*/", 64),
	strings.Repeat("why??/ ", 18),
}

// board copies the in-tree boards' CUE module to a temporary directory
// with the model of espressobin replaced, and returns the board's
// directory there.
func board(t *testing.T, model string) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "boards")
	if err := os.CopyFS(root, os.DirFS(filepath.Join("..", "boards"))); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "espressobin")
	p := filepath.Join(dir, "board.cue")
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lit, err := json.Marshal(model) // a JSON string is a CUE string
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^model: .*$`)
	if !re.Match(src) {
		t.Fatal("espressobin/board.cue declares no model")
	}
	src = re.ReplaceAllLiteral(src, []byte("model: "+string(lit)))
	if err := os.WriteFile(p, src, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// build compiles the board at dir, which must have no error (the schema
// accepts its model), and returns its files by path.
func build(t *testing.T, dir string) map[string]outputs.File {
	t.Helper()
	r := intree.Compile(t, dir)
	files := map[string]outputs.File{}
	for _, f := range r.Files {
		files[f.Path] = f
	}
	return files
}

// compileDTS runs dtc on src, after the C preprocessor as kbuild runs it
// when cpp is there, and returns the tree; dtc must print nothing.
func compileDTS(t *testing.T, dtc, src string, args ...string) fdt.Tree {
	t.Helper()
	if cpp, err := exec.LookPath("cpp"); err == nil {
		pre := src + ".pre"
		out, err := exec.Command(cpp, "-nostdinc", "-undef", "-D__DTS__", "-x", "assembler-with-cpp", "-P", "-o", pre, src).CombinedOutput()
		if err != nil || len(out) > 0 {
			t.Fatalf("cpp %s: %v\n%s", src, err, out)
		}
		src = pre
	}
	dtb := src + ".dtb"
	cmd := exec.Command(dtc, append([]string{"-I", "dts", "-O", "dtb", "-o", dtb}, append(args, src)...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		t.Fatalf("dtc %s: %v\n%s", src, err, stderr.String())
	}
	data, err := os.ReadFile(dtb)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := fdt.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// included builds the board's fragment over its base tree and returns
// the tree.
func included(t *testing.T, dtc string, files map[string]outputs.File) fdt.Tree {
	t.Helper()
	tmp := t.TempDir()
	frag := filepath.Join(tmp, "fragment.dtsi")
	if err := os.WriteFile(frag, files["espressobin.dtsi"].Data, 0o644); err != nil {
		t.Fatal(err)
	}
	base, err := os.ReadFile(filepath.Join("..", "boards", "espressobin", "testdata", "base.dts"))
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(tmp, "board.dts")
	if err := os.WriteFile(src, append(base, []byte("\n#include \""+frag+"\"\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	return compileDTS(t, dtc, src)
}

// overlay builds the board's overlay and returns its tree.
func overlay(t *testing.T, dtc string, files map[string]outputs.File) fdt.Tree {
	t.Helper()
	src := filepath.Join(t.TempDir(), "board.dtso")
	if err := os.WriteFile(src, files["espressobin.dtso"].Data, 0o644); err != nil {
		t.Fatal(err)
	}
	return compileDTS(t, dtc, src, "-@")
}

// TestHostileModelTree builds espressobin with models the schema accepts
// but that would inject device-tree source if printed raw: the fragment
// applied over the board's base tree, and the overlay, must compile to
// exactly the trees of the board with its own model. The other outputs
// must keep the model within their comments: the header compiles, the
// scripts parse, and no line of any file but its comment lines changes.
func TestHostileModelTree(t *testing.T) {
	dtc := testtool.Look(t, "dtc", "device-tree-compiler")
	plain := build(t, filepath.Join("..", "boards", "espressobin"))
	wantIncluded, wantOverlay := included(t, dtc, plain), overlay(t, dtc, plain)
	if len(wantIncluded.WithProperty("dma-coherent")) == 0 {
		t.Fatal("the plain build marks nothing coherent: the comparison would prove nothing")
	}
	for _, model := range hostileModels {
		t.Run(model, func(t *testing.T) {
			files := build(t, board(t, model))
			if diff := cmp.Diff(wantIncluded, included(t, dtc, files)); diff != "" {
				t.Errorf("the model changed the tree the fragment is included in (-plain +hostile):\n%s", diff)
			}
			if diff := cmp.Diff(wantOverlay, overlay(t, dtc, files)); diff != "" {
				t.Errorf("the model changed the overlay (-plain +hostile):\n%s", diff)
			}
			for path, f := range files {
				sameCode(t, path, plain[path].Data, f.Data)
			}
			checkConsumers(t, files)
		})
	}
}

// sameCode reports where got's lines of code differ from want's: the
// model may only change comment lines (and how many there are, where a
// long one wraps).
func sameCode(t *testing.T, path string, want, got []byte) {
	t.Helper()
	if path == outputs.ManifestPath {
		return
	}
	if diff := cmp.Diff(code(want), code(got)); diff != "" {
		t.Errorf("%s: code changed (-plain +hostile):\n%s", path, diff)
	}
}

// code returns the lines of a file that are not comment lines.
func code(data []byte) []string {
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		if !comment(l) {
			out = append(out, l)
		}
	}
	return out
}

// comment reports whether a line of any output is a comment line: in a
// block comment of C or DTS, or a '#' line.
func comment(line string) bool {
	s := strings.TrimSpace(line)
	return strings.HasPrefix(s, "* ") || strings.HasPrefix(s, "# ")
}

// kernelStubs returns a directory of stand-ins for the kernel headers the
// generated header includes, declaring just what it uses, so that the host
// compiler can read the header alone. They are not the kernel's: the
// kbuild tests in outputs/c build the same header against the real ones.
func kernelStubs(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	stubs := map[string]string{
		"dma-mapping.h": "typedef unsigned long long u64;\nstruct device;\n" +
			"#define DMA_BIT_MASK(n) (((n) == 64) ? ~0ULL : ((1ULL << (n)) - 1))\n" +
			"int dma_set_mask(struct device *dev, u64 mask);\nint dma_set_coherent_mask(struct device *dev, u64 mask);\n",
		"device.h":          "struct device_node;\nstruct device { struct device_node *of_node; };\n",
		"errno.h":           "#define ENODEV 19\n",
		"mod_devicetable.h": "struct of_device_id { char name[32]; char type[32]; char compatible[128]; const void *data; };\n",
		"of.h": "struct device_node;\nstruct of_device_id;\n" +
			"const struct of_device_id *of_match_node(const struct of_device_id *matches, const struct device_node *node);\n",
		"types.h": "typedef unsigned char u8;\n#define NULL ((void *)0)\n#define __maybe_unused __attribute__((__unused__))\n",
	}
	if err := os.Mkdir(filepath.Join(dir, "linux"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range stubs {
		if err := os.WriteFile(filepath.Join(dir, "linux", name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// checkConsumers has the C compiler read the header and the shell parse
// the scripts, where they are installed.
func checkConsumers(t *testing.T, files map[string]outputs.File) {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"boardc_espressobin.h", "tune.sh", "irqbalance-policy.sh"} {
		if err := os.WriteFile(filepath.Join(dir, name), files[name].Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if cc, err := exec.LookPath("gcc"); err == nil {
		inc := kernelStubs(t)
		out, err := exec.Command(cc, "-fsyntax-only", "-Wall", "-Werror", "-I", inc, "-x", "c", filepath.Join(dir, "boardc_espressobin.h")).CombinedOutput()
		if err != nil {
			t.Errorf("gcc on the header: %v\n%s", err, out)
		}
	}
	for _, s := range []string{"tune.sh", "irqbalance-policy.sh"} {
		if out, err := exec.Command("sh", "-n", filepath.Join(dir, s)).CombinedOutput(); err != nil {
			t.Errorf("sh -n %s: %v\n%s", s, err, out)
		}
	}
}
