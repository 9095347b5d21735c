package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFindLayout: $BOARDC_LAYOUT wins, then PATH (the test binary has no
// boardc-layout beside it); without either the error says how to install
// the program.
func TestFindLayout(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, layoutProgram)
	if err := os.WriteFile(prog, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("BOARDC_LAYOUT", "/opt/layout")
	t.Setenv("PATH", dir)
	if p, err := findLayout(); err != nil || p != "/opt/layout" {
		t.Errorf("with BOARDC_LAYOUT: %q, %v", p, err)
	}
	t.Setenv("BOARDC_LAYOUT", "")
	if p, err := findLayout(); err != nil || p != prog {
		t.Errorf("on PATH: %q, %v; want %s", p, err, prog)
	}
	t.Setenv("PATH", t.TempDir())
	_, err := findLayout()
	const want = "boardc-layout not found beside boardc nor on PATH; install it with: go install boardc.dev/boardc/cmd/boardc-layout@latest"
	if err == nil || err.Error() != want {
		t.Errorf("without it: %v; want %s", err, want)
	}
}
