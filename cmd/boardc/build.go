package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"boardc.dev/boardc/compiler"
)

func newBuild() *cobra.Command {
	var (
		outDir string
		f      diagFlags
	)
	c := &cobra.Command{
		Use:   "build [-o DIR] BOARD...",
		Short: "Check boards and write their outputs to DIR/<board>/",
		Long: `build checks each BOARD and writes its generated files to DIR/<board>/.

Nothing is written for a board with errors, and files whose content did not
change are left untouched (their modification time too). Each file is
written to a temporary file first and renamed into place.`,
		Example: `  boardc build boards/espressobin
  boardc build -o out boards/espressobin boards/mirabox
  boardc build --werror -o build/dt ./my-board/board.cue`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.validate(); err != nil {
				return usageError(cmd, err)
			}
			comp, err := compiler.New()
			if err != nil {
				return err
			}
			var results []*compiler.Result
			failed := false
			for _, a := range args {
				r := comp.Compile(a, f.options())
				results = append(results, r)
				failed = failed || r.Diagnostics.HasErrors()
			}
			if err := f.print(cmd.OutOrStdout(), cmd.ErrOrStderr(), results); err != nil {
				return err
			}
			if failed {
				return exitError{exitDiags}
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
			return nil
		},
	}
	c.Flags().StringVarP(&outDir, "out", "o", "out", "output directory; each board goes to DIR/<board>/")
	c.Flags().BoolVarP(&f.verbose, "verbose", "v", false, "list the files written")
	f.register(c)
	return c
}

func newVet() *cobra.Command {
	var f diagFlags
	c := &cobra.Command{
		Use:   "vet BOARD...",
		Short: "Check boards without writing anything",
		Example: `  boardc vet boards/ls2088a-rdb
  boardc vet --format=json boards/espressobin`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.validate(); err != nil {
				return usageError(cmd, err)
			}
			comp, err := compiler.New()
			if err != nil {
				return err
			}
			var results []*compiler.Result
			failed := false
			for _, a := range args {
				r := comp.Compile(a, f.options())
				results = append(results, r)
				failed = failed || r.Diagnostics.HasErrors()
			}
			if err := f.print(cmd.OutOrStdout(), cmd.ErrOrStderr(), results); err != nil {
				return err
			}
			if failed {
				return exitError{exitDiags}
			}
			return nil
		},
	}
	f.register(c)
	return c
}
