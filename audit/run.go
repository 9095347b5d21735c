package audit

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/compiler/kernel"
)

// DTSDir is where a kernel tree keeps the arm64 device trees.
const DTSDir = "arch/arm64/boot/dts"

// Report is one audit run.
type Report struct {
	// Kernel is the series of the driver facts, "" for none.
	Kernel string `json:"kernel"`
	// Boards are the boards audited, in the order given; a board that
	// did not compile has its Err set and no findings.
	Boards []BoardResult `json:"boards"`
	// Findings are every board's, ranked (Sort).
	Findings []Finding `json:"findings"`
	// Wall is the run's wall time.
	Wall time.Duration `json:"-"`
}

// Counts returns the number of findings per class.
func (r *Report) Counts() map[Class]int {
	c := map[Class]int{}
	for _, f := range r.Findings {
		c[f.Class]++
	}
	return c
}

// Failed returns the boards that could not be audited.
func (r *Report) Failed() []BoardResult {
	var out []BoardResult
	for _, b := range r.Boards {
		if b.Err != "" {
			out = append(out, b)
		}
	}
	return out
}

// Options set how a run goes.
type Options struct {
	// Kernel is the driver facts' series; "" for kernel.Default().
	Kernel string
	// Workers is how many boards compile at once; 0 means GOMAXPROCS.
	Workers int
	// Progress, when not nil, gets one line per board.
	Progress io.Writer
}

// Source is one board to audit: a .dts in a kernel tree, or a .dtb.
type Source struct {
	// Root is the kernel tree and DTS the .dts relative to DTSDir; or
	// DTB is a .dtb file (Root and DTS empty).
	Root, DTS, DTB string
}

// name is the board's name in findings.
func (s Source) name() string {
	if s.DTB != "" {
		return s.DTB
	}
	return s.DTS
}

// Boards lists every board .dts of a kernel tree, relative to DTSDir,
// sorted.
func Boards(root string) ([]string, error) {
	dir, err := filepath.EvalSymlinks(filepath.Join(root, filepath.FromSlash(DTSDir)))
	if err != nil {
		return nil, err
	}
	var out []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".dts") {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

// Run audits each source, in parallel, then adds the findings across
// boards (Finish). A board that does not compile is recorded, not fatal.
func Run(srcs []Source, o Options) (*Report, error) {
	series := o.Kernel
	if series == "" {
		series = kernel.Default()
	}
	var cat *kernel.Catalog
	if series != "" {
		var err error
		if cat, err = kernel.Load(series); err != nil {
			return nil, err
		}
	}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	rep := &Report{Kernel: series, Boards: make([]BoardResult, len(srcs))}
	start := time.Now()
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for range workers {
		wg.Go(func() {
			for i := range next {
				r := one(srcs[i], cat)
				mu.Lock()
				rep.Boards[i] = r
				done++
				if o.Progress != nil {
					status := fmt.Sprintf("%d finding(s)", len(r.Findings))
					if r.Err != "" {
						status = "not audited: " + firstLine(r.Err)
					}
					fmt.Fprintf(o.Progress, "%4d/%d %s: %s\n", done, len(srcs), r.Board, status)
				}
				mu.Unlock()
			}
		})
	}
	for i := range srcs {
		next <- i
	}
	close(next)
	wg.Wait()
	rep.Findings = Finish(rep.Boards)
	rep.Wall = time.Since(start)
	return rep, nil
}

// one compiles and audits one source.
func one(s Source, cat *kernel.Catalog) BoardResult {
	var t *basetree.Tree
	var err error
	if s.DTB != "" {
		t, err = basetree.ReadFile(s.DTB)
	} else {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		t, err = basetree.Compile{Root: s.Root, DTS: DTSDir + "/" + s.DTS, Annotate: true}.Build(ctx)
	}
	if err != nil {
		return BoardResult{Board: s.name(), Err: err.Error()}
	}
	return Board(t, s.name(), cat)
}

// Select turns command-line arguments into the boards to audit: .dtb
// files as they are, the rest matched against the boards of the kernel
// tree root (Boards) as a name, a directory ("marvell/") or a pattern
// (path.Match: "marvell/armada-37*"); no such argument selects every
// board. A pattern that matches nothing is an error.
func Select(root string, args []string) ([]Source, error) {
	var srcs []Source
	var pats []string
	for _, a := range args {
		if strings.HasSuffix(a, ".dtb") {
			srcs = append(srcs, Source{DTB: a})
		} else {
			pats = append(pats, filepath.ToSlash(a))
		}
	}
	if len(pats) == 0 && len(srcs) > 0 {
		return srcs, nil
	}
	if root == "" {
		return nil, errors.New("no kernel tree to find the boards in")
	}
	boards, err := Boards(root)
	if err != nil {
		return nil, err
	}
	if len(pats) == 0 {
		for _, b := range boards {
			srcs = append(srcs, Source{Root: root, DTS: b})
		}
		return srcs, nil
	}
	for _, p := range pats {
		n := 0
		for _, b := range boards {
			ok, _ := path.Match(p, b)
			if ok || b == p || strings.HasPrefix(b, strings.TrimSuffix(p, "/")+"/") {
				srcs = append(srcs, Source{Root: root, DTS: b})
				n++
			}
		}
		if n == 0 {
			return nil, fmt.Errorf("%s: no board of %s matches", p, filepath.Join(root, DTSDir))
		}
	}
	return srcs, nil
}

// firstLine returns s up to its first newline.
func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
