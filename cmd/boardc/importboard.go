package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"boardc.dev/boardc"
	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/draft"
	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/compiler/load"
	"boardc.dev/boardc/internal/outset"
)

// importBoard is import onto an SoC package that exists (socPath): it
// writes the board's package only, importing the SoC as it is, and prints
// where the tree disagrees with the SoC: the base-tree checks of the new
// board against the tree (BC06xx), and the tree's DMA masters the SoC does
// not describe. Disagreements are printed, not fixed: the SoC is not
// written, and the exit status is 0 once the board is written. force
// overwrites the board's file.
func importBoard(cmd *cobra.Command, d *draft.Draft, tree *basetree.Tree, outDir, socPath string, force bool) error {
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	boardDir := filepath.Join(outDir, d.Board)
	boardPath := filepath.Join(boardDir, "board.cue")
	if _, err := os.Stat(boardPath); err == nil && !force {
		return fmt.Errorf("%s exists: not overwritten (use --force)", boardPath)
	}
	c, err := boardc.New()
	if err != nil {
		return err
	}
	base := boardc.Options{BaseTree: func(*ir.Board) (*basetree.Tree, error) { return tree, nil }}
	// First without the SoC's keys, to read them; then with them.
	r, written, err := writeBoard(cmd, c, d, nil, nil, boardDir, base)
	if err != nil {
		return err
	}
	if r.Board == nil {
		// The SoC does not load yet (a draft still missing its DMA
		// widths): the board disables masters under the draft's keys,
		// and nothing is compared.
		if err := writeFormatted(cmd, boardPath, d.Files[1].Data); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s\n", boardPath)
		fmt.Fprintf(stderr, "%s exists: wrote the board only, importing it; the board does not load with it yet, so the tree was not compared with it (boardc vet %s says why)\n", socPath, boardDir)
		return nil
	}
	if r, _, err = writeBoard(cmd, c, d, &r.Board.SoC, written, boardDir, base); err != nil {
		return err
	}
	if r.Board == nil {
		return fmt.Errorf("%s: does not load with the SoC's keys", boardPath)
	}
	fmt.Fprintf(stdout, "wrote %s\n", boardPath)
	var found diag.List
	for _, dg := range r.Diagnostics {
		if strings.HasPrefix(dg.Code, "BC06") {
			found = append(found, dg)
		}
	}
	unlisted := d.Unlisted(&r.Board.SoC)
	if len(found) == 0 && len(unlisted) == 0 {
		fmt.Fprintf(stderr, "%s exists: wrote the board only, importing it; the tree agrees with it\n", socPath)
		return nil
	}
	fmt.Fprintf(stderr, "%s exists: wrote the board only, importing it; where the tree disagrees with it (not changed):\n", socPath)
	for _, u := range unlisted {
		state := ""
		if !u.Enabled {
			state = ", disabled on this board"
		}
		fmt.Fprintf(stderr, "%s: the tree's DMA master %s is not in soc.masters (a draft keys it %s%s)\n", socPath, u.Path, u.Key, state)
	}
	if len(found) > 0 {
		return found.WriteText(stderr)
	}
	return nil
}

// writeBoard writes the board's file keyed by soc (see draft.BoardOn),
// unless it is prev, and compiles the board.
func writeBoard(cmd *cobra.Command, c *boardc.Compiler, d *draft.Draft, soc *ir.SoC, prev []byte, boardDir string, opts boardc.Options) (*boardc.Result, []byte, error) {
	src := d.BoardOn(soc).Data
	if !bytes.Equal(src, prev) {
		if err := writeFormatted(cmd, filepath.Join(boardDir, "board.cue"), src); err != nil {
			return nil, nil, err
		}
	}
	return c.Compile(boardDir, opts), src, nil
}

// writeFormatted writes a CUE file formatted as cue fmt formats it.
func writeFormatted(cmd *cobra.Command, path string, src []byte) error {
	data, err := load.Format(src)
	if err != nil {
		return fmt.Errorf("formatting %s: %v", path, err)
	}
	if err := outset.WriteFile(path, data); err != nil {
		return ioError(cmd, err)
	}
	return nil
}
