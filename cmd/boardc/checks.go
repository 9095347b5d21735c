package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"boardc.dev/boardc/compiler/check"
)

func newChecks() *cobra.Command {
	return &cobra.Command{
		Use:   "checks [CODE|NAME]",
		Short: "List every diagnostic code, the loader's and the semantic checks', or explain one",
		Example: `  boardc checks
  boardc checks BC0104
  boardc checks coherency-opt-out`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			w := cmd.OutOrStdout()
			if len(args) == 1 {
				c, ok := check.Lookup(args[0])
				if !ok {
					return usageError(cmd, fmt.Errorf("no code or check %q (boardc checks lists them)", args[0]))
				}
				fmt.Fprintf(w, "%s %s (%s)\n\n%s\n", c.ID, c.Name, c.Severity, wrap(c.Doc, 76))
				return nil
			}
			for _, c := range check.Codes() {
				fmt.Fprintf(w, "%s  %-30s %-7s\n", c.ID, c.Name, c.Severity)
				fmt.Fprintf(w, "%s\n\n", indent(wrap(c.Doc, 70), "        "))
			}
			return nil
		},
	}
}

// wrap breaks text into lines of at most width runes at spaces.
func wrap(text string, width int) string {
	var b strings.Builder
	n := 0
	for i, w := range strings.Fields(text) {
		if i > 0 {
			if n+1+len(w) > width {
				b.WriteByte('\n')
				n = 0
			} else {
				b.WriteByte(' ')
				n++
			}
		}
		b.WriteString(w)
		n += len(w)
	}
	return b.String()
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}
