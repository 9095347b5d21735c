package tune_test

import (
	"path/filepath"
	"strings"
	"testing"

	"boardc.dev/boardc/outputs/tune"
)

// initCase is the test board's outputs and a synthesized root, with the
// init files pointed at the generated tune.sh (BOARDC_TUNE) and the root
// (BOARDC_ROOT).
type initCase struct {
	out, root, work string
	env             []string
	orig            map[string]string
}

func newInitCase(t *testing.T) *initCase {
	t.Helper()
	c := &initCase{out: writeOutputs(t, tune.Emit(testBoard())), root: t.TempDir(), work: t.TempDir()}
	makeTree(t, c.root, fakeRoot())
	c.orig = snapshot(t, c.root)
	c.env = []string{"BOARDC_ROOT=" + c.root, "BOARDC_TUNE=" + filepath.Join(c.out, tune.ScriptFile)}
	return c
}

// TestSysvInit runs the S-script as BusyBox's rcS and sysvinit do: start
// applies (items missing still count as started), status verifies, stop
// reverts.
func TestSysvInit(t *testing.T) {
	t.Parallel()
	c := newInitCase(t)
	s := filepath.Join(c.out, "init.d/S40boardc-tune-testboard")
	if r := runSh(t, c.work, c.env, s, "start"); r.code != 0 || !strings.Contains(r.stdout, "16 value(s) set") {
		t.Errorf("start: %v", r)
	}
	if r := runSh(t, c.work, c.env, s, "status"); r.code != 0 || !strings.Contains(r.stdout, "no drift") {
		t.Errorf("status: %v", r)
	}
	if r := runSh(t, c.work, c.env, s, "stop"); r.code != 0 {
		t.Errorf("stop: %v", r)
	}
	if d := treeDiff(c.orig, snapshot(t, c.root)); len(d) > 0 {
		t.Errorf("stop did not restore the root:\n%s", strings.Join(d, "\n"))
	}
	// An interface missing at boot: started all the same, the rest applied.
	c = newInitCase(t)
	makeTree(t, c.root, map[string]string{"proc/interrupts": interruptsHeader})
	if r := runSh(t, c.work, c.env, s, "start"); r.code != 0 || !strings.Contains(r.stderr, "no IRQ named 'eth0'") {
		t.Errorf("start with the IRQs missing: %v", r)
	}
	if r := runSh(t, c.work, c.env, s, "bogus"); r.code != 2 {
		t.Errorf("bogus: %v", r)
	}
}

// TestOpenWrt runs the procd init script as /etc/rc.common does (sourced,
// then start_service or stop_service) and the hotplug.d script as procd
// does on an interface's uevent.
func TestOpenWrt(t *testing.T) {
	t.Parallel()
	c := newInitCase(t)
	rc := filepath.Join(c.work, "rc.common")
	makeTree(t, c.work, map[string]string{"rc.common": `. "$1"
case $2 in
start) start_service ;;
stop) stop_service ;;
esac
`})
	initScript := filepath.Join(c.out, "openwrt/init.d/boardc-tune-testboard")
	if r := runSh(t, c.work, c.env, rc, initScript, "start"); r.code != 0 || !strings.Contains(r.stdout, "16 value(s) set") {
		t.Errorf("start: %v", r)
	}
	if r := runSh(t, c.work, c.env, rc, initScript, "stop"); r.code != 0 {
		t.Errorf("stop: %v", r)
	}
	if d := treeDiff(c.orig, snapshot(t, c.root)); len(d) > 0 {
		t.Errorf("stop did not restore the root:\n%s", strings.Join(d, "\n"))
	}

	hotplug := filepath.Join(c.out, "openwrt/hotplug.d/net/90-boardc-testboard")
	if r := runSh(t, c.work, append(c.env, "ACTION=remove", "INTERFACE=eth0"), hotplug); r.code != 0 || r.stdout != "" {
		t.Errorf("remove: %v", r)
	}
	if d := treeDiff(c.orig, snapshot(t, c.root)); len(d) > 0 {
		t.Errorf("a remove event changed the root:\n%s", strings.Join(d, "\n"))
	}
	r := runSh(t, c.work, append(c.env, "ACTION=add", "INTERFACE=eth0"), hotplug)
	if r.code != 0 || !strings.Contains(r.stdout, "6 value(s) set") {
		t.Errorf("add eth0: %v", r)
	}
	got := snapshot(t, c.root)
	if got["sys/class/net/eth0/queues/rx-0/rps_cpus"] != "3\n" || got["proc/sys/net/core/netdev_budget"] != c.orig["proc/sys/net/core/netdev_budget"] ||
		got["proc/irq/21/smp_affinity_list"] != c.orig["proc/irq/21/smp_affinity_list"] {
		t.Error("the hotplug script did more or less than the interface's queues")
	}
	if r := runSh(t, c.work, append(c.env, "ACTION=add", "INTERFACE=wlan0"), hotplug); r.code != 0 || !strings.Contains(r.stdout, "wlan0 is not an interface of board testboard") {
		t.Errorf("add wlan0: %v", r)
	}
	// A rename is a move event under the new name: tuned again.
	if r := runSh(t, c.work, append(c.env, "ACTION=move", "INTERFACE=eth0"), hotplug); r.code != 0 || !strings.Contains(r.stdout, "0 value(s) set, 6 already in place") {
		t.Errorf("move eth0: %v", r)
	}
}

// TestInitShellcheck: every generated script passes shellcheck.
func TestInitShellcheck(t *testing.T) {
	shellcheck(t, tune.Emit(testBoard()))
}
