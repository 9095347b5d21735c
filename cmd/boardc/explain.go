package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"boardc.dev/boardc"
	"boardc.dev/boardc/explain"
)

func newExplain() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "explain [--json] BOARD WHAT",
		Short: "Trace an element, property, C symbol or runtime path back to the description",
		Long: `explain compiles BOARD in memory and prints where WHAT comes from: the CUE
facts behind it with their positions, what the checks reported about it,
and every generated line that came from it, as <board>/<file>:<line>.

WHAT is one of:
  an element, by its path in the description  soc.masters.crypto, policy.irqs[0],
                                              policy.sysctls."net.core.netdev_budget"
  a DMA master or bus, by key, label or path   crypto, /soc/bus@d0000000
  a DT property, alone or of one master        dma-coherent, crypto/dma-coherent
  a generated C symbol                         boardc_espressobin_dma_caps_marvell_armada_3700_neta
  a runtime path, IRQ name or sysctl           /sys/class/net/eth0/queues/rx-0/rps_cpus

WHAT is resolved to elements through the board's description and the
names the outputs define or set (properties, symbols, paths); the
generated lines are those the outputs record as made from those
elements, as manifest.json lists them. For a master the facts are its
node, bus and that bus's coherency fact, DMA width, its own coherency
fact, IOMMU, IRQs and their placement, network devices, and the runtime
policy that names them.

Where the board is checked against a driver-facts catalogue (its kernel:,
else the newest series boardc ships), each master's driver is shown as
the catalogue has it: the driver, its probe function, what it does with
the DMA masks (none, fixed, choice, match-data, runtime, children,
unknown), the widths and the calls that set them, and its IRQ requests,
each with its file:line and function in that kernel.

--json prints the same as one JSON object: what, board, facts (pos, ref,
text), masters (key, coherence), drivers (master, kernel, version, name,
matched, bus, site, probe, bridge, dma, widths, reason, sets, irqs), checksRan, diagnostics (as --format=json
prints them), generated (file, line, text).

Exit status: 0 when something matched, 1 when WHAT matches nothing or the
board does not load, 2 usage error.`,
		Example: `  boardc explain boards/espressobin crypto
  boardc explain boards/espressobin soc.masters.crypto
  boardc explain boards/espressobin crypto/dma-coherent
  boardc explain boards/ls2088a-rdb dma-coherent
  boardc explain boards/espressobin boardc_espressobin_dma_caps_marvell_armada_3700_neta
  boardc explain boards/espressobin /sys/class/net/eth0/queues/rx-0/rps_cpus`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			comp, err := boardc.New()
			if err != nil {
				return err
			}
			r := comp.Compile(args[0], boardc.Options{})
			if r.Board == nil {
				if err := r.Diagnostics.WriteText(cmd.ErrOrStderr()); err != nil {
					return err
				}
				return exitError{exitDiags}
			}
			e := explain.Explain(r, args[1])
			switch {
			case e == nil:
				fmt.Fprintf(cmd.ErrOrStderr(), "boardc explain: nothing on board %s matches %q (not an element, master, bus, property, symbol, path, IRQ or sysctl it generates)\n", r.Board.Name, args[1])
				return exitError{exitDiags}
			case asJSON:
				return printJSON(cmd.OutOrStdout(), explainJSON(e))
			}
			return e.WriteText(cmd.OutOrStdout())
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the explanation as a JSON object")
	return c
}

// explainJSONOutput is the output of explain --json: the explanation,
// with its diagnostics as --format=json prints them.
type explainJSONOutput struct {
	What        string           `json:"what"`
	Board       string           `json:"board"`
	Facts       []explain.Fact   `json:"facts"`
	Masters     []explain.Master `json:"masters"`
	Drivers     []explain.Driver `json:"drivers,omitempty"`
	ChecksRan   int              `json:"checksRan"`
	Diagnostics []jsonDiag       `json:"diagnostics"`
	Generated   []explain.Line   `json:"generated"`
}

func explainJSON(e *explain.Explanation) explainJSONOutput {
	return explainJSONOutput{
		What: e.What, Board: e.Board, Facts: e.Facts, Masters: e.Masters, Drivers: e.Drivers,
		ChecksRan: e.ChecksRan, Diagnostics: jsonDiags(e.Diagnostics), Generated: e.Generated,
	}
}
