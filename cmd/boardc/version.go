package main

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"

	"boardc.dev/boardc/schema"
)

func newVersion() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print boardc's version, the schema version and the CUE version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v, cueV := "(devel)", "unknown"
			if bi, ok := debug.ReadBuildInfo(); ok {
				if bi.Main.Version != "" {
					v = bi.Main.Version
				}
				for _, d := range bi.Deps {
					if d.Path == "cuelang.org/go" {
						cueV = d.Version
					}
				}
			}
			fmt.Fprintf(cmd.OutOrStdout(), "boardc %s\nschema v%d\ncuelang.org/go %s\n", v, schema.Version, cueV)
			return nil
		},
	}
}
