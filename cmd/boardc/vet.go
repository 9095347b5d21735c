package main

import "github.com/spf13/cobra"

func newVet() *cobra.Command {
	var f compileFlags
	c := &cobra.Command{
		Use:   "vet BOARD...",
		Short: "Check boards without writing anything",
		Long: `vet checks each BOARD, in parallel, and prints the diagnostics in argument
order. Nothing is written.

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
	f.register(c)
	f.base.register(c)
	return c
}
