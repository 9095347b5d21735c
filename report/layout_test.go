package report_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"boardc.dev/boardc/internal/testtool"
)

// The layout program is boardc-layout, built from its own module
// (cmd/boardc-layout, which holds the Graphviz engine so that this
// module does not require it) once per test binary into layoutDir.
var (
	layoutDir  string // removed when the tests end
	layoutOnce sync.Once
	layoutBin  string
	layoutErr  error
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "boardc-report-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	layoutDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// layoutSVG lays out dot as boardc report does: it runs boardc-layout
// with dot on standard input, its engine's compilation cache in a
// directory of the tests' own ($TMPDIR), and returns the SVG it prints.
// Without the go command to build the program, the test skips, or fails
// under BOARDC_REQUIRE_TOOLS=1; a failing build fails it.
func layoutSVG(t testing.TB, dot []byte) ([]byte, error) {
	t.Helper()
	gobin := testtool.Look(t, "go", "golang-go")
	layoutOnce.Do(func() {
		bin := filepath.Join(layoutDir, "bin", "boardc-layout")
		cmd := exec.Command(gobin, "build", "-C", filepath.Join("..", "cmd", "boardc-layout"), "-o", bin, ".")
		if out, err := cmd.CombinedOutput(); err != nil {
			layoutErr = fmt.Errorf("go build boardc-layout: %v\n%s", err, out)
			return
		}
		cache := filepath.Join(layoutDir, "cache")
		if layoutErr = os.MkdirAll(cache, 0o700); layoutErr == nil {
			layoutBin = bin
		}
	})
	if layoutErr != nil {
		t.Fatal(layoutErr)
	}
	cmd := exec.Command(layoutBin)
	cmd.Env = append(os.Environ(), "TMPDIR="+filepath.Join(layoutDir, "cache"))
	cmd.Stdin = bytes.NewReader(dot)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("boardc-layout: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return out.Bytes(), nil
}

// TestLayoutProgram: the program lays out DOT as SVG, and refuses text
// that is not DOT with its message, so that the tests' layoutSVG reports
// the program's errors.
func TestLayoutProgram(t *testing.T) {
	svg, err := layoutSVG(t, []byte(`digraph g { a -> b; }`))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(svg, []byte("<svg")) || !bytes.Contains(svg, []byte(">a</text>")) {
		t.Errorf("no SVG with node a:\n%s", svg)
	}
	_, err = layoutSVG(t, []byte(`digraph g { a -> `))
	if err == nil || !strings.Contains(err.Error(), "exit status 1: boardc-layout: parsing the DOT: ") {
		t.Errorf("DOT cut short: error %v, want the program's exit status and message", err)
	}
}
