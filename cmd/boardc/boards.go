package main

import (
	"runtime"
	"sync"

	"boardc.dev/boardc"
)

// boardRule is the rule, as the help texts print it, by which a trailing
// "/..." finds boards.
const boardRule = `A BOARD argument ending in "/..." (e.g. ./boards/...) stands for every board
directory at or below that directory, in lexical order: a directory whose
.cue files declare both top-level fields "name" and "soc". An SoC package
declares "soc" but no top-level "name", so it is not a board. Directories
named cue.mod, testdata or expected, and those starting with "." or "_",
are not searched.`

// compileAll compiles every board with a pool of up to GOMAXPROCS workers,
// one Compiler each (a Compiler is not safe for concurrent use). The
// results are in the order of paths, so that printing and writing them is
// the same as for one call per board.
func compileAll(paths []string, opts boardc.Options) ([]*boardc.Result, error) {
	results := make([]*boardc.Result, len(paths))
	workers := min(runtime.GOMAXPROCS(0), len(paths))
	jobs := make(chan int)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			comp, err := boardc.New()
			errs[w] = err
			for i := range jobs {
				if err == nil {
					results[i] = comp.Compile(paths[i], opts)
				}
			}
		})
	}
	for i := range paths {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return results, nil
}
