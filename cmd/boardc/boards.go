package main

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"

	"boardc.dev/boardc"
)

// boardRule is the rule, as the help texts print it, by which a trailing
// "/..." finds boards.
const boardRule = `A BOARD argument ending in "/..." (e.g. ./boards/...) stands for every board
directory at or below that directory, in lexical order: a directory whose
.cue files declare both top-level fields "name" and "soc", each at the start
of a line as cue fmt writes them. An SoC package declares "soc" but no
top-level "name", so it is not a board. Directories named cue.mod, testdata
or expected, and those starting with "." or "_", are not searched.`

// topLevelName and topLevelSoC match the top-level fields that make a
// package a board.
var (
	topLevelName = regexp.MustCompile(`^name\s*:`)
	topLevelSoC  = regexp.MustCompile(`^soc\s*:`)
)

// expandBoards replaces every argument ending in "/..." by the board
// directories below it, keeping the order of the arguments. A pattern
// that matches no board is an error.
func expandBoards(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		root, ok := strings.CutSuffix(filepath.ToSlash(a), "...")
		if !ok || (root != "" && !strings.HasSuffix(root, "/")) {
			out = append(out, a)
			continue
		}
		root = strings.TrimSuffix(root, "/")
		if root == "" {
			root = "."
		}
		dirs, err := findBoards(filepath.FromSlash(root))
		if err != nil {
			return nil, err
		}
		if len(dirs) == 0 {
			return nil, fmt.Errorf("%s: no board found", a)
		}
		out = append(out, dirs...)
	}
	return out, nil
}

// findBoards returns the board directories at or below root, sorted.
func findBoards(root string) ([]string, error) {
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if path != root {
			switch n := d.Name(); {
			case n == "cue.mod", n == "testdata", n == "expected",
				strings.HasPrefix(n, "."), strings.HasPrefix(n, "_"):
				return filepath.SkipDir
			}
		}
		ok, err := isBoardDir(path)
		if err != nil {
			return err
		}
		if ok {
			dirs = append(dirs, path)
		}
		return nil
	})
	sort.Strings(dirs)
	return dirs, err
}

// isBoardDir reports whether dir's .cue files declare top-level "name"
// and "soc" fields.
func isBoardDir(dir string) (bool, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.cue"))
	if err != nil {
		return false, err
	}
	var name, soc bool
	for _, f := range files {
		n, s, err := scanTopLevel(f)
		if err != nil {
			return false, err
		}
		name, soc = name || n, soc || s
	}
	return name && soc, nil
}

func scanTopLevel(file string) (name, soc bool, err error) {
	f, err := os.Open(file)
	if err != nil {
		return false, false, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		name = name || topLevelName.Match(line)
		soc = soc || topLevelSoC.Match(line)
	}
	return name, soc, sc.Err()
}

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
