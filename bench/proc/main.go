// Command proc times whole processes, several variants of a command in
// alternation, and writes each variant's runs as Go benchmark lines, one
// file per variant, for benchstat:
//
//	go run ./bench/proc -runs 10 -name espressobin -o /tmp/res \
//		before='/tmp/old/boardc build -q -o /tmp/o1 boards/espressobin' \
//		after='/tmp/new/boardc build -q -o /tmp/o2 boards/espressobin'
//	go run golang.org/x/perf/cmd/benchstat@latest /tmp/res/before.txt /tmp/res/after.txt
//
// A variant is LABEL=COMMAND; the command is split at spaces (no quoting),
// and leading NAME=VALUE words are added to its environment
// (after='GOGC=400 /tmp/new/boardc build ...'). Each variant runs once
// untimed, then -runs rounds run every variant once each, the order
// rotating from round to round, so that a change in the machine's speed
// falls on every variant alike. Each run appends to DIR/LABEL.txt:
//
//	BenchmarkProc/NAME 1 WALL ns/op CPU cpu-ns/op RSS peak-RSS-B
//
// wall time from start to exit, CPU the user and system time of the
// process and its children, peak RSS the largest child's (getrusage). The
// load average (/proc/loadavg) before and after is appended to
// DIR/loadavg.txt.
//
// With -once, proc runs the command given as its arguments (no LABEL=)
// once and prints "WALL_US RSS_KB CPU_S" on a line, the wall time in
// microseconds, the peak RSS in KiB and the CPU time in seconds to the
// microsecond, as bench/run.sh records them; -stdout names a file for
// the command's output, which is discarded otherwise:
//
//	proc -once -stdout /tmp/board.json cue export ./board --out json
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

type variant struct {
	label string
	env   []string
	args  []string
	out   *os.File
}

func main() {
	runs := flag.Int("runs", 10, "timed rounds")
	name := flag.String("name", "", "benchmark name (BenchmarkProc/NAME)")
	outDir := flag.String("o", "", "directory of the result files, LABEL.txt, appended to")
	once := flag.Bool("once", false, "run the command of the arguments once and print WALL_US RSS_KB CPU_S")
	stdout := flag.String("stdout", "", "with -once, the file the command's output goes to")
	flag.Parse()
	if *once {
		if flag.NArg() == 0 {
			fmt.Fprintln(os.Stderr, "usage: proc -once [-stdout FILE] COMMAND [ARG...]")
			os.Exit(2)
		}
		runOnce(flag.Args(), *stdout)
		return
	}
	if *name == "" || *outDir == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: proc -name NAME -o DIR [-runs N] LABEL=COMMAND...")
		os.Exit(2)
	}
	if err := os.MkdirAll(*outDir, 0o755); err != nil {
		fail(err)
	}
	var vs []*variant
	for _, a := range flag.Args() {
		label, cmd, ok := strings.Cut(a, "=")
		words := strings.Fields(cmd)
		if !ok || label == "" || len(words) == 0 {
			fail(fmt.Errorf("%q: want LABEL=COMMAND", a))
		}
		v := &variant{label: label}
		for len(words) > 1 && strings.Contains(words[0], "=") {
			v.env, words = append(v.env, words[0]), words[1:]
		}
		v.args = words
		f, err := os.OpenFile(filepath.Join(*outDir, label+".txt"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			fail(err)
		}
		v.out = f
		vs = append(vs, v)
	}
	logf, err := os.OpenFile(filepath.Join(*outDir, "loadavg.txt"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		fail(err)
	}
	defer logf.Close()
	fmt.Fprintf(logf, "%s: before %s\n", *name, loadavg())
	for _, v := range vs {
		if _, err := v.run(); err != nil {
			fail(err)
		}
	}
	for r := range *runs {
		for i := range vs {
			v := vs[(r+i)%len(vs)]
			line, err := v.run()
			if err != nil {
				fail(err)
			}
			fmt.Fprintf(v.out, "BenchmarkProc/%s 1 %s\n", *name, line)
		}
	}
	fmt.Fprintf(logf, "%s: after  %s\n", *name, loadavg())
	for _, v := range vs {
		if err := v.out.Close(); err != nil {
			fail(err)
		}
	}
}

// run runs the variant's command once and returns its measurements in
// benchmark form.
func (v *variant) run() (string, error) {
	cmd := exec.Command(v.args[0], v.args[1:]...)
	cmd.Env = append(os.Environ(), v.env...)
	cmd.Stderr = os.Stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s: %v", v.label, err)
	}
	wall := time.Since(start)
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss * 1024
	return fmt.Sprintf("%d ns/op %d cpu-ns/op %d peak-RSS-B", wall.Nanoseconds(), cpu.Nanoseconds(), rss), nil
}

// runOnce runs args once, its output to the file stdout (discarded when
// ""), and prints its wall time, peak RSS and CPU time.
func runOnce(args []string, stdout string) {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stderr = os.Stderr
	if stdout != "" {
		f, err := os.Create(stdout)
		if err != nil {
			fail(err)
		}
		defer f.Close()
		cmd.Stdout = f
	}
	start := time.Now()
	if err := cmd.Run(); err != nil {
		fail(fmt.Errorf("%s: %v", args[0], err))
	}
	wall := time.Since(start)
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
	fmt.Printf("%d %d %.6f\n", wall.Microseconds(), rss, cpu.Seconds())
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "proc:", err)
	os.Exit(1)
}
