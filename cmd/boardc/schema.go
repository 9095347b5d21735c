package main

import (
	"github.com/spf13/cobra"

	"boardc.dev/boardc/compiler/load"
	"boardc.dev/boardc/schema"
)

func newSchema() *cobra.Command {
	var pkg string
	cmd := &cobra.Command{
		Use:   "schema",
		Short: "Print the embedded CUE schema",
		Long: `schema prints the CUE schema every description is checked against.
Save it to validate a description with cue alone:

  boardc schema > boardc.cue
  cue vet -c -d '#Board' boardc.cue board.cue

With --package, it prints the schema as a file of the board's package
that constrains the package's top-level fields, as boardc does when it
builds a board. Put in the board's directory, it lets cue check a board
whose package imports its SoC, in one process:

  boardc schema --package espressobin > boards/espressobin/zz_boardc.cue
  cue vet -c ./boards/espressobin

Unlike boardc, cue then does not reject a top-level field the schema does
not define.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			text := schema.Source
			if pkg != "" {
				var err error
				if text, err = load.SchemaFile(pkg); err != nil {
					return err
				}
			}
			_, err := cmd.OutOrStdout().Write(text)
			return err
		},
	}
	cmd.Flags().StringVar(&pkg, "package", "", "print the schema as a file of CUE package `name`")
	return cmd
}
