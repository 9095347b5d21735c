package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestRun lays out a small graph, and refuses text that is not DOT with
// a message and exit status 1.
func TestRun(t *testing.T) {
	var out, errw bytes.Buffer
	if code := run(strings.NewReader(`digraph g { a -> b; }`), &out, &errw); code != 0 {
		t.Fatalf("exit %d: %s", code, errw.String())
	}
	if !bytes.Contains(out.Bytes(), []byte("<svg")) || !bytes.Contains(out.Bytes(), []byte(">a</text>")) {
		t.Errorf("no SVG with node a:\n%s", out.String())
	}
	out.Reset()
	errw.Reset()
	if code := run(strings.NewReader(`digraph g { a -> `), &out, &errw); code != 1 {
		t.Errorf("bad DOT: exit %d, want 1", code)
	}
	if !strings.HasPrefix(errw.String(), "boardc-layout: ") || out.Len() != 0 {
		t.Errorf("bad DOT: stderr %q, stdout %d bytes", errw.String(), out.Len())
	}
}
