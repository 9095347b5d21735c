package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"boardc.dev/boardc/compiler/load"
)

// TestRegistryOff checks that a module whose deps a board imports fails
// at once with a diagnostic naming the switch, without a request to the
// registry CUE_REGISTRY names, and that BOARDC_CUE_REGISTRY=1 lets CUE
// ask it.
func TestRegistryOff(t *testing.T) {
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		http.NotFound(w, r)
	}))
	defer srv.Close()
	t.Setenv("CUE_REGISTRY", strings.TrimPrefix(srv.URL, "http://")+"+insecure")
	t.Setenv("CUE_CACHE_DIR", t.TempDir())

	dir := t.TempDir()
	setTree(t, dir)
	mod := setModule + "deps: \"example.org/dtfacts@v0\": v: \"v0.1.0\"\n"
	if err := os.WriteFile(filepath.Join(dir, "cue.mod", "module.cue"), []byte(mod), 0o644); err != nil {
		t.Fatal(err)
	}
	board := filepath.Join(dir, "a", "board.cue")
	src, err := os.ReadFile(board)
	if err != nil {
		t.Fatal(err)
	}
	src = bytes.Replace(src, []byte(`import "example.com/boards/soc/tinysoc"`), []byte("import (\n\t\"example.com/boards/soc/tinysoc\"\n\t\"example.org/dtfacts\"\n)\n\nfacts: dtfacts.x"), 1)
	if err := os.WriteFile(board, src, 0o644); err != nil {
		t.Fatal(err)
	}

	var stderr bytes.Buffer
	code := runWith([]string{"vet", filepath.Join(dir, "a")}, &bytes.Buffer{}, &stderr)
	want := board + `:5:2: error: example.com/boards/a@v0: import failed: cannot find package "example.org/dtfacts": cannot fetch example.org/dtfacts@v0.1.0: module example.org/dtfacts@v0.1.0 is a dependency and boardc does not fetch CUE modules from a registry unless BOARDC_CUE_REGISTRY=1 is set [BC0001]
boardc vet: ` + filepath.Join(dir, "a") + `: 1 error, 0 warnings, 0 infos; 0 checks ran
`
	if code != exitDiags || stderr.String() != want {
		t.Errorf("exit %d, stderr:\n%s\nwant exit %d, stderr:\n%s", code, stderr.String(), exitDiags, want)
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("%d request(s) to the registry", n)
	}

	t.Setenv("BOARDC_CUE_REGISTRY", "1")
	stderr.Reset()
	if code := runWith([]string{"vet", filepath.Join(dir, "a")}, &bytes.Buffer{}, &stderr); code != exitDiags {
		t.Errorf("with the registry on: exit %d, want %d\n%s", code, exitDiags, stderr.String())
	}
	if requests.Load() == 0 {
		t.Errorf("BOARDC_CUE_REGISTRY=1 did not let CUE ask the registry:\n%s", stderr.String())
	}
	if help := string(runOK(t, "--help")); !strings.Contains(help, load.RegistryEnv+"=1 lets CUE") {
		t.Errorf("boardc --help does not document %s:\n%s", load.RegistryEnv, help)
	}
}
