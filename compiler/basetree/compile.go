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
	// Root is the kernel source tree.
	Root string
	// DTS is the board's .dts, relative to Root (the description's dts:).
	DTS string
	// Include lists more include directories, searched after the
	// kernel's own (scripts/dtc/include-prefixes).
	Include []string
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
	if c.Root == "" {
		return nil, errors.New("no kernel tree given")
	}
	if c.DTS == "" {
		return nil, errors.New("the description names no dts: to build its base tree from")
	}
	dts := filepath.Join(c.Root, filepath.FromSlash(c.DTS))
	if _, err := os.Stat(dts); err != nil {
		return nil, fmt.Errorf("%s: the description's dts: is not in the kernel tree %s", c.DTS, c.Root)
	}
	var inc []string
	prefixes := filepath.Join(c.Root, IncludePrefixes)
	if fi, err := os.Stat(prefixes); err == nil && fi.IsDir() {
		inc = append(inc, prefixes)
	}
	inc = append(inc, c.Include...)
	if len(inc) == 0 {
		return nil, fmt.Errorf("%s: no %s (is it a kernel source tree?), and no include directory given", c.Root, IncludePrefixes)
	}
	cppArgs := []string{"-nostdinc"}
	for _, d := range inc {
		cppArgs = append(cppArgs, "-I", d)
	}
	cppArgs = append(cppArgs, "-undef", "-D__DTS__", "-x", "assembler-with-cpp", "-o", "-", dts)
	var pre, cppErr bytes.Buffer
	cpp := exec.CommandContext(ctx, Tools.CPP, cppArgs...)
	cpp.Stdout, cpp.Stderr = &pre, &cppErr
	if err := cpp.Run(); err != nil {
		return nil, toolError("cpp", err, cppErr.String())
	}
	dtcArgs := []string{"-I", "dts", "-O", "dtb", "-@", "-b", "0", "-i", filepath.Dir(dts)}
	for _, d := range inc {
		dtcArgs = append(dtcArgs, "-i", d)
	}
	dtcArgs = append(dtcArgs, "-o", "-", "-")
	var dtb, dtcErr bytes.Buffer
	dtc := exec.CommandContext(ctx, Tools.DTC, dtcArgs...)
	dtc.Stdin, dtc.Stdout, dtc.Stderr = &pre, &dtb, &dtcErr
	if err := dtc.Run(); err != nil {
		return nil, toolError("dtc", err, dtcErr.String())
	}
	return Read(dtb.Bytes(), c.DTS)
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

// ReadFile reads a compiled tree (.dtb).
func ReadFile(path string) (*Tree, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Read(b, path)
}
