package main

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/spf13/cobra"

	"boardc.dev/boardc/schema"
)

// versionInfo is what boardc version prints; its JSON form is the
// output of version --json.
type versionInfo struct {
	Boardc string `json:"boardc"`
	Schema int    `json:"schema"`
	CUE    string `json:"cue"`
}

// currentVersion reads boardc's and CUE's versions from the build info.
func currentVersion() versionInfo {
	v := versionInfo{Boardc: "(devel)", Schema: schema.Version, CUE: "unknown"}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			v.Boardc = bi.Main.Version
		}
		for _, d := range bi.Deps {
			if d.Path == "cuelang.org/go" {
				v.CUE = d.Version
			}
		}
	}
	return v
}

// text is the version as boardc version and boardc --version print it.
func (v versionInfo) text() string {
	return fmt.Sprintf("boardc %s\nschema v%d\ncuelang.org/go %s\n", v.Boardc, v.Schema, v.CUE)
}

func newVersion() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "version [--json]",
		Short: "Print boardc's version, the schema version and the CUE version",
		Long: `version prints boardc's version, the schema version descriptions are
checked against, and the version of CUE it is built with; boardc --version
prints the same. --json prints {"boardc": ..., "schema": N, "cue": ...}.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v := currentVersion()
			if asJSON {
				return printJSON(cmd.OutOrStdout(), v)
			}
			_, err := io.WriteString(cmd.OutOrStdout(), v.text())
			return err
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the versions as a JSON object")
	return c
}

// printJSON writes v as indented JSON and a newline, with <, > and &
// as they are.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
