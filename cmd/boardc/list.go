package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"
)

func newList() *cobra.Command {
	// Only errors matter here: list reports the boards that do not load.
	f := diagFlags{format: "text", quiet: true}
	c := &cobra.Command{
		Use:   "list [DIR]",
		Short: "List the boards below DIR with their board and SoC names",
		Long: `list finds the boards at or below DIR (default: the current directory),
loads each, and prints one line per board: its directory, its board name
and its SoC name. A board that does not load is reported with its
diagnostics, and list then exits 1.

` + boardRule,
		Example: `  boardc list boards
  boardc list`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			paths, err := findBoards(dir)
			if err != nil {
				return err
			}
			if len(paths) == 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "no board below %s\n", dir)
				return exitError{exitDiags}
			}
			results, err := compileAll(paths, f.options())
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 8, 2, ' ', 0)
			failed := false
			for i, r := range results {
				if r.Board == nil {
					failed = true
					fmt.Fprintf(tw, "%s\t?\t?\n", paths[i])
					continue
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\n", paths[i], r.Board.Name, r.Board.SoC.Name)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			if failed {
				if err := f.print(cmd.OutOrStdout(), cmd.ErrOrStderr(), results); err != nil {
					return err
				}
				return exitError{exitDiags}
			}
			return nil
		},
	}
	return c
}
