package basetree

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// RootEnv is the environment variable that names the kernel tree when
// --dts-root is not given.
const RootEnv = "BOARDC_DTS_ROOT"

// Compile is how to build a base tree from a kernel source tree.
type Compile struct {
	// Root is the kernel source tree; "" for a .dts outside one.
	Root string
	// DTS is the board's .dts, relative to Root (the description's dts:),
	// or a file name when Root is "".
	DTS string
	// Include lists more include directories, searched after the
	// kernel's own (scripts/dtc/include-prefixes).
	Include []string
	// Annotate records where each property is set (Tree.PropSource),
	// at the cost of a second dtc run.
	Annotate bool
	// DTCProgram is the dtc to run; "" for Tools.DTC.
	DTCProgram string
}

// dtcTool is the dtc c runs.
func (c Compile) dtcTool() string {
	if c.DTCProgram != "" {
		return c.DTCProgram
	}
	return Tools.DTC
}

// IncludePrefixes is where a kernel tree keeps the include directory of
// its device trees: symbolic links arm, arm64, dt-bindings... so that
// "#include <arm/...>" and "<dt-bindings/...>" resolve (scripts/Makefile.lib,
// DTC_INCLUDE).
const IncludePrefixes = "scripts/dtc/include-prefixes"

// Tools names the programs Compile runs; tests may point them elsewhere.
var Tools = struct{ CPP, DTC string }{CPP: "cpp", DTC: "dtc"}

// Build compiles the .dts the way kbuild's cmd_dtc does
// (scripts/Makefile.lib): the C preprocessor with
// "-nostdinc -I<include-prefixes> -undef -D__DTS__ -x assembler-with-cpp",
// then dtc with the .dts's directory and the include prefixes as include
// paths, and -@ so that the tree keeps its labels. Nothing is written to
// disk: the preprocessor's output is piped to dtc, and dtc's tree comes
// back on its standard output. The error of a failed step carries what
// the tool printed.
func (c Compile) Build(ctx context.Context) (*Tree, error) {
	dts, inc, err := c.paths()
	if err != nil {
		return nil, err
	}
	pre, err := preprocess(ctx, dts, inc)
	if err != nil {
		return nil, err
	}
	t, err := c.dtc(ctx, pre, dts, inc)
	if err != nil || !c.Annotate {
		return t, err
	}
	return t, c.annotate(ctx, pre, dts, inc, t)
}

// paths returns the .dts's file name and the include directories.
func (c Compile) paths() (string, []string, error) {
	if c.DTS == "" {
		return "", nil, errors.New("the description names no dts: to build its base tree from")
	}
	dts := c.DTS
	var inc []string
	if c.Root != "" {
		dts = filepath.Join(c.Root, filepath.FromSlash(c.DTS))
		if _, err := os.Stat(dts); err != nil {
			return "", nil, fmt.Errorf("%s: the description's dts: is not in the kernel tree %s", c.DTS, c.Root)
		}
		prefixes := filepath.Join(c.Root, IncludePrefixes)
		if fi, err := os.Stat(prefixes); err == nil && fi.IsDir() {
			inc = append(inc, prefixes)
		} else if len(c.Include) == 0 {
			return "", nil, fmt.Errorf("%s: no %s (is it a kernel source tree?), and no include directory given", c.Root, IncludePrefixes)
		}
	} else if _, err := os.Stat(dts); err != nil {
		return "", nil, fmt.Errorf("%s: %v", dts, describe(err))
	}
	return dts, append(inc, c.Include...), nil
}

// Preprocess runs the C preprocessor over the .dts as kbuild does and
// returns its output.
func (c Compile) Preprocess(ctx context.Context) ([]byte, error) {
	dts, inc, err := c.paths()
	if err != nil {
		return nil, err
	}
	return preprocess(ctx, dts, inc)
}

// preprocess runs cpp over dts with the include directories inc.
func preprocess(ctx context.Context, dts string, inc []string) ([]byte, error) {
	args := []string{"-nostdinc"}
	for _, d := range inc {
		args = append(args, "-I", d)
	}
	args = append(args, "-undef", "-D__DTS__", "-x", "assembler-with-cpp", "-o", "-", dts)
	var out, stderr bytes.Buffer
	cpp := exec.CommandContext(ctx, Tools.CPP, args...)
	cpp.Stdout, cpp.Stderr = &out, &stderr
	if err := cpp.Run(); err != nil {
		return nil, toolError("cpp", err, stderr.String())
	}
	return out.Bytes(), nil
}

// DTC compiles preprocessed source (Preprocess's, possibly with more
// appended) with dtc -@, the .dts's directory and the include directories
// as dtc's include paths, and reads the tree.
func (c Compile) DTC(ctx context.Context, pre []byte) (*Tree, error) {
	dts, inc, err := c.paths()
	if err != nil {
		return nil, err
	}
	return c.dtc(ctx, pre, dts, inc)
}

// dtc compiles pre with dtc -@ and reads the tree; dts and inc are
// paths()'s.
func (c Compile) dtc(ctx context.Context, pre []byte, dts string, inc []string) (*Tree, error) {
	args := append([]string{"-I", "dts", "-O", "dtb", "-@", "-b", "0"}, dtcIncludes(dts, inc)...)
	args = append(args, "-o", "-", "-")
	var dtb, stderr bytes.Buffer
	dtc := exec.CommandContext(ctx, c.dtcTool(), args...)
	dtc.Stdin, dtc.Stdout, dtc.Stderr = bytes.NewReader(pre), &dtb, &stderr
	if err := dtc.Run(); err != nil {
		return nil, toolError("dtc", err, stderr.String())
	}
	return Read(dtb.Bytes(), c.DTS)
}

// dtcIncludes returns dtc's include-path arguments for source that comes
// from dts on standard input: the .dts's directory, where dtc would look
// first had it opened the file itself, then the include directories inc.
func dtcIncludes(dts string, inc []string) []string {
	args := []string{"-i", filepath.Dir(dts)}
	for _, d := range inc {
		args = append(args, "-i", d)
	}
	return args
}

// toolError reports a failed tool with the first lines it printed.
func toolError(tool string, err error, stderr string) error {
	var ee *exec.Error
	if errors.As(err, &ee) {
		pkg := map[string]string{"cpp": "cpp", "dtc": "device-tree-compiler"}[tool]
		return fmt.Errorf("%s not found: install it (Debian package %s)", tool, pkg)
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	var errs []string
	for _, l := range lines {
		if l != "" && !strings.Contains(l, "Warning") {
			errs = append(errs, l)
		}
	}
	if len(errs) > 5 {
		errs = append(errs[:5], "...")
	}
	return fmt.Errorf("%s failed (%v): %s", tool, err, strings.Join(errs, "; "))
}

// describe says why a file cannot be read, in words.
func describe(err error) string {
	switch {
	case os.IsNotExist(err):
		return "no such file"
	case os.IsPermission(err):
		return "permission denied"
	}
	return err.Error()
}
