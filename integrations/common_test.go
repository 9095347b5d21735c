package integrations

import (
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/internal/intree"
)

// root is the repository's top directory, relative to this package.
const root = ".."

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func md5Hex(b []byte) string {
	s := md5.Sum(b)
	return hex.EncodeToString(s[:])
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// goModule returns the module path go.mod declares.
func goModule(t testing.TB) string {
	t.Helper()
	for _, l := range strings.Split(readFile(t, filepath.Join(root, "go.mod")), "\n") {
		if m, ok := strings.CutPrefix(l, "module "); ok {
			return strings.TrimSpace(m)
		}
	}
	t.Fatal("go.mod declares no module")
	return ""
}

// boardOutput compiles the in-tree board in boards/<dir> and writes its
// files to a new directory out/<board name>/, as boardc build -o out
// does. It returns out and the board's name.
func boardOutput(t *testing.T, dir string) (out, name string) {
	t.Helper()
	return boardOutputAt(t, filepath.Join(root, "boards", dir))
}

// boardOutputAt is boardOutput for the board in the directory path.
func boardOutputAt(t *testing.T, path string) (out, name string) {
	t.Helper()
	r := intree.Compile(t, path)
	out = t.TempDir()
	name = r.Board.Name
	for _, f := range r.Files {
		p := filepath.Join(out, name, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return out, name
}

// compiledBoard returns the lowered in-tree board in boards/<dir>.
func compiledBoard(t *testing.T, dir string) *ir.Board {
	t.Helper()
	return intree.Compile(t, filepath.Join(root, "boards", dir)).Board
}

// inTreeBoards lists the directories of the in-tree boards.
func inTreeBoards(t *testing.T) []string {
	t.Helper()
	var names []string
	for _, d := range intree.Dirs(t, filepath.Join(root, "boards")) {
		names = append(names, filepath.Base(d))
	}
	return names
}

// run runs a command and returns its combined output, failing the test
// when it fails.
func run(t testing.TB, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// localProxy returns a GOPROXY that serves modules from the local module
// cache of the go command gobin where it can, and from the Go proxy
// otherwise, so that a module download runs offline once the modules
// were downloaded.
func localProxy(gobin string) string {
	proxy := "https://proxy.golang.org"
	if local, err := exec.Command(gobin, "env", "GOMODCACHE").Output(); err == nil && len(strings.TrimSpace(string(local))) > 0 {
		proxy = "file://" + filepath.Join(strings.TrimSpace(string(local)), "cache", "download") + "," + proxy
	}
	return proxy
}
