package tune_test

import (
	"path/filepath"
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/outputs/tune"
)

// placedBoard is testBoard on an interrupt controller that delivers each
// IRQ to one CPU, with the EIP97 rings (four IRQs of one name) and dpio.3
// placed by their drivers, and eth1 left to user space.
func placedBoard() *ir.Board {
	b := testBoard()
	b.SoC.IRQDelivery = &ir.IRQDelivery{One: true, Source: "gic_set_affinity()", Pos: at(5)}
	hint := &ir.IRQAffinity{Keys: []string{"rings"}, Source: "safexcel_request_ring_irq()", Pos: at(6)}
	dpio := &ir.IRQAffinity{Keys: []string{"dpio3"}, Source: "register_dpio_irq_handlers()", Pos: at(7)}
	b.SoC.Masters = []*ir.Master{
		{Key: "crypto", IRQs: []ir.IRQ{{Key: "rings", Name: "d0090000.crypto", Count: 4, Driver: hint}}, IRQAffinity: hint},
		{Key: "fsl_mc", IRQs: []ir.IRQ{{Key: "dpio3", Name: "dpio.3", Count: 1, Driver: dpio}}, IRQAffinity: dpio},
		{Key: "eth", IRQs: []ir.IRQ{{Key: "port", Name: "eth1", Count: 4}}},
	}
	b.Policy.IRQs = []ir.IRQPin{
		{IRQ: "d0090000.crypto", CPUs: []int{0, 1}, Pos: at(10)},
		{IRQ: "dpio.3", CPUs: []int{3}, Pos: at(12)},
		{IRQ: "eth1", CPUs: []int{5, 3}, Pos: at(13)},
	}
	b.ResolvePolicy()
	return b
}

// placedRoot is fakeRoot with the drivers' affinity hints (the rings
// spread as cpumask_local_spread() does, dpio.3 given CPU 5 by probe
// order) and effective affinities.
func placedRoot() map[string]string {
	f := fakeRoot()
	f["proc/interrupts"] = interruptsHeader + strings.Join(interruptsLines, "") +
		" 34:          0          0          0          0     GICv3 100 Level     eth1\n"
	f["proc/irq/34/smp_affinity_list"] = "0-39\n"
	for n, h := range map[string]string{"21": "01", "22": "02", "23": "01", "24": "02", "31": "20"} {
		f["proc/irq/"+n+"/affinity_hint"] = "00,000000" + h + "\n"
	}
	for _, n := range []string{"21", "22", "23", "24", "31", "33", "34"} {
		f["proc/irq/"+n+"/effective_affinity_list"] = "0\n"
	}
	return f
}

func TestPlacementScript(t *testing.T) {
	s := tune.Script(placedBoard())
	for _, want := range []string{
		"# test/board.cue:10: IRQs named d0090000.crypto (master crypto) are placed by their driver; the description expects CPUs 0,1, one per IRQ in ascending IRQ number\n",
		"\tfollow_irq 'd0090000.crypto' '0,1' hint 'crypto' 'test/board.cue:10'\n",
		"# test/board.cue:6: safexcel_request_ring_irq()\n",
		"\tfollow_irq 'dpio.3' '3' hint 'fsl_mc' 'test/board.cue:12'\n",
		"# test/board.cue:13: IRQs named eth1 (master eth) on CPUs 5,3, one per IRQ in ascending IRQ number\n",
		"# test/board.cue:5: one CPU per IRQ: gic_set_affinity()\n\tpin_irq 'eth1' '5,3' one 'eth' 'test/board.cue:13'\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("tune.sh lacks %q", want)
		}
	}
	shellcheck(t, tune.Emit(placedBoard()))
}

func TestPlacementRoot(t *testing.T) {
	t.Parallel()
	out := writeOutputs(t, tune.Emit(placedBoard()))
	script := filepath.Join(out, tune.ScriptFile)
	root, work := t.TempDir(), t.TempDir()
	makeTree(t, root, placedRoot())
	orig := snapshot(t, root)
	run := func(args ...string) result {
		return runSh(t, work, nil, script, append([]string{"--root", root, "--only", "irq"}, args...)...)
	}

	r := run()
	if r.code != 0 {
		t.Fatalf("apply: %v", r)
	}
	got := snapshot(t, root)
	// Driver-placed IRQs follow their hints; the IRQs named eth1 (33 and
	// 34, shared line first) take 5 and 3 in that order, one each.
	for n, w := range map[string]string{"21": "0", "22": "1", "23": "0", "24": "1", "31": "5", "33": "5", "34": "3"} {
		if p := "proc/irq/" + n + "/smp_affinity_list"; got[p] != w+"\n" {
			t.Errorf("IRQ %s: %q, want %q", n, got[p], w)
		}
	}
	// The DPIO's probe order differs from the description's: a warning
	// names both CPUs; the rings' hints match and say nothing.
	want := "tune.sh: warning: IRQ 31 dpio.3: its driver's affinity hint is CPU 5, the description expects CPU 3: the driver placed it in another order (test/board.cue:12)\n"
	if !strings.Contains(r.stderr, want) {
		t.Errorf("apply stderr lacks %q:\n%s", want, r.stderr)
	}
	if strings.Contains(r.stderr, "d0090000.crypto") {
		t.Errorf("apply warned about the rings:\n%s", r.stderr)
	}

	// --verify reads effective_affinity_list: the controller delivering
	// elsewhere is drift even where smp_affinity_list is right.
	makeTree(t, root, map[string]string{
		"proc/irq/21/effective_affinity_list": "0\n",
		"proc/irq/22/effective_affinity_list": "1\n",
		"proc/irq/23/effective_affinity_list": "0\n",
		"proc/irq/24/effective_affinity_list": "1\n",
		"proc/irq/31/effective_affinity_list": "5\n",
		"proc/irq/33/effective_affinity_list": "5\n",
		"proc/irq/34/effective_affinity_list": "3\n",
	})
	if r := run("--verify"); r.code != 0 || !strings.Contains(r.stdout, "no drift") || !strings.Contains(r.stderr, "IRQ 31 dpio.3: its driver's affinity hint is CPU 5") {
		t.Errorf("verify: %v", r)
	}
	makeTree(t, root, map[string]string{"proc/irq/34/effective_affinity_list": "0\n"})
	r = run("--verify")
	if r.code != tune.ExitDrift || !strings.Contains(r.stdout, "drift: /proc/irq/34/effective_affinity_list is 0, want within 3 (IRQ 34 eth1, test/board.cue:13)\n") {
		t.Errorf("verify with the IRQ delivered elsewhere: %v", r)
	}
	makeTree(t, root, map[string]string{"proc/irq/34/effective_affinity_list": "3\n"})

	// irqbalance (or anyone) moving a driver-placed IRQ is drift, and the
	// next apply puts it back where the hint says.
	makeTree(t, root, map[string]string{"proc/irq/22/smp_affinity_list": "0-39\n"})
	r = run("--verify")
	if r.code != tune.ExitDrift || !strings.Contains(r.stdout, "drift: /proc/irq/22/smp_affinity_list is 0-39, want 1 (IRQ 22 d0090000.crypto, affinity hint, test/board.cue:10)") {
		t.Errorf("verify of a moved driver-placed IRQ: %v", r)
	}
	if r := run(); r.code != 0 || snapshot(t, root)["proc/irq/22/smp_affinity_list"] != "1\n" {
		t.Errorf("re-apply: %v", r)
	}

	// A driver that gave no hint: the IRQ is left where it is, saying so.
	makeTree(t, root, map[string]string{"proc/irq/23/affinity_hint": "00,00000000\n"})
	r = run("--dry-run")
	if r.code != 0 || !strings.Contains(r.stderr, "IRQ 23 d0090000.crypto has no affinity hint from its driver, left where it is (test/board.cue:10)") {
		t.Errorf("dry-run without a hint: %v", r)
	}

	if r := run("--revert"); r.code != 0 {
		t.Fatalf("revert: %v", r)
	}
	got = snapshot(t, root)
	for n := range map[string]bool{"21": true, "22": true, "24": true, "31": true, "33": true, "34": true} {
		if p := "proc/irq/" + n + "/smp_affinity_list"; got[p] != orig[p] {
			t.Errorf("revert left IRQ %s at %q, want %q", n, got[p], orig[p])
		}
	}
}

// TestPlacementManaged: the vectors of a managed IRQ are the kernel's: a
// hint that its affinity does not follow is reported, never written.
func TestPlacementManaged(t *testing.T) {
	t.Parallel()
	b := placedBoard()
	b.SoC.Masters[1].IRQAffinity.Managed = true
	if s := tune.Script(b); !strings.Contains(s, "\tfollow_irq 'dpio.3' '3' managed 'fsl_mc' 'test/board.cue:12'\n") {
		t.Errorf("tune.sh:\n%s", s)
	}
	out := writeOutputs(t, tune.Emit(b))
	root, work := t.TempDir(), t.TempDir()
	makeTree(t, root, placedRoot())
	r := runSh(t, work, nil, filepath.Join(out, tune.ScriptFile), "--root", root, "--only", "irq")
	if r.code != 0 || !strings.Contains(r.stderr, "warning: /proc/irq/31/smp_affinity_list is 0-39, set by the driver; the description expects 5") {
		t.Errorf("apply: %v", r)
	}
	if got := snapshot(t, root)["proc/irq/31/smp_affinity_list"]; got != "0-39\n" {
		t.Errorf("the managed IRQ was written: %q", got)
	}
	if got := snapshot(t, root)["proc/irq/22/smp_affinity_list"]; got != "1\n" {
		t.Errorf("the other driver's IRQ was not placed: %q", got)
	}
}

// TestPlacementWideHint: a hint of several CPUs (virtio-net's one queue
// pair gets every CPU, virtnet_set_affinity()) is named in the kernel's
// list form and followed as it is.
func TestPlacementWideHint(t *testing.T) {
	t.Parallel()
	out := writeOutputs(t, tune.Emit(placedBoard()))
	script := filepath.Join(out, tune.ScriptFile)
	root, work := t.TempDir(), t.TempDir()
	f := placedRoot()
	f["proc/irq/31/affinity_hint"] = "00,0000002d\n"
	makeTree(t, root, f)
	r := runSh(t, work, nil, script, "--root", root, "--only", "irq")
	want := "tune.sh: warning: IRQ 31 dpio.3: its driver's affinity hint is CPU 0,2-3,5, the description expects CPU 3: the driver placed it in another order (test/board.cue:12)\n"
	if r.code != 0 || !strings.Contains(r.stderr, want) {
		t.Errorf("apply: want stderr %q\n%v", want, r)
	}
	if got := snapshot(t, root)["proc/irq/31/smp_affinity_list"]; got != "0,2-3,5\n" {
		t.Errorf("IRQ 31: smp_affinity_list %q, want the hint 0,2-3,5", got)
	}
}

// TestPlacementIsolatedHint: a driver's hint on an isolated CPU is not
// followed (dpio.3 hinted to CPU 5, which the board isolates): one
// missing item, the IRQ left where it is, the rest placed.
func TestPlacementIsolatedHint(t *testing.T) {
	t.Parallel()
	b := placedBoard()
	b.Policy.IsolatedCPUs = []int{5}
	s := tune.Script(b)
	if !strings.Contains(s, "# test/board.cue:40: isolated CPUs, where no driver hint is followed\nisolated_cpus='5'\n") {
		t.Errorf("tune.sh does not name the isolated CPUs:\n%s", s[:min(len(s), 2000)])
	}
	out := writeOutputs(t, tune.Emit(b))
	root, work := t.TempDir(), t.TempDir()
	makeTree(t, root, placedRoot())
	r := runSh(t, work, nil, filepath.Join(out, tune.ScriptFile), "--root", root)
	got := snapshot(t, root)
	if r.code != tune.ExitPartial ||
		!strings.Contains(r.stderr, "tune.sh: warning: IRQ 31 dpio.3: its driver's affinity hint is isolated CPU 5, not followed (test/board.cue:12)\n") ||
		got["proc/irq/31/smp_affinity_list"] != "0-39\n" || got["proc/irq/21/smp_affinity_list"] != "0\n" {
		t.Errorf("apply with dpio.3 hinted to isolated CPU 5: %v", r)
	}
	// Without isolation the same hint is followed.
	out = writeOutputs(t, tune.Emit(placedBoard()))
	root = t.TempDir()
	makeTree(t, root, placedRoot())
	runSh(t, work, nil, filepath.Join(out, tune.ScriptFile), "--root", root)
	if got := snapshot(t, root)["proc/irq/31/smp_affinity_list"]; got != "5\n" {
		t.Errorf("without isolation, dpio.3 is at %q, want its hint 5", got)
	}
}
