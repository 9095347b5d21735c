package conform

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"boardc.dev/boardc"
)

// Options set how Run runs.
type Options struct {
	// Workers is how many boards run at once; 0 means GOMAXPROCS.
	Workers int
	// Timeout bounds one board; 0 means 3 minutes. A board that takes
	// longer is recorded as failed with a timeout at the stage it was in.
	Timeout time.Duration
	// Progress, when not nil, gets one line per board.
	Progress io.Writer
}

// Run is a run over some boards of the corpus.
type Run struct {
	// Results holds one Result per board, in the order of the boards.
	Results []Result
	// Wall is the run's wall time; CPU the user and system time of the
	// process and of the tools it ran (cpp, dtc).
	Wall, CPU time.Duration
	// Load is /proc/loadavg's 1-minute load at the start and at the end.
	Load [2]string
	// Workers is how many boards ran at once.
	Workers int
	// Kernel is the kernel source archive whose arch/arm, arch/riscv and
	// dtc the boards compiled with; "" for none (Corpus.Kernel).
	Kernel string
}

// Run takes each of boards (paths relative to DTSDir) through every
// stage. A board never stops the run: a panic is recovered and a board
// over the timeout abandoned, each recorded as its failure's cause.
func (cp *Corpus) Run(boards []string, o Options) (*Run, error) {
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.Timeout <= 0 {
		o.Timeout = 3 * time.Minute
	}
	work, err := os.MkdirTemp("", "boardc-conform-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	run := &Run{Results: make([]Result, len(boards)), Workers: o.Workers, Load: [2]string{loadAvg(), ""}}
	if cp.Kernel != nil {
		run.Kernel = cp.Kernel.Archive
	}
	cpu0 := cpuTime()
	start := time.Now()
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var done int
	for range o.Workers {
		wg.Go(func() {
			var c *boardc.Compiler
			for i := range next {
				if c == nil {
					if c, err = boardc.New(); err != nil {
						panic(err) // the embedded schema does not load: no board can run
					}
				}
				r, ok := cp.one(c, boards[i], work, o.Timeout)
				if !ok {
					c = nil // still busy with the abandoned board
				}
				mu.Lock()
				run.Results[i] = r
				done++
				if o.Progress != nil {
					fmt.Fprintf(o.Progress, "%4d/%d %-60s %5.1fs %s\n", done, len(boards), boards[i], r.Seconds, r.Summary())
				}
				mu.Unlock()
			}
		})
	}
	for i := range boards {
		next <- i
	}
	close(next)
	wg.Wait()
	run.Wall = time.Since(start)
	run.CPU = cpuTime() - cpu0
	run.Load[1] = loadAvg()
	return run, nil
}

// one runs the board dts with the compiler c, in a module directory of
// its own under work. It reports false when the board was abandoned at
// the timeout: its goroutine may still use c.
func (cp *Corpus) one(c *boardc.Compiler, dts, work string, timeout time.Duration) (Result, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	dir, err := os.MkdirTemp(work, "board-")
	if err != nil {
		r := Result{Board: dts}
		r.fail(Compile, err.Error(), "no work directory: "+Normalize(err.Error()))
		return r, true
	}
	r := &Result{Board: dts}
	at := &progress{}
	start := time.Now()
	finished := make(chan any, 1)
	go func() {
		defer func() { finished <- recover() }()
		cp.run(ctx, c, dts, dir, r, at)
	}()
	select {
	case p := <-finished:
		if p != nil {
			at.mu.Lock()
			s := at.stage
			at.mu.Unlock()
			stopAt(r, s, fmt.Sprint(p), "panic: "+Normalize(fmt.Sprint(p)))
		}
		os.RemoveAll(dir)
		for i := range r.Stages {
			r.Stages[i].Detail = strings.ReplaceAll(strings.ReplaceAll(r.Stages[i].Detail, dir+string(os.PathSeparator), ""), cp.Root+string(os.PathSeparator), "")
		}
		r.Seconds = time.Since(start).Seconds()
		return *r, true
	case <-ctx.Done():
		// The board's goroutine owns r until it returns: report the
		// copy it made when it reached its current stage.
		at.mu.Lock()
		out, s := at.snap, at.stage
		at.mu.Unlock()
		out.Board, out.Seconds = dts, time.Since(start).Seconds()
		msg := fmt.Sprintf("timeout after %s", timeout)
		stopAt(&out, s, msg, msg)
		return out, false
	}
}

// progress is the stage a board has reached, and a copy of its result
// as it was then, for the runner to read while the board runs on.
type progress struct {
	mu    sync.Mutex
	stage Stage
	snap  Result
}

// reachHook, when not nil, is called as a board reaches a stage: the
// tests make a board panic or hang there.
var reachHook func(board string, s Stage)

// reach records that the board r reached stage s.
func (p *progress) reach(s Stage, r *Result) {
	p.mu.Lock()
	p.stage, p.snap = s, *r
	p.mu.Unlock()
	if reachHook != nil {
		reachHook(r.Board, s)
	}
}

// stopAt records that the board stopped at stage s for the cause: s,
// and Coherent when it was not decided yet (it is decided with Vet),
// failed; the later stages did not run.
func stopAt(r *Result, s Stage, detail, cause string) {
	if s >= Vet && !r.Stages[Coherent].Ran {
		r.fail(Coherent, detail, cause)
	}
	r.fail(s, detail, cause)
	for i := s + 1; i < numStages; i++ {
		r.Stages[i] = Outcome{}
	}
}

// Summary returns the board's outcome in one word per stage.
func (r Result) Summary() string {
	var b strings.Builder
	for s, o := range r.Stages {
		if s > 0 {
			b.WriteByte(' ')
		}
		switch {
		case !o.Ran:
			b.WriteString("-")
		case o.Pass:
			b.WriteString("ok")
		default:
			fmt.Fprintf(&b, "%s:FAIL(%s)", Stage(s), first(o.Causes, 1)[0])
		}
	}
	return b.String()
}

// cpuTime returns the user and system time of the process and of its
// waited-for children.
func cpuTime() time.Duration {
	var self, kids syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	d := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	return d(self.Utime) + d(self.Stime) + d(kids.Utime) + d(kids.Stime)
}

// loadAvg returns the 1-, 5- and 15-minute load averages, "" where
// /proc/loadavg cannot be read.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}
