package main

import (
	"errors"
	"io/fs"
	"runtime"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"boardc.dev/boardc"
	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// boardRule is the rule, as the help texts print it, by which a trailing
// "/..." finds boards.
const boardRule = `A BOARD argument ending in "/..." (e.g. ./boards/...) stands for every board
directory at or below that directory, in lexical order: a directory whose
.cue files declare both top-level fields "name" and "soc". An SoC package
declares "soc" but no top-level "name", so it is not a board. Directories
named cue.mod, testdata or expected, and those starting with "." or "_",
are not searched.`

// compileAll compiles every board with a pool of up to GOMAXPROCS
// workers, one Compiler each (a Compiler is not safe for concurrent use),
// which share each SoC lowered once (boardc.Shared).
// A worker takes a run of consecutive boards at a time (runLength) and
// prepares its Compiler for them, so that boards of one SoC, which sort
// together, share its loading and evaluation (boardc.Compiler.Prepare). The results
// are in the order of paths, so that printing and writing them is the
// same as for one call per board.
func compileAll(paths []string, opts boardc.Options) ([]*boardc.Result, error) {
	results := make([]*boardc.Result, len(paths))
	workers := min(runtime.GOMAXPROCS(0), len(paths))
	runs, n := make(chan int), runLength(len(paths), workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	shared := &boardc.Shared{}
	for w := range workers {
		wg.Go(func() {
			comp, err := boardc.New()
			errs[w] = err
			if err == nil {
				comp.Share(shared)
			}
			for lo := range runs {
				if err != nil {
					continue
				}
				hi := min(lo+n, len(paths))
				comp.Prepare(paths[lo:hi])
				for i := lo; i < hi; i++ {
					results[i] = comp.Compile(paths[i], opts)
				}
			}
		})
	}
	for lo := 0; lo < len(paths); lo += n {
		runs <- lo
	}
	close(runs)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return results, nil
}

// runLength is how many consecutive boards of paths a worker of
// compileAll takes at a time: one run per worker, so that each worker
// loads, checks and lowers an SoC once for all its boards of that SoC,
// and at least minRun. Two runs per worker, which let a worker slowed
// down leave its second run to the others, cost a BSP of 54 boards on
// one SoC 12 % more CPU (each run parses the SoC package and lowers the
// SoC again) for a balance that boards of similar size do not need.
func runLength(paths, workers int) int {
	return max(minRun, (paths+workers-1)/workers)
}

// minRun is the shortest run of boards compileAll gives a worker.
const minRun = 4

// expandArgs is boardc.Expand with the exit-status contract: an argument
// that names nothing readable ("x/..." below a missing directory, or one
// that holds no board) is a description error (exit 1), printed as
// a diagnostic at the argument, as vet prints a missing BOARD.
func expandArgs(cmd *cobra.Command, args []string) ([]string, error) {
	var out []string
	var bad diag.List
	for _, a := range args {
		dirs, err := boardc.Expand([]string{a})
		if err != nil {
			bad = append(bad, inputDiag(a, err))
			continue
		}
		out = append(out, dirs...)
	}
	if len(bad) > 0 {
		if err := bad.WriteText(cmd.ErrOrStderr()); err != nil {
			return nil, err
		}
		return nil, exitError{exitDiags}
	}
	return out, nil
}

// inputDiag is the BC0001 diagnostic of an input path that cannot be
// read: a missing or unreadable file or directory, or a pattern that
// finds no board.
func inputDiag(path string, err error) diag.Diagnostic {
	msg := strings.TrimPrefix(err.Error(), path+": ")
	switch {
	case errors.Is(err, fs.ErrNotExist):
		msg = "no such file or directory"
	case errors.Is(err, fs.ErrPermission):
		msg = "permission denied"
	case errors.Is(err, boardc.ErrNoBoard):
		msg = "no board found at or below it"
	}
	return diag.Diagnostic{Pos: ir.Pos{File: path, Src: path}, Severity: diag.Error, Code: diag.Parse.ID, Message: msg}
}
