package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/rogpeppe/go-internal/diff"
	"github.com/spf13/cobra"

	"boardc.dev/boardc"
	"boardc.dev/boardc/internal/outset"
)

func newDiff() *cobra.Command {
	var (
		against string
		f       compileFlags
	)
	c := &cobra.Command{
		Use:   "diff [--against DIR] BOARD...",
		Short: "Show how the outputs in DIR/<board>/ differ from a fresh build",
		Long: `diff compiles each BOARD in memory, writes nothing, and prints a unified
diff (3 lines of context) from every file in DIR/<board>/ to what boardc
generates now, including generated files missing from DIR/<board>/ and
files there that boardc no longer generates. With --format=json, sarif or
github the diff goes to stderr, so that stdout holds the diagnostics
alone, one document a machine reads.

Exit status: 0 when every output is up to date, 1 when any differs or a
description has errors, 2 usage or internal error, 3 an I/O error
reading DIR.

` + boardRule,
		Example: `  boardc diff boards/espressobin
  boardc diff --against build/dt ./boards/...`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.validate(); err != nil {
				return usageError(cmd, err)
			}
			results, err := compileArgs(cmd, args, &f)
			if err != nil {
				return err
			}
			return reportDrift(cmd, against, results, f.format != "text")
		},
	}
	c.Flags().StringVar(&against, "against", "out", "output directory holding the committed outputs, DIR/<board>/")
	f.register(c)
	return c
}

// compileArgs expands the BOARD arguments, compiles them in parallel and
// prints their diagnostics. It returns exitError{exitDiags} when any
// description has errors.
func compileArgs(cmd *cobra.Command, args []string, f *compileFlags) ([]*boardc.Result, error) {
	_, results, err := compileBoards(cmd, args, f)
	return results, err
}

// compileBoards is compileArgs that also returns the expanded BOARD
// arguments, one per result.
func compileBoards(cmd *cobra.Command, args []string, f *compileFlags) ([]string, []*boardc.Result, error) {
	paths, err := expandArgs(cmd, args)
	if err != nil {
		return nil, nil, err
	}
	results, err := compileAll(paths, f.options())
	if err != nil {
		return nil, nil, err
	}
	failed := false
	for _, r := range results {
		failed = failed || r.Diagnostics.HasErrors()
	}
	if err := f.print(cmd.OutOrStdout(), cmd.ErrOrStderr(), cmd.Name(), paths, results); err != nil {
		var se sarifError
		if errors.As(err, &se) {
			return nil, nil, ioError(cmd, err)
		}
		return nil, nil, err
	}
	if failed {
		return nil, nil, exitError{exitDiags}
	}
	return paths, results, nil
}

// reportDrift prints the drift of every result against dir to stdout
// (stderr where machine formats own stdout) and a summary to stderr; it returns exitError{exitDiags} on drift and
// exitError{exitIO} when dir cannot be read.
func reportDrift(cmd *cobra.Command, dir string, results []*boardc.Result, machine bool) error {
	// A build writing into dir swaps sets under an exclusive lock: wait
	// for it rather than read half of a swap.
	if unlock, err := outset.RLock(dir); err == nil {
		defer unlock()
	}
	// With --format=json, sarif or github, stdout holds the diagnostics
	// alone, as one document a machine reads: the diff goes to stderr.
	w := cmd.OutOrStdout()
	if machine {
		w = cmd.ErrOrStderr()
	}
	n := 0
	for _, r := range results {
		k, err := drift(w, filepath.Join(dir, r.Board.Name), r)
		if err != nil {
			return ioError(cmd, err)
		}
		n += k
	}
	if n > 0 {
		fmt.Fprintf(cmd.ErrOrStderr(), "%d file(s) differ from a fresh build; run boardc build -o %s to update them\n", n, dir)
		return exitError{exitDiags}
	}
	return nil
}

// drift writes a unified diff from each file under dir to the result's
// generated file, and returns how many files differ. The temporary files
// of an interrupted write are not compared.
func drift(w io.Writer, dir string, r *boardc.Result) (int, error) {
	gen := map[string][]byte{}
	var names []string
	for _, f := range r.Files {
		name := filepath.FromSlash(f.Path)
		gen[name] = f.Data
		names = append(names, name)
	}
	present, err := outset.Present(dir)
	if err != nil {
		return 0, err
	}
	for _, p := range present {
		if _, ok := gen[p]; !ok && !outset.IsTemp(p) {
			names = append(names, p)
		}
	}
	sort.Strings(names)
	n := 0
	for _, name := range names {
		path := filepath.Join(dir, name)
		oldName, newName := path, path+" (generated)"
		old, err := outset.ReadOutput(path)
		switch {
		case os.IsNotExist(err):
			oldName = "/dev/null"
		case errors.Is(err, outset.ErrNotRegular):
			// Never read through a link or into a FIFO: it differs.
			n++
			if _, err := fmt.Fprintf(w, "diff %s %s\n%s is not a regular file: not read\n", oldName, newName, path); err != nil {
				return n, err
			}
			continue
		case err != nil:
			return n, err
		}
		data, ok := gen[name]
		if !ok {
			newName = "/dev/null"
		}
		if err == nil && ok && bytes.Equal(old, data) {
			continue
		}
		n++
		d := diff.Diff(oldName, old, newName, data)
		if d == nil { // both empty: one side is missing
			d = fmt.Appendf(nil, "diff %s %s\n--- %s\n+++ %s\n", oldName, newName, oldName, newName)
		}
		if _, err := w.Write(d); err != nil {
			return n, err
		}
	}
	return n, nil
}
