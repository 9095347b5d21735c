package integrations

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc/internal/testtool"
)

// brTree is the br2-external tree, relative to this package.
var brTree = filepath.Join("buildroot")

// installed lists the regular files and symlinks under dir with their
// permission bits, as "path mode".
func installed(t *testing.T, dir string) []string {
	t.Helper()
	var got []string
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		fi, err := e.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		got = append(got, rel+" "+fi.Mode().Perm().String())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(got)
	return got
}

// manifestFiles reads the file list of out/<name>/manifest.json the way
// the install script must not: with Go, independently.
func manifestFiles(t *testing.T, out, name string) map[string]bool {
	t.Helper()
	files := map[string]bool{}
	err := filepath.WalkDir(filepath.Join(out, name), func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(filepath.Join(out, name), p)
		files[filepath.ToSlash(rel)] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestBuildrootInstall runs boardc-tune's install script on the outputs
// of every in-tree board: it must install exactly the runtime files the
// board produces (ls2088a-rdb has no sysctl.d file, mirabox no
// irqbalance policy), and the init script or unit of each init system.
func TestBuildrootInstall(t *testing.T) {
	testtool.Look(t, "jq", "jq")
	script, err := filepath.Abs(filepath.Join(brTree, "package", "boardc-tune", "boardc-tune-install"))
	if err != nil {
		t.Fatal(err)
	}
	withoutPolicy, withoutSysctl := 0, 0
	for _, dir := range inTreeBoards(t) {
		t.Run(dir, func(t *testing.T) {
			out, name := boardOutput(t, dir)
			files := manifestFiles(t, out, name)
			lib := "usr/libexec/boardc/" + name + "/"
			var want []string
			want = append(want, lib+"tune.sh -rwxr-xr-x")
			if files["irqbalance-policy.sh"] {
				want = append(want, lib+"irqbalance-policy.sh -rwxr-xr-x")
			}
			hasSysctl := false
			for f := range files {
				if strings.HasPrefix(f, "sysctl.d/") {
					want = append(want, "usr/lib/"+f+" -rw-r--r--")
					hasSysctl = true
				}
			}
			sort.Strings(want)
			for _, c := range []struct {
				what string
				want []string
			}{
				{"files", want},
				{"sysv", []string{"etc/init.d/S39boardc-tune -rwxr-xr-x"}},
				{"systemd", []string{"usr/lib/systemd/system/boardc-tune-" + name + ".service -rw-r--r--"}},
			} {
				dest := t.TempDir()
				run(t, ".", nil, script, out, dest, c.what)
				if d := cmp.Diff(c.want, installed(t, dest)); d != "" {
					t.Errorf("%s: installed files (-want +got):\n%s", c.what, d)
				}
			}
			if !files["irqbalance-policy.sh"] {
				withoutPolicy++
			}
			if !hasSysctl {
				withoutSysctl++
			}
		})
	}
	// The point of reading the manifest: boards differ in what they have.
	if withoutPolicy == 0 || withoutSysctl == 0 {
		t.Errorf("%d boards without an irqbalance policy, %d without a sysctl.d file: want some of each among the in-tree boards", withoutPolicy, withoutSysctl)
	}
}

// TestBuildrootInstallRefuses checks the install script's errors: an
// output directory without a board, or with two, and a board without
// tune.sh.
func TestBuildrootInstallRefuses(t *testing.T) {
	testtool.Look(t, "jq", "jq")
	script := filepath.Join(brTree, "package", "boardc-tune", "boardc-tune-install")
	empty := t.TempDir()
	two := t.TempDir()
	for _, b := range []string{"a", "b"} {
		if err := os.MkdirAll(filepath.Join(two, b), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(two, b, "manifest.json"), []byte(`{"board":"`+b+`","files":[{"path":"tune.sh"}]}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	notune := t.TempDir()
	if err := os.MkdirAll(filepath.Join(notune, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(notune, "x", "manifest.json"), []byte(`{"board":"x","files":[{"path":"x.dtsi"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		out, want string
	}{
		{empty, "boardc-tune: " + empty + " holds no board manifest, or more than one\n"},
		{two, "boardc-tune: " + two + " holds no board manifest, or more than one\n"},
		{notune, "boardc-tune: board x produces no tune.sh (" + notune + "/x/manifest.json)\n"},
	} {
		cmd := exec.Command(script, c.out, t.TempDir(), "files")
		got, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Errorf("%s: exit %v, want 1", c.out, err)
		}
		if string(got) != c.want {
			t.Errorf("%s: got %q, want %q", c.out, got, c.want)
		}
	}
}
