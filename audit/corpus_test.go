package audit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardc.dev/boardc/internal/conform"
	"boardc.dev/boardc/internal/testtool"
)

// corpusRoot returns the extracted upstream corpus (../shared/corpus
// beside the repository, or $BOARDC_SHARED/corpus), laid out as a kernel
// tree. Where the tarball is absent the test skips naming its path, and
// fails under BOARDC_REQUIRE_SHARED=1, as internal/conform's does: the
// corpus is shared data beside the repository, not a tool a machine
// installs (scripts/test.sh requires it where the shared set is present).
func corpusRoot(t *testing.T) string {
	t.Helper()
	testtool.Look(t, "cpp", "cpp")
	testtool.Look(t, "dtc", "device-tree-compiler")
	shared := filepath.Join("..", "..", "shared")
	if e := os.Getenv("BOARDC_SHARED"); e != "" {
		shared = e
	}
	p := filepath.Join(shared, "corpus", conform.Tarball)
	if _, err := os.Stat(p); err != nil {
		what := p + " is not present (the upstream arm64 corpus; set BOARDC_SHARED to the directory holding corpus/)"
		if os.Getenv("BOARDC_REQUIRE_SHARED") == "1" {
			t.Fatal(what + " (BOARDC_REQUIRE_SHARED=1)")
		}
		t.Skip(what)
	}
	cp, err := conform.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	return cp.Root
}

// TestEIP97 rediscovers, from the SoC facts alone, the EIP97 crypto
// engine left non-coherent on every Armada 37xx board of Linux v7.1.
func TestEIP97(t *testing.T) {
	root := corpusRoot(t)
	boards, err := Boards(root)
	if err != nil {
		t.Fatal(err)
	}
	var srcs []Source
	for _, b := range boards {
		if strings.HasPrefix(b, "marvell/armada-37") {
			srcs = append(srcs, Source{Root: root, DTS: b})
		}
	}
	rep, err := Run(srcs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, b := range rep.Boards {
		if b.Err != "" {
			t.Errorf("%s: %s", b.Board, b.Err)
			continue
		}
		if b.Family != "armada-37xx" {
			continue
		}
		n++
		found := false
		for _, f := range b.Findings {
			if f.Class == Coherency && f.Path == "/soc/bus@d0000000/crypto@90000" {
				found = true
				if f.Source != "arch/arm64/boot/dts/marvell/armada-37xx.dtsi:428" || f.Label != "crypto" {
					t.Errorf("%s: the EIP97 finding is at %s (&%s), want armada-37xx.dtsi:428 (&crypto)", b.Board, f.Source, f.Label)
				}
			}
		}
		if !found {
			t.Errorf("%s: no coherency finding on the EIP97", b.Board)
		}
	}
	// Linux v7.1 has 11 Armada 3720 boards.
	if n != 11 {
		t.Errorf("%d Armada 37xx boards, want 11", n)
	}
}
