package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"boardc.dev/boardc"
	"boardc.dev/boardc/internal/outset"
	"boardc.dev/boardc/outputs"
)

func newBuild() *cobra.Command {
	var (
		outDir     string
		depFile    string
		depTargets []string
		check      bool
		withReport bool
		f          compileFlags
	)
	c := &cobra.Command{
		Use:   "build [-o DIR] [--depfile FILE] [--check] BOARD...",
		Short: "Check boards and write their outputs to DIR/<board>/",
		Long: `build checks each BOARD and writes its generated files to DIR/<board>/.

Nothing is written when a board has errors. A board's files are swapped
in as a set: after a build, killed or not, DIR/<board>/ holds either the
previous set or the new one, and manifest.json lists exactly its files.
Files the previous manifest.json lists that the build no longer produces
are removed; files boardc did not write are left. Files whose content
did not change are left untouched (their modification time too).
Concurrent builds into one DIR take turns on a lock, DIR/.boardc.lock.
Boards are compiled in parallel; diagnostics and files come out in
argument order, as one call per board would print and write them. Two
BOARD directories declaring the same name are a usage error.

--depfile FILE writes a Make dependency file: every output of this call
depends on every CUE file loaded (and the module's cue.mod/module.cue),
on the directory of every package loaded (a new .cue file counts) and on
the boardc binary, with an empty rule per input so that make survives a
deleted input. It is rewritten only when its content changes.
--depfile-target replaces the outputs as targets, e.g. with a stamp file
(gcc's -MT).

Exit status: 0 success, 1 a description has errors (or, with --check, an
output differs), 2 usage error, 3 an I/O error writing the outputs (the
previous outputs are left as they were) or, with --check, reading them.

--check writes nothing: it prints a unified diff of every output in
DIR/<board>/ that differs from a fresh build and exits 1 on any drift
(see boardc diff).

` + boardRule,
		Example: `  boardc build boards/espressobin
  boardc build -o out boards/espressobin boards/mirabox
  boardc build -o out ./boards/...
  boardc build -o out --depfile out/espressobin.d boards/espressobin
  boardc build --check -o out ./boards/...
  boardc build --werror -o build/dt ./my-board/board.cue`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.validate(); err != nil {
				return usageError(cmd, err)
			}
			if len(depTargets) > 0 && depFile == "" {
				return usageError(cmd, fmt.Errorf("--depfile-target needs --depfile"))
			}
			if err := checkOutDir(outDir); err != nil {
				return usageError(cmd, err)
			}
			paths, results, err := compileBoards(cmd, args, &f)
			if err != nil {
				return err
			}
			results, err = distinctNames(paths, results)
			if err != nil {
				return usageError(cmd, err)
			}
			if check {
				return reportDrift(cmd, outDir, results, f.format != "text")
			}
			writeReports, err := buildReports(cmd, outDir, results, withReport, f.verbose)
			if err != nil {
				return err
			}
			// A build that changes nothing touches nothing, and so
			// needs no lock, unless an interrupted build left something
			// to recover: it succeeds on an OUT it cannot write.
			if !withReport && depFile == "" && outset.Settled(outDir) && allUnchanged(outDir, results) {
				return nil
			}
			// One lock over the sets and the depfile: concurrent builds
			// into outDir take turns.
			out, err := outset.Lock(outDir)
			if err != nil {
				return ioError(cmd, err)
			}
			defer out.Unlock()
			if err := writeOutputs(cmd, out, outDir, results, f.verbose); err != nil {
				return ioError(cmd, err)
			}
			if err := writeReports(out); err != nil {
				return ioError(cmd, err)
			}
			if depFile != "" {
				wrote, err := outset.WriteIfChanged(depFile, depfile(outDir, depTargets, results))
				if err != nil {
					return ioError(cmd, err)
				}
				if wrote && f.verbose {
					fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s\n", depFile)
				}
			}
			return nil
		},
	}
	c.Flags().StringVarP(&outDir, "out", "o", "out", "output directory; each board goes to DIR/<board>/")
	c.Flags().BoolVarP(&f.verbose, "verbose", "v", false, "also list info diagnostics (hidden by default, counted in the summary line) and the files written")
	c.Flags().StringVar(&depFile, "depfile", "", "write a Make dependency file of the outputs on the CUE inputs to `FILE`")
	c.Flags().StringArrayVar(&depTargets, "depfile-target", nil, "use `TARGET` instead of the outputs as the depfile's target (repeatable)")
	c.Flags().BoolVar(&check, "check", false, "write nothing; print how DIR/<board>/ differs from a fresh build and exit 1 on drift")
	c.MarkFlagsMutuallyExclusive("check", "depfile")
	reportFlag(c, &withReport)
	f.register(c)
	f.base.register(c)
	return c
}

// checkOutDir rejects an -o that names no directory: empty, "-" (which
// reads as stdout, where a set of files cannot go), or an existing file
// that is not a directory.
func checkOutDir(dir string) error {
	switch dir {
	case "":
		return fmt.Errorf("-o: empty output directory")
	case "-":
		return fmt.Errorf("-o -: the outputs are a directory of files and cannot go to stdout; name a directory (./- for one named -)")
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return fmt.Errorf("-o %s: not a directory", dir)
	}
	return nil
}

// distinctNames drops a board named twice from one directory (dir and
// dir/board.cue are one board when that file is the whole package: the
// outputs are the same) and is an error when two BOARDs declare the same
// name otherwise: both would write DIR/<name>/.
func distinctNames(paths []string, results []*boardc.Result) ([]*boardc.Result, error) {
	type first struct {
		path, dir string
		r         *boardc.Result
	}
	seen := map[string]first{}
	var out []*boardc.Result
	for i, r := range results {
		dir := boardDir(paths[i])
		if f, ok := seen[r.Board.Name]; ok {
			if f.dir == dir && sameFiles(f.r.Files, r.Files) {
				continue
			}
			return nil, fmt.Errorf("%s and %s both declare name %q: one would overwrite the other's outputs", f.path, paths[i], r.Board.Name)
		}
		seen[r.Board.Name] = first{paths[i], dir, r}
		out = append(out, r)
	}
	return out, nil
}

// sameFiles reports whether a and b are the same files, byte for byte.
func sameFiles(a, b []outputs.File) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Path != b[i].Path || !bytes.Equal(a[i].Data, b[i].Data) {
			return false
		}
	}
	return true
}

// boardDir returns the absolute directory of a BOARD argument: the
// argument itself, or the directory of a .cue file.
func boardDir(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = filepath.Clean(path)
	}
	if fi, err := os.Stat(abs); err == nil && !fi.IsDir() {
		return filepath.Dir(abs)
	}
	return abs
}

// writeOutputs writes the set of each result to outDir/<board>/ through
// out, outDir held under its lock, listing what changed when verbose.
func writeOutputs(cmd *cobra.Command, out *outset.Out, outDir string, results []*boardc.Result, verbose bool) error {
	for _, r := range results {
		ch, err := out.Write(r.Board.Name, r.Files)
		if err != nil {
			return err
		}
		if verbose {
			dir := filepath.Join(outDir, r.Board.Name)
			for _, p := range ch.Written {
				fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s\n", filepath.Join(dir, p))
			}
			for _, p := range ch.Removed {
				fmt.Fprintf(cmd.ErrOrStderr(), "removed %s\n", filepath.Join(dir, p))
			}
		}
	}
	return nil
}

// allUnchanged reports whether every board's set in outDir already holds
// exactly its files.
func allUnchanged(outDir string, results []*boardc.Result) bool {
	for _, r := range results {
		if !outset.Unchanged(outDir, r.Board.Name, r.Files) {
			return false
		}
	}
	return true
}
