package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"boardc.dev/boardc"
	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/draft"
	"boardc.dev/boardc/compiler/kernel"
	"boardc.dev/boardc/compiler/load"
	"boardc.dev/boardc/internal/outset"
)

func newImport() *cobra.Command {
	var (
		outDir, board, soc, root string
		series                   string
		include                  []string
		force, replaceSoC        bool
	)
	c := &cobra.Command{
		Use:   "import [-o DIR] [-I DIR]... [--dts-root DIR] FILE.dts|FILE.dtb",
		Short: "Write a draft SoC package and board package from a device tree",
		Long: `import reads a board's device tree and writes a draft description in the
project's layout, in the CUE module DIR (default "."):

  DIR/soc/<soc>/<soc>.cue   the SoC: root cells, CPUs and clusters (cpu-map,
                            else shared caches, else one cluster), buses
                            with their cells, parents and dma-ranges, DMA
                            masters with labels, paths and compatibles
  DIR/<board>/board.cue     the board: name, model, compatible, dts, memory,
                            the masters its tree disables

A DMA master is a node with dma-coherent or iommus, a node with a generic
name of a DMA-capable device (usb, sata, mmc, pcie, ethernet, crypto,
dma-controller, xor, gpu, video-codec: devicetree specification 2.2.2), or
one of the generic controllers (generic-xhci, -ehci, -ohci, -ahci,
snps,dwc3). Upstream's dma-coherent becomes a verified fact of that master
whose source names the file; a bus is coherent only for such verified
masters (masters: "verified"): import never claims a whole interconnect
coherent. What a tree cannot say is left with a TODO comment saying what
to fill in and where to find it: DMA mask widths (which boardc vet then
lists, one error per master), IRQ action names, network queues, policy.

The driver-facts catalogue of a Linux series (--kernel, default the newest
boardc ships) fills what the drivers say: for each master whose compatible
a driver lists (the most specific one, as the kernel matches), its driver,
its DMA width (32 bits, the OF default, for a driver that sets no mask;
the width a driver sets, the widest of those it chooses among with
driverSets.widths, or its compatible's match data) with driverSets naming
the call, file:line and function, and its IRQ name where the tree gives
one interrupt and the driver requests one under a literal name or the
device's name. A comment cites each fact; TODOs stay where the catalogue
does not know (a width computed at probe, a driver it cannot read, a
compatible no driver lists). The board gets kernel: SERIES, which vet
then checks it against.

FILE.dts is compiled as kbuild compiles it (cpp, then dtc -@) with its own
directory, each -I DIR, and with --dts-root the kernel tree's
scripts/dtc/include-prefixes as include paths; its dts: is then its path
in that tree. FILE.dtb is read as it is (labels only if built with dtc -@).
The draft is formatted as cue fmt formats it and is the same for the same
tree. DIR gets a cue.mod/module.cue (module boardc.dev/boards) if it has
none. The board's existing files are not overwritten without --force.

A second board on an SoC that has its package already (DIR/soc/<soc>/,
--soc names it): import writes the board's package only, importing the
SoC as it is and disabling the SoC's masters whose nodes the tree
disables, and prints on standard error where the tree disagrees with the
SoC: its DMA masters the SoC does not describe, and the base-tree checks
(BC06xx) of the new board against the tree. The SoC is not changed; the
exit status is 0 once the board is written, 1 when it does not load with
the SoC. --replace-soc writes the SoC's draft over it instead.`,
		Example: `  boardc import --dts-root ~/src/linux -o boards ~/src/linux/arch/arm64/boot/dts/marvell/armada-3720-espressobin.dts
  boardc import -o boards --board myboard -I include board.dtb
  boardc import -o boards --soc armada37xx board2.dts    # onto boards/soc/armada37xx
  boardc vet boards/myboard`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			in := args[0]
			if root == "" {
				root = os.Getenv(basetree.RootEnv)
			}
			var (
				tree *basetree.Tree
				err  error
				dts  string
			)
			source := filepath.ToSlash(in)
			switch filepath.Ext(in) {
			case ".dtb":
				tree, err = basetree.ReadFile(in)
			case ".dts":
				comp := basetree.Compile{DTS: in, Include: include, Annotate: true}
				if root != "" {
					if rel, ok := under(root, in); ok {
						comp.Root, comp.DTS, dts, source = root, rel, rel, rel
					}
				}
				tree, err = comp.Build(context.Background())
			default:
				return usageError(cmd, fmt.Errorf("%s: want a .dts or a .dtb", in))
			}
			if err != nil {
				// The tree is the input: one that cannot be read or
				// built is a description error, as a BOARD that cannot
				// be read is for vet.
				d := inputDiag(in, err)
				d.Code = diag.BaseTree.ID
				if err := (diag.List{d}).WriteText(cmd.ErrOrStderr()); err != nil {
					return err
				}
				return exitError{exitDiags}
			}
			module, modFile, err := moduleOf(outDir)
			if err != nil {
				return err
			}
			cat, err := importCatalog(series)
			if err != nil {
				return usageError(cmd, err)
			}
			d, err := draft.Generate(tree, draft.Options{Source: source, DTS: dts, Board: board, SoC: soc, Module: module, Kernel: cat})
			if err != nil {
				return usageError(cmd, err)
			}
			socPath := filepath.Join(outDir, filepath.FromSlash(d.Files[0].Path))
			if _, err := os.Stat(socPath); err == nil && !replaceSoC {
				return importBoard(cmd, d, tree, outDir, socPath, force)
			}
			files := d.Files
			if modFile != nil {
				files = append([]draft.File{{Path: "cue.mod/module.cue", Data: modFile}}, files...)
			}
			var out [][]byte
			for _, f := range files {
				data := f.Data
				if strings.HasSuffix(f.Path, ".cue") {
					if data, err = load.Format(f.Data); err != nil {
						return fmt.Errorf("formatting %s: %v", f.Path, err)
					}
				}
				path := filepath.Join(outDir, filepath.FromSlash(f.Path))
				if _, err := os.Stat(path); err == nil && !force && path != socPath {
					return fmt.Errorf("%s exists: not overwritten (use --force)", path)
				}
				out = append(out, data)
			}
			for i, f := range files {
				path := filepath.Join(outDir, filepath.FromSlash(f.Path))
				if err := outset.WriteFile(path, out[i]); err != nil {
					return ioError(cmd, err)
				}
				fmt.Fprintf(cmd.OutOrStdout(), "wrote %s\n", path)
			}
			return nil
		},
	}
	c.Flags().StringVarP(&outDir, "out", "o", ".", "the CUE module `DIR` to write the draft into")
	c.Flags().StringArrayVarP(&include, "include", "I", nil, "add `DIR` to the include path of a .dts (repeatable)")
	c.Flags().StringVar(&root, "dts-root", "", "the Linux tree `DIR` the .dts is in (default $"+basetree.RootEnv+")")
	c.Flags().StringVar(&board, "board", "", "the board's `name` (default: the file's stem)")
	c.Flags().StringVar(&soc, "soc", "", "the SoC's `name` (default: from the root's second compatible)")
	c.Flags().StringVar(&series, "kernel", "", "the Linux `series` whose driver-facts catalogue fills the draft (default: the newest boardc ships"+shippedSeries()+")")
	c.Flags().BoolVar(&force, "force", false, "overwrite the board's existing files")
	c.Flags().BoolVar(&replaceSoC, "replace-soc", false, "write the SoC's draft over an existing SoC package instead of importing it")
	return c
}

// under returns file's path relative to root, with forward slashes, and
// whether it is inside root.
func under(root, file string) (string, bool) {
	ar, err1 := filepath.Abs(root)
	af, err2 := filepath.Abs(file)
	if err1 != nil || err2 != nil {
		return "", false
	}
	rel, err := filepath.Rel(ar, af)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// moduleOf returns the module path of the CUE module at dir, without its
// major version, and nil; or, where dir has no cue.mod/module.cue, the
// project's module path and the file to create.
func moduleOf(dir string) (string, []byte, error) {
	path, err := boardc.ModulePath(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return "boardc.dev/boards", []byte("module: \"boardc.dev/boards@v0\"\nlanguage: version: \"v0.17.0\"\n"), nil
	}
	return path, nil, err
}

// importCatalog returns the catalogue of series, the default one for "",
// nil when boardc ships none; a series it has none of is an error
// naming those it has.
func importCatalog(series string) (*kernel.Catalog, error) {
	if series == "" {
		series = kernel.Default()
		if series == "" {
			return nil, nil
		}
	}
	if !slices.Contains(kernel.Series(), series) {
		has := strings.Join(kernel.Series(), ", ")
		if has == "" {
			has = "none"
		}
		return nil, fmt.Errorf("--kernel %s: boardc has no driver-facts catalogue for it (boardc has %s)", series, has)
	}
	return kernel.Load(series)
}

// shippedSeries lists the series boardc ships catalogues of, for help.
func shippedSeries() string {
	if s := kernel.Series(); len(s) > 0 {
		return "; it has " + strings.Join(s, ", ")
	}
	return "; it has none"
}
