package conform

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// KernelEnv names the Debian kernel source archive the corpus takes what
// it lacks from; without it, DefaultKernel.
const KernelEnv = "BOARDC_CORPUS_KSRC"

// DefaultKernel is the kernel source archive Debian's linux-source-6.12
// installs: the newest Linux this machine's archive has.
const DefaultKernel = "/usr/src/linux-source-6.12.tar.xz"

// Kernel is what the corpus takes from a kernel source archive because
// the tarball has none of it: the device trees of arch/arm and
// arch/riscv, which 170 arm64 boards include (<arm/...>: the Raspberry
// Pi, Allwinner H5 and Versatile Express boards share their SoC's .dtsi
// with 32-bit boards) and one includes (<riscv/...>), and the dtc kbuild
// builds from scripts/dtc, which reads the label-relative path
// references (&{label/path}) of the imx8mp-skov boards where Debian's
// dtc 1.6.1 does not. A board compiled with them is a v7.1 arm64 board
// over that kernel's arm or riscv .dtsi: the nearest to v7.1 that can be
// had here, not v7.1's own.
type Kernel struct {
	// Archive is the archive's file name ("linux-source-6.12.tar.xz").
	Archive string
	// Dir is where its parts are extracted: arch/arm/boot/dts,
	// arch/riscv/boot/dts and scripts/dtc, with dtc built in it.
	Dir string
	// DTC is the dtc built from scripts/dtc.
	DTC string
}

// KernelTools are the programs OpenKernel runs, each with the Debian
// package that has it.
var KernelTools = map[string]string{"tar": "tar", "xz": "xz-utils", "flex": "flex", "bison": "bison", "cc": "gcc"}

// OpenKernel extracts the parts of the kernel source archive the corpus
// needs into the corpus cache directory and builds dtc there, unless an
// earlier call did. Like Open, it works in a directory of its own and
// renames it into place.
func OpenKernel(archive string) (*Kernel, error) {
	sum, err := digest(archive)
	if err != nil {
		return nil, err
	}
	top, _, _ := strings.Cut(filepath.Base(archive), ".tar")
	dir := filepath.Join(cacheDir(), top+"-"+sum[:16])
	k := &Kernel{Archive: filepath.Base(archive), Dir: dir, DTC: filepath.Join(dir, "scripts", "dtc", "dtc")}
	if _, err := os.Stat(k.DTC); err == nil {
		return k, nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".kernel-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	parts := []string{"arch/arm/boot/dts", "arch/riscv/boot/dts", "scripts/dtc"}
	args := []string{"-xJf", archive, "-C", tmp, "--strip-components=1"}
	for _, p := range parts {
		args = append(args, top+"/"+p)
	}
	if err := tool(tmp, "tar", args...); err != nil {
		return nil, fmt.Errorf("%s: %v", archive, err)
	}
	if err := buildDTC(filepath.Join(tmp, "scripts", "dtc")); err != nil {
		return nil, fmt.Errorf("%s: building scripts/dtc: %v", archive, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, err2 := os.Stat(k.DTC); err2 != nil {
			return nil, err
		}
	}
	return k, nil
}

// buildDTC builds dtc in the kernel's scripts/dtc directory as kbuild
// does (scripts/dtc/Makefile: dtc-objs, -I libfdt -DNO_YAML; the lexer
// and parser by scripts/Makefile.host's cmd_flex and cmd_bison).
func buildDTC(dir string) error {
	if err := tool(dir, "flex", "-odtc-lexer.lex.c", "-L", "dtc-lexer.l"); err != nil {
		return err
	}
	if err := tool(dir, "bison", "-o", "dtc-parser.tab.c", "--defines=dtc-parser.tab.h", "-t", "-l", "dtc-parser.y"); err != nil {
		return err
	}
	args := []string{"-O2", "-I", ".", "-I", "libfdt", "-DNO_YAML", "-o", "dtc"}
	for _, o := range []string{"dtc", "flattree", "fstree", "data", "livetree", "treesource", "srcpos", "checks", "util", "dtc-lexer.lex", "dtc-parser.tab"} {
		args = append(args, o+".c")
	}
	return tool(dir, "cc", args...)
}

// tool runs the program name in dir; its error carries what it printed,
// or the package to install when it is missing.
func tool(dir, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	var ee *exec.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ee):
		return fmt.Errorf("%s not found: install it (Debian package %s)", name, KernelTools[name])
	default:
		return fmt.Errorf("%s: %v: %s", name, err, strings.TrimSpace(string(out)))
	}
}

// digest returns the hex sha256 of the file.
func digest(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("%s: %v", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// WithKernel returns the corpus laid out as a kernel tree whose arch/arm
// and arch/riscv device trees are k's: a directory of links beside the
// extracted corpus, so that the corpus itself stays as the tarball has it.
// Its boards compile with k's dtc.
func (cp *Corpus) WithKernel(k *Kernel) (*Corpus, error) {
	root := cp.Root + "+" + filepath.Base(k.Dir)
	if _, err := os.Stat(filepath.Join(root, DTSDir)); err != nil {
		tmp, err := os.MkdirTemp(filepath.Dir(root), ".view-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		links := map[string]string{
			"src":                                filepath.Join(cp.Root, "src"),
			"include":                            filepath.Join(cp.Root, "include"),
			DTSDir:                               "../../../src/arm64",
			"arch/arm/boot/dts":                  filepath.Join(k.Dir, "arch/arm/boot/dts"),
			"arch/riscv/boot/dts":                filepath.Join(k.Dir, "arch/riscv/boot/dts"),
			"scripts/dtc/include-prefixes/arm64": "../../../src/arm64",
			"scripts/dtc/include-prefixes/arm":   "../../../arch/arm/boot/dts",
			"scripts/dtc/include-prefixes/riscv": "../../../arch/riscv/boot/dts",
			"scripts/dtc/include-prefixes/dt-bindings": "../../../include/dt-bindings",
		}
		if err := symlinks(tmp, links); err != nil {
			return nil, err
		}
		if err := os.Rename(tmp, root); err != nil {
			if _, err2 := os.Stat(filepath.Join(root, DTSDir)); err2 != nil {
				return nil, err
			}
		}
	}
	return &Corpus{Root: root, Boards: cp.Boards, Kernel: k}, nil
}
