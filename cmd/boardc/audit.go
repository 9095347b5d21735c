package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"boardc.dev/boardc/audit"
	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/internal/conform"
)

func newAudit() *cobra.Command {
	var (
		root, corpus, format, out, series, failOn string
		jobs                                      int
		verbose                                   bool
	)
	c := &cobra.Command{
		Use:   "audit [--dts-root DIR | --corpus TARBALL] [BOARD|PATTERN|FILE.dtb]...",
		Short: "Find DMA coherency and bounce-buffer problems in upstream device trees",
		Long: `audit compiles every board of a kernel tree (or the boards named, or .dtb
files) and reports, ranked, the DMA problems the SoC facts and the
driver-facts catalogue show:

  coherency                  a master without dma-coherent on an interconnect
                             the SoC facts say is I/O-coherent for it (error)
  coherency-noncoherent-bus  dma-coherent under a bus that does not snoop
  bounce                     a master whose DMA reach (its driver's mask,
                             narrowed by dma-ranges as of_dma_configure_id()
                             does) leaves RAM out, with no iommus: streaming
                             DMA there bounces through swiotlb (warning; a
                             note when the tree leaves the RAM size to the
                             bootloader, saying which sizes trigger it)
  dma-ranges                 dma-ranges that cannot be decoded with the cell
                             counts in force, or with overlapping windows
  coherency-sibling          the same driver's device dma-coherent on another
                             SoC of the family, not here (note)

Each finding names the board, the node, where it is written upstream
(file:line of its compatible), its evidence (the device-tree lines, the
driver fact with file:line, the SoC fact with its source) and the change
to make. The SoC facts and the rules are in docs/audit.md. --format=json
writes them as data, --format=sarif as a SARIF 2.1.0 log with one rule per
class, each result located at the node's line in the upstream .dts/.dtsi;
--format=html as one self-contained page.

With --dts-root DIR, BOARD is a .dts relative to DIR/arch/arm64/boot/dts
("marvell/armada-3720-espressobin.dts"), a directory there ("marvell/")
or a pattern ("marvell/armada-37*"); no BOARD means every board. --corpus
TARBALL extracts the upstream corpus tarball (into $BOARDC_CORPUS_CACHE,
else a directory under $TMPDIR, reused) and audits it as a kernel tree.
FILE.dtb is read as it is (no upstream positions).

Exit status: 0 when the audit ran, whatever it found, unless --fail-on
names a severity (error, warning, note) and a finding is at or above it:
then 1. 1 also when a BOARD matches nothing; 2 usage; 3 writing -o.`,
		Example: `  boardc audit --corpus linux-v7.1-dts-arm64.tar.gz
  boardc audit --dts-root ~/src/linux marvell/armada-37*
  boardc audit --dts-root ~/src/linux --format=json -o audit.json
  boardc audit board.dtb`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "text" && format != "json" && format != "sarif" && format != "html" {
				return usageError(cmd, fmt.Errorf("--format %q: want text, json, sarif or html", format))
			}
			if failOn != "" && failOn != "error" && failOn != "warning" && failOn != "note" {
				return usageError(cmd, fmt.Errorf("--fail-on %q: want error, warning or note", failOn))
			}
			if root != "" && corpus != "" {
				return usageError(cmd, fmt.Errorf("--dts-root and --corpus exclude each other"))
			}
			if corpus != "" {
				cp, err := conform.Open(corpus)
				if err != nil {
					fmt.Fprintf(cmd.ErrOrStderr(), "boardc audit: %v\n", err)
					return exitError{exitDiags}
				}
				root = cp.Root
			}
			if root == "" {
				root = os.Getenv(basetree.RootEnv)
			}
			needTree := len(args) == 0
			for _, a := range args {
				needTree = needTree || !strings.HasSuffix(a, ".dtb")
			}
			if needTree && root == "" {
				fmt.Fprintf(cmd.ErrOrStderr(), "boardc audit: no kernel tree: give --dts-root, --corpus or $%s\n", basetree.RootEnv)
				return exitError{exitDiags}
			}
			srcs, err := audit.Select(root, args)
			if err != nil {
				fmt.Fprintf(cmd.ErrOrStderr(), "boardc audit: %v\n", err)
				return exitError{exitDiags}
			}
			o := audit.Options{Kernel: series, Workers: jobs}
			if verbose {
				o.Progress = cmd.ErrOrStderr()
			}
			rep, err := audit.Run(srcs, o)
			if err != nil {
				fmt.Fprintf(cmd.ErrOrStderr(), "boardc audit: %v\n", err)
				return exitError{exitUsage}
			}
			var b bytes.Buffer
			switch format {
			case "json":
				err = rep.WriteJSON(&b)
			case "sarif":
				err = rep.SARIF("boardc", currentVersion().Boardc, root).Write(&b)
			case "html":
				err = rep.WriteHTML(&b)
			default:
				err = rep.WriteText(&b)
			}
			if err != nil {
				return err
			}
			if out == "" || out == "-" {
				_, err = cmd.OutOrStdout().Write(b.Bytes())
			} else {
				err = writeAtomic(out, b.Bytes())
			}
			if err != nil {
				return ioError(cmd, err)
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "%s", strings.TrimSuffix(rep.Summary(), "\n")+fmt.Sprintf(" in %.1fs\n", rep.Wall.Seconds()))
			if failOn != "" {
				limit := map[string]int{"error": 0, "warning": 1, "note": 2}[failOn]
				for _, f := range rep.Findings {
					if map[audit.Severity]int{audit.Error: 0, audit.Warning: 1, audit.Note: 2}[f.Severity] <= limit {
						return exitError{exitDiags}
					}
				}
			}
			return nil
		},
	}
	c.Flags().StringVar(&root, "dts-root", "", "kernel tree whose arch/arm64/boot/dts boards are audited (default $"+basetree.RootEnv+")")
	c.Flags().StringVar(&corpus, "corpus", "", "the upstream corpus tarball, audited as a kernel tree")
	c.Flags().StringVar(&format, "format", "text", "output format: text, json, sarif or html")
	c.Flags().StringVarP(&out, "output", "o", "", "write the report to this file (default standard output)")
	c.Flags().StringVar(&series, "kernel", "", "Linux series of the driver facts (default the newest shipped)")
	c.Flags().StringVar(&failOn, "fail-on", "", "exit 1 when a finding is at or above this severity: error, warning, note")
	c.Flags().IntVarP(&jobs, "jobs", "j", 0, "boards compiled at once (default the CPUs)")
	c.Flags().BoolVarP(&verbose, "verbose", "v", false, "one progress line per board on standard error")
	return c
}

// writeAtomic writes data to name through a temporary file renamed into
// place, so that a failed write leaves the previous file.
func writeAtomic(name string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(name), ".audit-*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err2 := f.Close(); err == nil {
		err = err2
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
