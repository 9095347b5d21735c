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

// version is boardc's version as the build system that linked it names
// it: -ldflags "-X main.version=REVISION" (the Buildroot package and the
// Yocto recipe set the tag or commit they build). Empty in a plain go
// build, where the build info names the revision instead.
var version string

// currentVersion reads boardc's and CUE's versions from the build info.
func currentVersion() versionInfo {
	v := versionInfo{Boardc: "(devel)", Schema: schema.Version, CUE: "unknown"}
	bi, _ := debug.ReadBuildInfo()
	v.Boardc = boardcVersion(version, bi)
	if bi != nil {
		for _, d := range bi.Deps {
			if d.Path == "cuelang.org/go" {
				v.CUE = d.Version
			}
		}
	}
	return v
}

// boardcVersion names the revision boardc was built from: the version
// linked in (-X main.version), else the main module's version (go
// install boardc.dev/boardc/cmd/boardc@v1.2.3, or the pseudo-version the
// go command stamps from the checkout's commit), else the commit of the
// build info's vcs.revision, with "+dirty" when the checkout had
// uncommitted changes; "(devel)" only when nothing names one (a build
// with -buildvcs=false and no -X).
func boardcVersion(linked string, bi *debug.BuildInfo) string {
	if linked != "" {
		return linked
	}
	if bi == nil {
		return "(devel)"
	}
	if bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision":
			rev = s.Value
		case s.Key == "vcs.modified" && s.Value == "true":
			dirty = "+dirty"
		}
	}
	if rev == "" {
		return "(devel)"
	}
	return rev + dirty
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
prints the same. boardc's version names the revision it was built from:
the tag or commit the build system linked in (-ldflags "-X
main.version=..."), the module version (go install ...@v1.2.3, or the
pseudo-version the go command stamps from a checkout), or the checkout's
commit (vcs.revision, "+dirty" with uncommitted changes); "(devel)" when
the build recorded none. --json prints {"boardc": ..., "schema": N, "cue": ...}.`,
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
