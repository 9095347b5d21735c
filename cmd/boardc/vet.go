package main

import (
	"strings"

	"github.com/spf13/cobra"
)

func newVet() *cobra.Command {
	var f compileFlags
	c := &cobra.Command{
		Use:   "vet BOARD...",
		Short: "Check boards without writing anything",
		Long: `vet checks each BOARD, in parallel, and prints the diagnostics in argument
order, then a summary line per board on stderr, clean or not (-q leaves
it out for a clean board). Infos are counted there and listed only with
-v, in every --format:

  boardc vet: espressobin: 0 errors, 0 warnings, 3 infos (-v lists them); 42 checks ran

--sarif FILE writes a SARIF 2.1.0 log beside the text, its file URIs
relative to --source-root (default: the top of the Git work tree of the
first BOARD, else the working directory), as GitHub code scanning reads
them; docs/diagnostics.md says what it holds.

A description whose errors are confined to some elements (a missing
field, a master without DMA widths) is still checked as far as it goes:
every such error is reported in one run, with the findings of every check
whose facts are there; the summary counts the checks that could not run
as skipped. Nothing is written.

` + baseHelp + `

` + kernelHelp() + `

` + boardRule,
		Example: `  boardc vet boards/ls2088a-rdb
  boardc vet ./boards/...
  boardc vet --format=json boards/espressobin
  boardc vet --sarif boardc.sarif ./boards/...
  boardc vet --dts-root ~/src/linux boards/espressobin`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.validate(); err != nil {
				return usageError(cmd, err)
			}
			_, err := compileArgs(cmd, args, &f)
			return err
		},
	}
	f.always = true
	f.register(c)
	f.base.register(c)
	return c
}

// kernelHelp says which driver-facts catalogue a board is checked
// against.
func kernelHelp() string {
	return `A board's kernel: (a Linux series, "6.12") selects the driver-facts
catalogue, read from that kernel's sources, its masters are checked
against; a board that names none is checked against the newest boardc
ships (` + strings.TrimPrefix(shippedSeries(), "; ") + `). The driver checks BC0701-BC0704 compare each
master's DMA width, driverSets, driverSets.widths and IRQ names with what
its driver does, naming the fact (series, file:line function()); a
master whose compatible no driver lists is not checked. A series boardc
has no catalogue for is a BC0700 warning, and those checks do not run.`
}
