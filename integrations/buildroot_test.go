package integrations

import (
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"

	"boardc.dev/boardc/outputs"
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
	var m struct {
		Files []struct{ Path string }
	}
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(out, name, "manifest.json"))), &m); err != nil {
		t.Fatal(err)
	}
	files := map[string]bool{}
	for _, f := range m.Files {
		files[f.Path] = true
	}
	return files
}

// TestBuildrootInstall runs boardc-tune's install script on the outputs
// of every in-tree board, and of a board with isolated CPUs, for each of
// its parts: it must install exactly the files the board produces, with
// their modes, where the generated files expect each other (the paths
// and units they name are installed), and nothing for mirabox, which has
// nothing to tune.
func TestBuildrootInstall(t *testing.T) {
	script, err := filepath.Abs(filepath.Join(brTree, "package", "boardc-tune", "boardc-tune-install"))
	if err != nil {
		t.Fatal(err)
	}
	for name, dir := range tuneBoardDirs(t) {
		t.Run(name, func(t *testing.T) {
			out, got := boardOutputAt(t, dir)
			if got != name {
				t.Fatalf("%s compiles to board %s", dir, got)
			}
			tf := tuneBoards[name]
			checkTuneFiles(t, name, tf, manifestFiles(t, out, name))
			gen := filepath.Join(out, name)
			for _, part := range []string{"files", "sysv", "systemd"} {
				dest := t.TempDir()
				msg := run(t, ".", nil, script, out, dest, part)
				want := ""
				if !tf.tune && part == "files" {
					want = "boardc-tune: board " + name + " produces no tune.sh: no runtime tuning to install\n"
				}
				if msg != want {
					t.Errorf("%s: output %q, want %q", part, msg, want)
				}
				checkInstalled(t, part, dest, gen, wantTune(buildrootLayout, name, tf, part))
			}
			// What each init system's image holds.
			for _, init := range []string{"sysv", "systemd"} {
				dest := t.TempDir()
				run(t, ".", nil, script, out, dest, "files")
				run(t, ".", nil, script, out, dest, init)
				n := checkRefs(t, init, dest)
				if tf.tune && n == 0 {
					t.Errorf("%s: the installed files refer to nothing: the reference check checked nothing", init)
				}
			}
		})
	}
}

// TestBuildrootInstallRefuses checks the install script's errors: an
// output directory without a board, or with two, a board with tune.sh
// but without the init script or the unit to run it, and a bad part.
func TestBuildrootInstallRefuses(t *testing.T) {
	script := filepath.Join(brTree, "package", "boardc-tune", "boardc-tune-install")
	// manifest writes a manifest as boardc does (outputs.Manifest.Encode).
	manifest := func(dir, board string, files ...string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(dir, board), 0o755); err != nil {
			t.Fatal(err)
		}
		m := outputs.Manifest{Board: board, Emitters: []string{"tune"}, Inputs: []string{board + "/board.cue"}, Schema: 2}
		for _, f := range files {
			m.Files = append(m.Files, outputs.ManifestFile{Path: f, SHA256: sha256Hex([]byte(f))})
		}
		if err := os.WriteFile(filepath.Join(dir, board, "manifest.json"), m.Encode(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	empty := t.TempDir()
	two := t.TempDir()
	manifest(two, "a", "tune.sh")
	manifest(two, "b", "tune.sh")
	bare := t.TempDir()
	manifest(bare, "x", "tune.sh", "x.dtsi")
	for _, c := range []struct {
		out, part, want string
		status          int
	}{
		{empty, "files", "boardc-tune: " + empty + " holds no board manifest, or more than one\n", 1},
		{two, "files", "boardc-tune: " + two + " holds no board manifest, or more than one\n", 1},
		{bare, "sysv", "boardc-tune: board x produces tune.sh but no init.d/S??* script (" + bare + "/x/manifest.json)\n", 1},
		{bare, "systemd", "boardc-tune: board x produces tune.sh but no boardc-tune-x.service (" + bare + "/x/manifest.json)\n", 1},
		{bare, "openrc", "usage: " + script + " OUTDIR DESTDIR files|sysv|systemd\n", 2},
	} {
		dest := t.TempDir()
		cmd := exec.Command(script, c.out, dest, c.part)
		got, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != c.status {
			t.Errorf("%s %s: exit %v, want %d", c.out, c.part, err, c.status)
		}
		if string(got) != c.want {
			t.Errorf("%s %s: got %q, want %q", c.out, c.part, got, c.want)
		}
		if left := installed(t, dest); len(left) != 0 {
			t.Errorf("%s %s: installed %v", c.out, c.part, left)
		}
	}
}
