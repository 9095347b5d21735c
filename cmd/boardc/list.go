package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"boardc.dev/boardc"
	"boardc.dev/boardc/compiler/diag"
)

// listEntry is one board as list --json prints it. A board that does not
// load has no board or SoC name but its error diagnostics.
type listEntry struct {
	Dir         string     `json:"dir"`
	Board       string     `json:"board,omitempty"`
	SoC         string     `json:"soc,omitempty"`
	Diagnostics []jsonDiag `json:"diagnostics,omitempty"`
}

func newList() *cobra.Command {
	// Only errors matter here: list reports the boards that do not load.
	f := compileFlags{format: "text", quiet: true}
	var asJSON bool
	c := &cobra.Command{
		Use:   "list [--json] [DIR]",
		Short: "List the boards below DIR with their board and SoC names",
		Long: `list finds the boards at or below DIR (default: the current directory),
loads each, and prints one line per board: its directory, its board name
and its SoC name. A board that does not load is reported with its
diagnostics, and list then exits 1.

--json prints a JSON array instead, one object per board: {"dir",
"board", "soc"}, or {"dir", "diagnostics"} (as --format=json prints them)
for a board that does not load.

` + boardRule,
		Example: `  boardc list boards
  boardc list`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			paths, err := boardc.Discover(dir)
			if err != nil {
				if err := (diag.List{inputDiag(dir, err)}).WriteText(cmd.ErrOrStderr()); err != nil {
					return err
				}
				return exitError{exitDiags}
			}
			if len(paths) == 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "no board below %s\n", dir)
				return exitError{exitDiags}
			}
			results, err := compileAll(paths, f.options())
			if err != nil {
				return err
			}
			if asJSON {
				return listJSON(cmd, paths, results)
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
				if err := f.print(cmd.OutOrStdout(), cmd.ErrOrStderr(), cmd.Name(), paths, results); err != nil {
					return err
				}
				return exitError{exitDiags}
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the boards as a JSON array")
	return c
}

// listJSON prints the boards as list --json does, and fails like list
// when any does not load.
func listJSON(cmd *cobra.Command, paths []string, results []*boardc.Result) error {
	entries := make([]listEntry, len(results))
	failed := false
	for i, r := range results {
		entries[i].Dir = paths[i]
		if r.Board == nil {
			failed = true
			var errs diag.List
			for _, d := range r.Diagnostics {
				if d.Severity == diag.Error {
					errs = append(errs, d)
				}
			}
			entries[i].Diagnostics = jsonDiags(errs)
			continue
		}
		entries[i].Board, entries[i].SoC = r.Board.Name, r.Board.SoC.Name
	}
	if err := printJSON(cmd.OutOrStdout(), entries); err != nil {
		return err
	}
	if failed {
		return exitError{exitDiags}
	}
	return nil
}
