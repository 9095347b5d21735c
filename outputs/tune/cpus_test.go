package tune_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestShellIsAwk: same and mask_list (lib/2-cpus.sh) work in the shell on
// the forms the kernel prints and boardc writes, and hand the rest to
// their awk programs, which define them. On random CPU lists, masks and
// texts, in every POSIX shell here, each answers as its program does;
// cpu_at answers as its definition (the CPU at index K mod the list's
// length). Most cases must take the shell's path, and some must fall
// back, or the comparison would prove little.
func TestShellIsAwk(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	const n = 700
	var cases []shellCase
	for range n {
		cases = append(cases, randomCase(r))
	}
	var input strings.Builder
	for _, c := range cases {
		fmt.Fprintf(&input, "%s\n%s\n%s\n", c.op, c.a, c.b)
	}
	// The reference runs awk by its path: only the library's own calls
	// go through the logging awk ahead of it in PATH.
	script := libDriver(t, "2-cpus.sh", `
same_ref() { BOARDC_WANT=$2 BOARDC_HAVE=$3 "$REAL_AWK" -v kind="$1" '`+awkText(t, "same")+`'; }
while IFS= read -r op && IFS= read -r a && IFS= read -r b; do
	case $op in
	mask_list)
		mask_list "$a"
		printf '%s|%s\n' "$cpus" "$("$REAL_AWK" -v m="$a" '`+awkText(t, "mask-list")+`')"
		;;
	cpu_at)
		cpu_at "$a" "$b"
		printf '%s|\n' "$cpu"
		;;
	*)
		if same "$op" "$a" "$b"; then got=0; else got=1; fi
		if same_ref "$op" "$a" "$b"; then want=0; else want=1; fi
		printf '%s|%s\n' "$got" "$want"
		;;
	esac
done
`)
	for _, sh := range posixShells(t) {
		t.Run(sh.name, func(t *testing.T) {
			realAwk, err := exec.LookPath("awk")
			if sh.applets != "" {
				realAwk, err = filepath.Join(sh.applets, "awk"), nil
			}
			if err != nil {
				t.Skipf("outputs/tune: no awk: %v", err)
			}
			bin := t.TempDir()
			log := filepath.Join(bin, "calls")
			wrapper := fmt.Sprintf("#!/bin/sh\necho >>%q\nexec %q \"$@\"\n", log, realAwk)
			if err := os.WriteFile(filepath.Join(bin, "awk"), []byte(wrapper), 0o755); err != nil {
				t.Fatal(err)
			}
			cmd := sh.command(t, script)
			cmd.Env = append(cmd.Env, "REAL_AWK="+realAwk, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
			cmd.Stdin = strings.NewReader(input.String())
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
			if len(lines) != len(cases) {
				t.Fatalf("%d answers to %d cases:\n%s", len(lines), len(cases), out)
			}
			bad := 0
			for i, c := range cases {
				got, want, _ := strings.Cut(lines[i], "|")
				if c.op == "cpu_at" {
					want = c.want
				}
				if got != want && bad < 10 {
					t.Errorf("%s %q %q: the shell says %q, awk %q", c.op, c.a, c.b, got, want)
					bad++
				}
			}
			calls, _ := os.ReadFile(log)
			fallbacks := strings.Count(string(calls), "\n")
			t.Logf("%d cases, %d handed to awk", len(cases), fallbacks)
			if fallbacks == 0 || fallbacks > len(cases)/5 {
				t.Errorf("%d of %d cases were handed to awk, want some but at most a fifth", fallbacks, len(cases))
			}
		})
	}
}

// shellCase is one call: same OP A B, mask_list A or cpu_at A B (want
// is its answer).
type shellCase struct{ op, a, b, want string }

// randomCase returns a case of each operation in turn at random, with
// values that are often equal in another form and sometimes malformed.
func randomCase(r *rand.Rand) shellCase {
	set := randomSet(r)
	other := set
	if r.IntN(3) == 0 {
		other = slices.Clone(set)
		c := r.IntN(72)
		if i, found := slices.BinarySearch(other, c); found {
			other = slices.Delete(other, i, i+1)
		} else {
			other = slices.Insert(other, i, c)
		}
	}
	switch r.IntN(6) {
	case 0:
		return shellCase{op: "list", a: listForm(r, set), b: listForm(r, other)}
	case 1:
		sub := []int{}
		for _, c := range other {
			if r.IntN(3) > 0 {
				sub = append(sub, c)
			}
		}
		return shellCase{op: "within", a: listForm(r, set), b: listForm(r, sub)}
	case 2:
		return shellCase{op: "mask", a: maskForm(r, set), b: maskForm(r, other)}
	case 3:
		return shellCase{op: "mask_list", a: maskForm(r, set)}
	case 4:
		words := strings.Fields("20000 60000 4096 net eth0 a-b")
		w := words[:1+r.IntN(len(words))]
		v := w
		if r.IntN(3) == 0 {
			v = slices.Clone(w)
			v[r.IntN(len(v))] = "x"
		}
		return shellCase{op: "text", a: textForm(r, w), b: textForm(r, v)}
	}
	cpus := make([]string, 1+r.IntN(5))
	for i := range cpus {
		cpus[i] = strconv.Itoa(r.IntN(64))
	}
	k := r.IntN(12)
	return shellCase{op: "cpu_at", a: strings.Join(cpus, ","), b: strconv.Itoa(k), want: cpus[k%len(cpus)]}
}

// randomSet returns a sorted set of CPUs below 72, often in runs.
func randomSet(r *rand.Rand) []int {
	var set []int
	for c := 0; c < 72; c++ {
		if r.IntN(4) == 0 {
			run := 1 + r.IntN(6)
			for ; run > 0 && c < 72; run-- {
				set = append(set, c)
				c++
			}
		}
	}
	return set
}

// listForm writes set as a CPU list: canonical, or in parts out of order,
// split and overlapping; one in twelve is malformed.
func listForm(r *rand.Rand, set []int) string {
	var parts []string
	for i := 0; i < len(set); {
		j := i
		for j+1 < len(set) && set[j+1] == set[j]+1 && r.IntN(5) > 0 {
			j++
		}
		if i == j {
			parts = append(parts, strconv.Itoa(set[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", set[i], set[j]))
		}
		if r.IntN(8) == 0 {
			parts = append(parts, strconv.Itoa(set[i])) // overlapping
		}
		i = j + 1
	}
	if r.IntN(2) == 0 {
		r.Shuffle(len(parts), func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
	}
	s := strings.Join(parts, ",")
	if r.IntN(12) == 0 {
		bad := []string{"0" + s, " " + s, s + ",", "5-3", s + ",,7", "x", "1-2-3", "1234567", ""}
		s = bad[r.IntN(len(bad))]
	}
	return s
}

// maskForm writes set as a hex mask: bare, or zero-padded in the kernel's
// comma-separated 32-bit groups; one in twelve has uppercase or blanks.
func maskForm(r *rand.Rand, set []int) string {
	words := make([]uint32, 3)
	for _, c := range set {
		words[c/32] |= 1 << (c % 32)
	}
	var s string
	if r.IntN(2) == 0 {
		s = fmt.Sprintf("%x%08x%08x", words[2], words[1], words[0])
		s = strings.TrimLeft(s, "0")
		if s == "" || r.IntN(4) == 0 {
			s = "0" + s
		}
	} else {
		s = fmt.Sprintf("%02x,%08x,%08x", words[2]&0xff, words[1], words[0])
	}
	switch r.IntN(24) {
	case 0:
		s = strings.ToUpper(s)
	case 1:
		s = " " + s
	case 2:
		s = ""
	}
	return s
}

// textForm joins words with runs of blanks, sometimes at either end.
func textForm(r *rand.Rand, words []string) string {
	blanks := []string{" ", "  ", "\t", " \t "}
	var b strings.Builder
	if r.IntN(4) == 0 {
		b.WriteString(blanks[r.IntN(len(blanks))])
	}
	for i, w := range words {
		if i > 0 {
			b.WriteString(blanks[r.IntN(len(blanks))])
		}
		b.WriteString(w)
	}
	if r.IntN(4) == 0 {
		b.WriteString(blanks[r.IntN(len(blanks))])
	}
	return b.String()
}

// TestIRQLookup: irqs_read and irq_numbers (lib/2-find.sh) find the IRQs
// of an action name in /proc/interrupts as its reader in Go does
// (irqsNamed): names that differ only in a character the variable names
// encode (".", "_", "-", ":", "@"), one a prefix of another, a shared
// line, a name twice on one line and names of other characters.
func TestIRQLookup(t *testing.T) {
	t.Parallel()
	lines := []string{
		"  3:  1  2  GICv3  30 Level     a.b\n",
		"  4:  1  2  GICv3  31 Level     a_b\n",
		"  5:  1  2  GICv3  32 Level     a-b, a:b\n",
		"  6:  1  2  GICv3  33 Level     a@b, a.b\n",
		"  7:  1  2  GICv3  34 Level     dpio.3\n",
		"  8:  1  2  GICv3  35 Level     dpio.30\n",
		"  9:  1  2  GICv3  36 Level     dpio.3, dpio.3\n",
		" 10:  1  2  GICv3  37 Level     caf\u00e9\n",
		" 11:  1  2  GICv3  38 Level     a$b\n",
		" 12:  1  2  GICv3  39 Level     kvm guest vtimer\n",
		"IPI0:  1  2  Rescheduling interrupts\n",
	}
	names := []string{"a.b", "a_b", "a-b", "a:b", "a@b", "a_2eb", "dpio.3", "dpio.30", "dpio", "caf", "a", "vtimer", "kvm", "x"}
	root := t.TempDir()
	makeTree(t, root, map[string]string{"proc/interrupts": "     CPU0 CPU1\n" + strings.Join(lines, "")})
	script := libDriver(t, "2-find.sh", `
nl='
'
phase=check
irq_gen=0
irqs_read || exit 9
for name; do
	irq_numbers "$name"
	printf '%s|%s\n' "$name" "$irqs"
done
`)
	var want strings.Builder
	for _, n := range names {
		fmt.Fprintf(&want, "%s|%s\n", n, strings.Join(irqsNamed(lines, n), " "))
	}
	for _, sh := range posixShells(t) {
		t.Run(sh.name, func(t *testing.T) {
			cmd := sh.command(t, script, names...)
			cmd.Env = append(cmd.Env, "ROOT="+root)
			out, err := cmd.CombinedOutput()
			if err != nil || string(out) != want.String() {
				t.Errorf("%v\n%s\nwant:\n%s", err, out, want.String())
			}
		})
	}
}

// irqsNamed returns the numbers of the lines of /proc/interrupts one of
// whose action names is name: the last field, and the fields before it
// that end in ",", each without its ",".
func irqsNamed(lines []string, name string) []string {
	var out []string
	for _, l := range lines {
		f := strings.Fields(l)
		n, ok := strings.CutSuffix(f[0], ":")
		if !ok || strings.Trim(n, "0123456789") != "" {
			continue
		}
		for i := len(f) - 1; i > 0; i-- {
			a, comma := strings.CutSuffix(f[i], ",")
			if i < len(f)-1 && !comma {
				break
			}
			if a == name {
				out = append(out, n)
				break
			}
		}
	}
	return out
}

// TestChannelCounts: chan_counts (lib/3-apply.sh) reads what ethtool -l
// prints as its reader in Go does (channelCounts), in every shell here:
// the counts above zero after "Current hardware settings:", none before
// it, and a failure when the settings are missing.
func TestChannelCounts(t *testing.T) {
	t.Parallel()
	outputs := []string{
		"Channel parameters for eth0:\nPre-set maximums:\nRX:\t\tn/a\nTX:\t\tn/a\nOther:\t\tn/a\nCombined:\t8\nCurrent hardware settings:\nRX:\t\tn/a\nTX:\t\tn/a\nOther:\t\tn/a\nCombined:\t4\n",
		"Channel parameters for eth1:\nPre-set maximums:\nRX:\t\t16\nTX:\t\t16\nOther:\t\t1\nCombined:\t0\nCurrent hardware settings:\nRX:\t\t8\nTX:\t\t2\nOther:\t\t1\nCombined:\t0\n",
		"Current hardware settings:\nRX: 007\nTX: 00\nCombined: 12345678901\n",
		"Current hardware settings:\n  RX:\t3\nRX: 4 extra\nCombined:\nTX: -1\nTX: 1x\n",
		"Channel parameters for eth0:\nPre-set maximums:\nCombined:\t8\n",
		"",
	}
	script := libDriver(t, "3-apply.sh", `
for out; do
	if chan_counts "$out"; then st=0; else st=1; fi
	printf '%s|%s\n' "$st" "$now"
done
`)
	var want strings.Builder
	for _, o := range outputs {
		counts, ok := channelCounts(o)
		st := 0
		if !ok {
			st = 1
		}
		fmt.Fprintf(&want, "%d|%s\n", st, counts)
	}
	for _, sh := range posixShells(t) {
		t.Run(sh.name, func(t *testing.T) {
			out, err := sh.command(t, script, outputs...).CombinedOutput()
			if err != nil || string(out) != want.String() {
				t.Errorf("%v\n%s\nwant:\n%s", err, out, want.String())
			}
		})
	}
}

// channelCounts reads ethtool -l's output: after its line starting
// "Current hardware settings:", each line whose first field is RX:, TX:
// or Combined: and whose second is a count above zero gives "rx N", "tx
// N" or "combined N"; ok is false when there is no such line.
func channelCounts(out string) (counts string, ok bool) {
	var pairs []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "Current hardware settings:") {
			ok = true
			continue
		}
		f := strings.Fields(l)
		if !ok || len(f) < 2 || strings.Trim(f[1], "0123456789") != "" || strings.Trim(f[1], "0") == "" {
			continue
		}
		switch f[0] {
		case "RX:", "TX:", "Combined:":
			pairs = append(pairs, strings.ToLower(strings.TrimSuffix(f[0], ":"))+" "+f[1])
		}
	}
	return strings.Join(pairs, " "), ok
}

// libDriver writes a script of the library part lib/PART, its awk
// programs in place, followed by body, which calls its functions, and
// returns its path.
func libDriver(t *testing.T, part, body string) string {
	t.Helper()
	lib, err := os.ReadFile(filepath.Join("lib", part))
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "driver.sh")
	if err := os.WriteFile(script, []byte(withAwk(t, string(lib))+body), 0o644); err != nil {
		t.Fatal(err)
	}
	return script
}
