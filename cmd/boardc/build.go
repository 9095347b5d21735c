package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"
)

func newBuild() *cobra.Command {
	var (
		outDir     string
		depFile    string
		depTargets []string
		check      bool
		withReport bool
		f          diagFlags
	)
	c := &cobra.Command{
		Use:   "build [-o DIR] [--depfile FILE] [--check] BOARD...",
		Short: "Check boards and write their outputs to DIR/<board>/",
		Long: `build checks each BOARD and writes its generated files to DIR/<board>/.

Nothing is written when a board has errors, and files whose content did not
change are left untouched (their modification time too). Each file is
written to a temporary file first and renamed into place. Boards are
compiled in parallel; diagnostics and files come out in argument order, as
one call per board would print and write them.

--depfile FILE writes a Make dependency file: every output of this call
depends on every CUE file loaded (and the module's cue.mod/module.cue),
with an empty rule per input so that make survives a deleted input. It is
rewritten only when its content changes. --depfile-target replaces the
outputs as targets, e.g. with a stamp file (gcc's -MT).

--check writes nothing: it prints a unified diff of every output in
DIR/<board>/ that differs from a fresh build and exits 1 on any drift
(see boardc diff).

` + boardRule,
		Example: `  boardc build boards/espressobin
  boardc build -o out boards/espressobin boards/mirabox
  boardc build -o out ./boards/...
  boardc build -o out --depfile out/espressobin.d boards/espressobin
  boardc build --check -o out ./boards/...
  boardc build --werror -o build/dt ./my-board/board.cue`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.validate(); err != nil {
				return usageError(cmd, err)
			}
			if len(depTargets) > 0 && depFile == "" {
				return usageError(cmd, fmt.Errorf("--depfile-target needs --depfile"))
			}
			results, err := compileArgs(cmd, args, &f)
			if err != nil {
				return err
			}
			if check {
				return reportDrift(cmd, outDir, results)
			}
			writeReports, err := buildReports(cmd, outDir, results, withReport, f.verbose)
			if err != nil {
				return err
			}
			for _, r := range results {
				dir := filepath.Join(outDir, r.Board.Name)
				written, err := writeFiles(dir, r.Files)
				if err != nil {
					return err
				}
				if f.verbose {
					for _, w := range written {
						fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s\n", w)
					}
				}
			}
			if err := writeReports(); err != nil {
				return err
			}
			if depFile != "" {
				wrote, err := writeIfChanged(depFile, depfile(outDir, depTargets, results))
				if err != nil {
					return err
				}
				if wrote && f.verbose {
					fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s\n", depFile)
				}
			}
			return nil
		},
	}
	c.Flags().StringVarP(&outDir, "out", "o", "out", "output directory; each board goes to DIR/<board>/")
	c.Flags().BoolVarP(&f.verbose, "verbose", "v", false, "list the files written")
	c.Flags().StringVar(&depFile, "depfile", "", "write a Make dependency file of the outputs on the CUE inputs to `FILE`")
	c.Flags().StringArrayVar(&depTargets, "depfile-target", nil, "use `TARGET` instead of the outputs as the depfile's target (repeatable)")
	c.Flags().BoolVar(&check, "check", false, "write nothing; print how DIR/<board>/ differs from a fresh build and exit 1 on drift")
	c.MarkFlagsMutuallyExclusive("check", "depfile")
	reportFlag(c, &withReport)
	f.register(c)
	return c
}
