package main

import (
	"context"
	"fmt"
	"os"
	"sync"

	"github.com/spf13/cobra"

	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/compiler/ir"
)

// baseFlags choose the device tree a board's fragment is built on, for
// the base-tree checks (BC0600-BC0607).
type baseFlags struct {
	dtsRoot string
	include []string
	dtb     string
	// on is set by register: commands without the flags (diff) do not
	// read the environment variable either.
	on bool
}

// baseHelp is the help paragraph of the flags.
const baseHelp = `--dts-root DIR (or $` + basetree.RootEnv + `) names a Linux source tree: each board's
dts: is compiled in it as kbuild compiles it (cpp -nostdinc with
scripts/dtc/include-prefixes, -undef -D__DTS__ -x assembler-with-cpp, then
dtc -@), and the description is checked against the result: labels and
paths, compatibles, cell counts, dma-ranges, CPUs and clusters, status and
dma-coherent (BC0600-BC0607, see boardc checks). --dts-include DIR adds an
include directory after the tree's own. --dtb FILE checks against a
compiled tree instead (labels only if it was built with dtc -@). A board
without dts: is not checked against a --dts-root tree.`

func (f *baseFlags) register(c *cobra.Command) {
	f.on = true
	c.Flags().StringVar(&f.dtsRoot, "dts-root", "", "check against each board's dts: compiled in the Linux tree `DIR` (default $"+basetree.RootEnv+")")
	c.Flags().StringArrayVar(&f.include, "dts-include", nil, "add `DIR` to the include path of --dts-root builds (repeatable)")
	c.Flags().StringVar(&f.dtb, "dtb", "", "check against the compiled device tree `FILE`")
	c.MarkFlagsMutuallyExclusive("dts-root", "dtb")
}

// source returns the function that gives each board its base tree, or nil
// when no tree is asked for. Trees are built once per dts: (or read once,
// for --dtb) and shared by the boards that name them; it is safe for
// concurrent use.
func (f *baseFlags) source() (func(*ir.Board) (*basetree.Tree, error), error) {
	if !f.on {
		return nil, nil
	}
	root := f.dtsRoot
	if root == "" && f.dtb == "" {
		root = os.Getenv(basetree.RootEnv)
	}
	if f.dtb != "" {
		var once sync.Once
		var t *basetree.Tree
		var err error
		return func(*ir.Board) (*basetree.Tree, error) {
			once.Do(func() { t, err = basetree.ReadFile(f.dtb) })
			return t, err
		}, nil
	}
	if root == "" {
		if len(f.include) > 0 {
			return nil, fmt.Errorf("--dts-include needs --dts-root (or $%s)", basetree.RootEnv)
		}
		return nil, nil
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("--dts-root %s: not a directory", root)
	}
	type built struct {
		once sync.Once
		t    *basetree.Tree
		err  error
	}
	var mu sync.Mutex
	cache := map[string]*built{}
	return func(b *ir.Board) (*basetree.Tree, error) {
		if b.DTS == "" {
			return nil, nil
		}
		mu.Lock()
		e := cache[b.DTS]
		if e == nil {
			e = &built{}
			cache[b.DTS] = e
		}
		mu.Unlock()
		e.once.Do(func() {
			e.t, e.err = basetree.Compile{Root: root, DTS: b.DTS, Include: f.include, Annotate: true}.Build(context.Background())
		})
		return e.t, e.err
	}, nil
}
