package main

import (
	"fmt"
	"sort"

	"github.com/spf13/cobra"

	"boardc.dev/boardc/compiler/load"
	"boardc.dev/boardc/internal/outset"
)

func newMigrate() *cobra.Command {
	var dryRun bool
	c := &cobra.Command{
		Use:   "migrate [--dry-run] BOARD...",
		Short: "Rewrite descriptions written for schema version 1 to the current version",
		Long: `migrate rewrites each BOARD, written for schema version 1, to the current
schema version, in place, in the files that state what changes (the
board's own, or an SoC package it imports):

  - a coherent bus whose coherency leaves masters out gets masters: "all",
    what version 1 read then (version 2 requires the field on a coherent
    bus; "verified", the safe choice where only some masters are known
    coherent, is a decision about the hardware that migrate does not make
    for you);
  - schema: 1 becomes the current version.

Each change is printed as file:line. A changed file is formatted as cue fmt
formats it; the others are not touched. A changed file is rewritten where it
lies: through a symbolic link to its target (the link stays), with its mode
and, where allowed, its owner; a file with several hard links in place, so
that every name sees the change. --dry-run prints the changes and writes
nothing. Run boardc vet afterwards.

` + boardRule,
		Example: `  boardc migrate boards/my-board
  boardc migrate --dry-run ./boards/...`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dirs, err := expandArgs(cmd, args)
			if err != nil {
				return err
			}
			l, err := load.New()
			if err != nil {
				return err
			}
			failed := false
			for _, dir := range dirs {
				ms, ds := l.Migrate(dir)
				if len(ds) > 0 {
					if err := ds.WriteText(cmd.ErrOrStderr()); err != nil {
						return err
					}
					failed = true
					continue
				}
				files := make([]string, 0, len(ms))
				for file := range ms {
					files = append(files, file)
				}
				sort.Strings(files)
				for _, file := range files {
					for _, ch := range ms[file].Changes {
						fmt.Fprintln(cmd.OutOrStdout(), ch)
					}
					if !dryRun {
						if err := outset.Rewrite(file, ms[file].Data); err != nil {
							return ioError(cmd, err)
						}
					}
				}
			}
			if failed {
				return exitError{exitDiags}
			}
			return nil
		},
	}
	c.Flags().BoolVarP(&dryRun, "dry-run", "n", false, "print the changes, write nothing")
	return c
}
