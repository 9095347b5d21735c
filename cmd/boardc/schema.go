package main

import (
	"github.com/spf13/cobra"

	"boardc.dev/boardc/schema"
)

func newSchema() *cobra.Command {
	return &cobra.Command{
		Use:   "schema",
		Short: "Print the embedded CUE schema",
		Long: `schema prints the CUE schema every description is checked against.
Save it to validate a description with cue alone:

  boardc schema > boardc.cue
  cue vet -c -d '#Board' boardc.cue board.cue`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := cmd.OutOrStdout().Write(schema.Source)
			return err
		},
	}
}
