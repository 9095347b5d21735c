package tune_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/outputs/tune"
)

// fakeEthtool stands for ethtool -l and -L on a synthesized root: the
// combined channel count of IF is in ROOT/ethtool/IF, and changing it
// creates or removes IF's rx-N queue directories as the kernel does.
const fakeEthtool = `#!/bin/sh
st=$BOARDC_ROOT/ethtool/$2
case $1 in
-l)
	c=$(cat "$st") || exit 1
	printf 'Channel parameters for %s:\nPre-set maximums:\nRX:\t\tn/a\nTX:\t\tn/a\nOther:\t\tn/a\nCombined:\t8\nCurrent hardware settings:\nRX:\t\tn/a\nTX:\t\tn/a\nOther:\t\tn/a\nCombined:\t%s\n' "$2" "$c"
	;;
-L)
	[ "$3" = combined ] || exit 1
	echo "$4" >"$st"
	echo "$*" >>"$BOARDC_ROOT/ethtool/calls"
	q=$BOARDC_ROOT/sys/class/net/$2/queues
	i=0
	while [ "$i" -lt 8 ]; do
		if [ "$i" -lt "$4" ]; then
			mkdir -p "$q/rx-$i"
			[ -e "$q/rx-$i/rps_cpus" ] || echo 0 >"$q/rx-$i/rps_cpus"
		else
			rm -rf "$q/rx-$i"
		fi
		i=$((i + 1))
	done
	;;
*) exit 1 ;;
esac
`

// TestRootChannels: channels set with ethtool -L before the queues are
// tuned (the queues it creates are not missing), verified, and restored
// last by --revert.
func TestRootChannels(t *testing.T) {
	t.Parallel()
	b := testBoard()
	b.Policy.IRQs, b.Policy.Sysctls = nil, nil
	b.SoC.Masters = []*ir.Master{{Key: "eth", NetDevs: []ir.NetDev{{Name: "eth0", RxQueues: 4, TxQueues: 4, ByName: true, Channels: true, Pos: at(9)}}}}
	b.Policy.Net = []ir.NetPolicy{{IfName: "eth0", RPS: [][]int{{0}, {1}, {2}, {3}}, RPSFlowCount: -1, Pos: at(20)}}
	b.ResolvePolicy()
	if s := tune.Script(b); !strings.Contains(s, "# test/board.cue:9: eth0 channels: 4 receive, 4 transmit, with ethtool -L\n\tchannels 4 4 'test/board.cue:9'\n") {
		t.Errorf("tune.sh:\n%s", s)
	}
	out := writeOutputs(t, tune.Emit(b))
	script := filepath.Join(out, tune.ScriptFile)
	root, work, bin := t.TempDir(), t.TempDir(), t.TempDir()
	makeTree(t, root, map[string]string{
		"proc/device-tree/compatible":             "vendor,testboard\x00",
		"sys/class/net/eth0/queues/rx-0/rps_cpus": "0\n",
		"ethtool/eth0":                            "1\n",
		"run/.keep":                               "",
	})
	orig := snapshot(t, root)
	if err := os.WriteFile(filepath.Join(bin, "ethtool"), []byte(fakeEthtool), 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"BOARDC_ROOT=" + root, "PATH=" + bin + ":" + os.Getenv("PATH")}
	run := func(args ...string) result { return runSh(t, work, env, script, args...) }

	if r := run("--dry-run"); r.code != 0 || !strings.Contains(r.stdout, "would set the channels of eth0 to combined 4, now combined 1 (test/board.cue:9)") {
		t.Errorf("dry-run: %v", r)
	}
	if r := run("--verify"); r.code != tune.ExitDrift || !strings.Contains(r.stdout, "drift: channels of eth0 are combined 1, want combined 4") {
		t.Errorf("verify before: %v", r)
	}
	r := run()
	if r.code != 0 || !strings.Contains(r.stdout, "set the channels of eth0 to combined 4, was combined 1") || !strings.Contains(r.stdout, "5 value(s) set") {
		t.Errorf("apply: %v", r)
	}
	got := snapshot(t, root)
	for i, w := range []string{"1", "2", "4", "8"} {
		if p := "sys/class/net/eth0/queues/rx-" + string(rune('0'+i)) + "/rps_cpus"; got[p] != w+"\n" {
			t.Errorf("%s = %q, want %s", p, got[p], w)
		}
	}
	if r := run("--verify"); r.code != 0 {
		t.Errorf("verify: %v", r)
	}
	if r := run(); r.code != 0 || !strings.Contains(r.stdout, "0 value(s) set") {
		t.Errorf("re-apply: %v", r)
	}
	if r := run("--revert"); r.code != 0 || !strings.HasSuffix(r.stdout, "restored the channels of eth0: combined 1\n") {
		t.Errorf("revert: %v", r)
	}
	got = snapshot(t, root)
	delete(got, "ethtool/calls")
	if d := treeDiff(orig, got); len(d) > 0 {
		t.Errorf("revert did not restore the root:\n%s", strings.Join(d, "\n"))
	}

	// Without ethtool: a warning naming the interface, and the queues it
	// would have made are missing; the rest is applied.
	r = runSh(t, work, []string{"BOARDC_ROOT=" + root, "PATH=" + filepath.Dir(lookSh(t))}, script, "--dry-run")
	if r.code != tune.ExitPartial || !strings.Contains(r.stderr, "tune.sh: warning: no ethtool to set the channels of eth0 to 4 receive, 4 transmit (test/board.cue:9)\n") ||
		!strings.Contains(r.stderr, "eth0/queues/rx-3/rps_cpus, skipped") || !strings.Contains(r.stdout, "would write 1 to /sys/class/net/eth0/queues/rx-0/rps_cpus") {
		t.Errorf("no ethtool: %v", r)
	}
}

// lookSh returns the path of sh, in a directory that, like /bin on a
// merged-/usr system, may hold other tools; the test checks that ethtool
// is not among them.
func lookSh(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, tool := range []string{"sh", "awk", "cat", "tr", "mkdir", "rm", "rmdir"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			t.Skipf("no %s", tool)
		}
		if err := os.Symlink(p, filepath.Join(dir, tool)); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "sh")
}
