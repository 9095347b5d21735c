package tune_test

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/internal/testtool"
	"boardc.dev/boardc/outputs"
)

// at returns a position in the test description.
func at(line int) ir.Pos {
	return ir.Pos{File: "test/board.cue", Src: "test/board.cue", Line: line, Col: 1}
}

// cpus returns 0..n-1.
func cpus(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// testBoard is a hand-built board with 40 CPUs that uses every part of the
// policy: shared IRQ names, a shared IRQ line, masks beyond 32 CPUs, a
// rounded flow count, a multi-value sysctl and isolated CPUs.
func testBoard() *ir.Board {
	return &ir.Board{
		Name:          "testboard",
		Pos:           at(2),
		Model:         "Test Board",
		Compatible:    []string{"vendor,testboard", "vendor,testsoc"},
		CompatiblePos: at(3),
		SoC: ir.SoC{
			Name:       "testsoc",
			Compatible: []string{"vendor,testsoc"},
			Clusters:   []ir.Cluster{{Core: "arm,cortex-a72", CPUs: cpus(40)}},
		},
		Policy: ir.Policy{
			IRQs: []ir.IRQPin{
				{IRQ: "d0090000.crypto", CPUs: []int{1, 0}, Pos: at(10)},
				{IRQ: "eth0", CPUs: []int{2}, Pos: at(11)},
				{IRQ: "dpio.3", CPUs: []int{35}, Pos: at(12)},
				{IRQ: "eth1", CPUs: []int{3, 5, 4, 7}, Pos: at(13)},
			},
			Net: []ir.NetPolicy{{
				IfName:       "eth0",
				RPS:          [][]int{{0, 1}, {33}},
				RPSFlowCount: 1000,
				XPS:          [][]int{{0}, {32, 39}},
				Pos:          at(20),
			}},
			Sysctls: []ir.Sysctl{
				{Key: "net.core.netdev_budget", Value: "600", Pos: at(30)},
				{Key: "net.core.rps_sock_flow_entries", Value: "32768", Pos: at(31)},
				{Key: "net.ipv4.ip_local_port_range", Value: "20000 60000", Pos: at(32)},
			},
			IsolatedCPUs:  []int{39, 38},
			IsolatedPos:   at(40),
			IrqbalanceBan: true,
		},
	}
}

// interruptsHeader and interruptsLines are a realistic /proc/interrupts of
// an arm64 board: GICv3 and ITS lines, names with blanks, a shared line,
// IPIs and the error counter.
const interruptsHeader = "           CPU0       CPU1       CPU2       CPU3       \n"

var interruptsLines = []string{
	"  3:      48862      43517      40211      39012     GICv3  30 Level     arch_timer\n",
	"  4:          0          0          0          0     GICv3  27 Level     kvm guest vtimer\n",
	"  7:        573          0          0          0     GICv3  43 Level     d0012000.serial\n",
	" 21:         12          0          0          0     GICv3  57 Level     d0090000.crypto\n",
	" 22:          0         10          0          0     GICv3  58 Level     d0090000.crypto\n",
	" 23:          0          0          9          0     GICv3  59 Level     d0090000.crypto\n",
	" 24:          0          0          0          8     GICv3  60 Level     d0090000.crypto\n",
	" 25:          0          0          0          0     GICv3  61 Level     xd0090000.crypto\n",
	" 30:       1234          0          0          0     GICv3  74 Level     eth0\n",
	" 31:          0          0          0          0   ITS-MSI 2097152 Edge      dpio.3\n",
	" 32:          0          0          0          0   ITS-MSI 2097153 Edge      dpio.30\n",
	" 33:         17          0          0          0     GICv3  99 Level     xhci-hcd:usb1, eth1\n",
	"IPI0:      1234       2345       1111       2222       Rescheduling interrupts\n",
	"IPI1:         1          2          3          4       Function call interrupts\n",
	"Err:          0\n",
}

// pinnedIRQs are the IRQ numbers of testBoard's pins in interruptsLines,
// with the CPU list each must end with.
var pinnedIRQs = map[string]string{
	"21": "0-1", "22": "0-1", "23": "0-1", "24": "0-1",
	"30": "2", "31": "35", "33": "3-5,7",
}

// fakeRoot returns the files of a synthesized root for testBoard: what
// tune.sh reads and writes below /proc, /sys and /run, with kernel-style
// values (masks zero-padded to 40 CPUs).
func fakeRoot() map[string]string {
	f := map[string]string{
		"proc/device-tree/compatible":                 "vendor,testboard\x00vendor,testsoc\x00",
		"proc/interrupts":                             interruptsHeader + strings.Join(interruptsLines, ""),
		"proc/sys/net/core/netdev_budget":             "300\n",
		"proc/sys/net/core/rps_sock_flow_entries":     "0\n",
		"proc/sys/net/ipv4/ip_local_port_range":       "32768\t60999\n",
		"sys/class/net/eth0/queues/rx-0/rps_cpus":     "00,00000000\n",
		"sys/class/net/eth0/queues/rx-0/rps_flow_cnt": "0\n",
		"sys/class/net/eth0/queues/rx-1/rps_cpus":     "00,00000000\n",
		"sys/class/net/eth0/queues/rx-1/rps_flow_cnt": "0\n",
		"sys/class/net/eth0/queues/tx-0/xps_cpus":     "00,00000000\n",
		"sys/class/net/eth0/queues/tx-1/xps_cpus":     "00,00000000\n",
		"proc/1/comm":   "systemd\n",
		"proc/412/comm": "sshd\n",
		"run/.keep":     "",
	}
	for _, n := range []string{"3", "4", "7", "21", "22", "23", "24", "25", "30", "31", "32", "33"} {
		f["proc/irq/"+n+"/smp_affinity_list"] = "0-39\n"
	}
	return f
}

// symlink is the prefix of a makeTree value that makes a symbolic link to
// the rest of the value, as sysfs has them (class/net/IF, device,
// of_node); snapshot records links the same way.
const symlink = "symlink:"

// makeTree writes files below dir; a value starting with symlink makes a
// symbolic link instead, and a name ending in "/" a directory.
func makeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(data, symlink); ok {
			os.Remove(p)
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// snapshot returns every file (name → content) and directory (name/ → "")
// below dir.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			out[rel+"/"] = ""
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(p)
			out[rel] = symlink + target
			return err
		}
		data, err := os.ReadFile(p)
		out[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// treeDiff lists the differences between two snapshots, sorted.
func treeDiff(want, got map[string]string) []string {
	var out []string
	for k, w := range want {
		if g, ok := got[k]; !ok {
			out = append(out, fmt.Sprintf("%s: gone", k))
		} else if g != w {
			out = append(out, fmt.Sprintf("%s: %q, want %q", k, g, w))
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			out = append(out, fmt.Sprintf("%s: new", k))
		}
	}
	sort.Strings(out)
	return out
}

// writeOutputs writes the emitted files into a fresh directory and
// returns it.
func writeOutputs(t *testing.T, files []outputs.File) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range files {
		makeTree(t, dir, map[string]string{f.Path: string(f.Data)})
	}
	return dir
}

// result is what one run of a script did.
type result struct {
	stdout, stderr string
	code           int
}

func (r result) String() string {
	return fmt.Sprintf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
}

// runSh runs script with sh in dir (the working directory) and returns its
// output and exit status.
func runSh(t *testing.T, dir string, env []string, script string, args ...string) result {
	t.Helper()
	cmd := exec.Command("sh", append([]string{script}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("running %s: %v", script, err)
	}
	return r
}

// shellcheck runs shellcheck on every script among files and fails on any
// finding but those of the codes in exclude.
func shellcheck(t *testing.T, files []outputs.File, exclude ...string) {
	t.Helper()
	sc := testtool.Look(t, "shellcheck", "shellcheck")
	dir := t.TempDir()
	var scripts []string
	for _, f := range files {
		if !strings.HasSuffix(f.Path, ".sh") && !bytes.HasPrefix(f.Data, []byte("#!/bin/sh")) {
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		makeTree(t, dir, map[string]string{f.Path: string(f.Data)})
		scripts = append(scripts, p)
	}
	if len(scripts) == 0 {
		t.Fatal("no scripts to check")
	}
	args := []string{"--norc", "--shell=sh", "--severity=style"}
	if len(exclude) > 0 {
		args = append(args, "--exclude="+strings.Join(exclude, ","))
	}
	out, err := exec.Command(sc, append(args, scripts...)...).CombinedOutput()
	if err != nil {
		t.Errorf("shellcheck: %v\n%s", err, out)
	}
}

// shell is a POSIX shell installed here.
type shell struct {
	name string
	argv []string // the shell and its arguments before a script
	// applets, for busybox, is a directory of links to it named as the
	// utilities the scripts run, so its own are found first.
	applets string
}

// command returns the command running script with args under sh.
func (sh shell) command(t *testing.T, script string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(sh.argv[0], append(append(sh.argv[1:len(sh.argv):len(sh.argv)], script), args...)...)
	cmd.Env = os.Environ()
	if sh.applets != "" {
		cmd.Env = append(cmd.Env, "PATH="+sh.applets+string(os.PathListSeparator)+os.Getenv("PATH"))
	}
	return cmd
}

// posixShells returns every POSIX shell installed here of dash, bash in
// POSIX mode, busybox ash, mksh and posh, and skips the test when there
// is none. Under busybox the utilities are busybox's too (awk, tr, cat,
// ...), as on OpenWrt or Buildroot.
func posixShells(t *testing.T) []shell {
	t.Helper()
	var out []shell
	for _, argv := range [][]string{{"dash"}, {"bash", "--posix"}, {"busybox", "sh"}, {"mksh"}, {"posh"}} {
		path, err := exec.LookPath(argv[0])
		if err != nil {
			continue
		}
		sh := shell{name: argv[0], argv: append([]string{path}, argv[1:]...)}
		if argv[0] == "busybox" {
			sh.applets = t.TempDir()
			for _, applet := range []string{"awk", "cat", "mkdir", "rm", "rmdir", "tr"} {
				if err := os.Symlink(path, filepath.Join(sh.applets, applet)); err != nil {
					t.Fatal(err)
				}
			}
		}
		out = append(out, sh)
	}
	if len(out) == 0 {
		t.Skip("no POSIX shell found")
	}
	return out
}
