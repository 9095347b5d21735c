package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"boardc.dev/boardc"
	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/internal/outset"
	"boardc.dev/boardc/outputs"
	"boardc.dev/boardc/report"
)

// layoutProgram is the program that lays out a report's DOT as SVG; see
// cmd/boardc-layout.
const layoutProgram = "boardc-layout"

// reportLayoutHelp says where boardc finds the layout program.
const reportLayoutHelp = `The picture is laid out by Graphviz's dot layout, compiled to WebAssembly
and run in pure Go by the ` + layoutProgram + ` program (nothing else to install):
boardc looks for it in $BOARDC_LAYOUT, beside the boardc executable, then
on PATH. Install it with: go install boardc.dev/boardc/cmd/boardc-layout@latest`

func newReport() *cobra.Command {
	var (
		outDir string
		f      compileFlags
	)
	c := &cobra.Command{
		Use:   "report [-o DIR] BOARD...",
		Short: "Draw each board's topology into DIR/<board>/report.html",
		Long: `report checks each BOARD and writes a picture of it to DIR/<board>/:

  report.html   one self-contained page (it loads nothing): the picture, then
                tables of the masters, buses and CPUs, the diagnostics with
                their positions, and the description lines behind each
                output file
  topology.svg  the picture: memory, the bus tree with each bus's coherency
                fact and dma-ranges, each DMA master's coherency state and
                DMA reach against the top of RAM (a master that cannot reach
                all of it is drawn in red), and the DPIO portals, pinned
                IRQs and RPS/XPS steering drawn as edges to the CPUs of each
                cluster
  topology.dot  the picture as Graphviz DOT, before layout

A board of more than ` + strconv.Itoa(report.MaxDrawn) + ` DMA masters gets no picture (no topology.svg): its
layout would take minutes; the page says so, and keeps every table.

The board is checked as vet checks it, against the same base tree
(--dts-root, --dtb or $BOARDC_DTS_ROOT), so that the page lists the
diagnostics vet counts, infos included.

Nothing is written for a board with errors, and files whose content did
not change are left untouched. boardc build --report writes the same files
to DIR/<board>.report/. Give report a directory other than build's: boardc
diff and build --check count files in DIR/<board>/ that build did not
write as drift.

` + reportLayoutHelp + `

` + boardRule,
		Example: `  boardc report boards/espressobin
  boardc report -o report ./boards/...`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.validate(); err != nil {
				return usageError(cmd, err)
			}
			if err := checkOutDir(outDir); err != nil {
				return usageError(cmd, err)
			}
			results, err := compileArgs(cmd, args, &f)
			if err != nil {
				return err
			}
			write, err := makeReports(cmd, results, outDir, "", f.verbose)
			if err != nil {
				return err
			}
			// One lock over every board's set, as build takes.
			out, err := outset.Lock(outDir)
			if err != nil {
				return ioError(cmd, err)
			}
			defer out.Unlock()
			if err := write(out); err != nil {
				return ioError(cmd, err)
			}
			return nil
		},
	}
	c.Flags().StringVarP(&outDir, "out", "o", "report", "output directory; each board's report goes to DIR/<board>/")
	c.Flags().BoolVarP(&f.verbose, "verbose", "v", false, "also list info diagnostics (hidden by default, counted in the summary line) and the files written")
	f.register(c)
	// The same base tree as vet and build ($BOARDC_DTS_ROOT too), so
	// that the page lists the findings they count.
	f.base.register(c)
	return c
}

// reportFlag registers build's --report in c.
func reportFlag(c *cobra.Command, on *bool) {
	c.Flags().BoolVar(on, "report", false, "also draw each board's topology into DIR/<board>.report/ (see boardc report)")
	c.MarkFlagsMutuallyExclusive("check", "report")
}

// buildReports is build --report (when on): each board's report beside
// its outputs, in outDir/<board>.report/ (a board name holds no '.', so
// it is no board's directory, and boardc diff of DIR/<board>/ does not
// see it). It makes the reports before build writes anything, so that a
// failing layout writes nothing, and returns the function that writes
// them under the lock of outDir (one that does nothing when off).
func buildReports(cmd *cobra.Command, outDir string, results []*boardc.Result, on, verbose bool) (func(*outset.Out) error, error) {
	if !on {
		return func(*outset.Out) error { return nil }, nil
	}
	return makeReports(cmd, results, outDir, ".report", verbose)
}

// makeReports makes every board's report and returns the function that
// writes each, through outDir held under its lock, to
// outDir/<board><suffix>.
func makeReports(cmd *cobra.Command, results []*boardc.Result, outDir, suffix string, verbose bool) (func(*outset.Out) error, error) {
	// Each layout is a process of its own: up to GOMAXPROCS at once.
	files := make([][]outputs.File, len(results))
	errs := make([]error, len(results))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, r := range results {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			files[i], errs[i] = reportFiles(r)
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("%s: %w", results[i].Board.Name, err)
		}
		if b := results[i].Board; !report.Drawn(b) {
			fmt.Fprintf(cmd.ErrOrStderr(), "boardc report: %s: no picture: %d DMA masters, more than the %d laid out; the page keeps every table, and topology.dot can be laid out with boardc-layout\n",
				b.Name, len(b.SoC.Masters), report.MaxDrawn)
		}
	}
	return func(out *outset.Out) error {
		for i, r := range results {
			name := r.Board.Name + suffix
			ch, err := out.Write(name, files[i])
			if err != nil {
				return err
			}
			if verbose {
				for _, p := range ch.Written {
					fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s\n", filepath.Join(outDir, name, p))
				}
			}
		}
		return nil
	}, nil
}

// reportFiles makes a compiled board's report.
func reportFiles(r *boardc.Result) ([]outputs.File, error) {
	in := &report.Input{Board: r.Board, Diagnostics: r.Diagnostics, Outputs: report.OutputsOf(r.Manifest)}
	in.Source = readSources(r.Board)
	dot := report.DOT(in)
	var svg []byte
	if report.Drawn(r.Board) {
		var err error
		if svg, err = layoutSVG(dot); err != nil {
			return nil, err
		}
	}
	page, err := report.HTML(in, svg)
	if err != nil {
		return nil, err
	}
	files := []outputs.File{
		{Path: "report.html", Data: page},
		{Path: "topology.dot", Data: dot},
	}
	if svg != nil {
		files = append(files, outputs.File{Path: "topology.svg", Data: svg})
	}
	return files, nil
}

// readSources reads the board's description files, by their path
// relative to its CUE module root, for the page to quote. A file that
// cannot be read is left out: its lines are not quoted.
func readSources(b *ir.Board) map[string][]string {
	out := map[string][]string{}
	for _, f := range b.Sources {
		if data, err := os.ReadFile(f.Path); err == nil {
			out[f.Rel] = strings.Split(string(data), "\n")
		}
	}
	return out
}

// layoutSVG runs the layout program on dot.
func layoutSVG(dot []byte) ([]byte, error) {
	prog, err := findLayout()
	if err != nil {
		return nil, err
	}
	cache, done, err := layoutCache()
	if err != nil {
		return nil, err
	}
	defer done()
	cmd := exec.Command(prog)
	// The layout engine keeps its compiled WebAssembly in $TMPDIR: a
	// directory of this user's, so that another user's cache, which it
	// cannot read, does not make it fail.
	cmd.Env = append(os.Environ(), "TMPDIR="+cache)
	cmd.Stdin = bytes.NewReader(dot)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, fmt.Errorf("%s: %v: %s", prog, err, msg)
		}
		return nil, fmt.Errorf("%s: %v", prog, err)
	}
	return out.Bytes(), nil
}

// layoutCache returns the directory the layout program keeps its cache
// in: $XDG_CACHE_HOME/boardc (~/.cache/boardc), or where there is none a
// temporary directory that done removes.
func layoutCache() (dir string, done func(), err error) {
	if base, err := os.UserCacheDir(); err == nil {
		dir = filepath.Join(base, "boardc")
		if os.MkdirAll(dir, 0o700) == nil {
			return dir, func() {}, nil
		}
	}
	dir, err = os.MkdirTemp("", "boardc-layout")
	if err != nil {
		return "", nil, err
	}
	return dir, func() { os.RemoveAll(dir) }, nil
}

// findLayout returns the layout program: $BOARDC_LAYOUT, else
// boardc-layout beside this executable, else on PATH.
func findLayout() (string, error) {
	if p := os.Getenv("BOARDC_LAYOUT"); p != "" {
		return p, nil
	}
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), layoutProgram)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	p, err := exec.LookPath(layoutProgram)
	if err != nil {
		return "", errors.New(layoutProgram + " not found beside boardc nor on PATH; install it with: go install boardc.dev/boardc/cmd/boardc-layout@latest")
	}
	return p, nil
}
