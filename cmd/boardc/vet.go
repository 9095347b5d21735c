package main

import "github.com/spf13/cobra"

func newVet() *cobra.Command {
	var f compileFlags
	c := &cobra.Command{
		Use:   "vet BOARD...",
		Short: "Check boards without writing anything",
		Long: `vet checks each BOARD, in parallel, and prints the diagnostics in argument
order, then a summary line per board on stderr, clean or not (-q leaves
it out for a clean board):

  boardc vet: espressobin: 0 errors, 0 warnings, 3 infos; 42 checks ran

A description whose errors are confined to some elements (a missing
field, a master without DMA widths) is still checked as far as it goes:
every such error is reported in one run, with the findings of every check
whose facts are there; the summary counts the checks that could not run
as skipped. Nothing is written.

` + baseHelp + `

` + boardRule,
		Example: `  boardc vet boards/ls2088a-rdb
  boardc vet ./boards/...
  boardc vet --format=json boards/espressobin
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
