package boardc_test

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc"
)

// TestExpand checks that only a trailing "/..." expands, to the in-tree
// boards in lexical order, and that a pattern matching no board is an
// error naming it.
func TestExpand(t *testing.T) {
	got, err := boardc.Expand([]string{"boards/espressobin", "boards/..."})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"boards/espressobin", "boards/espressobin", "boards/ls2088a-rdb", "boards/mirabox", "boards/qemu-virt"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Expand (-want +got):\n%s", diff)
	}
	if got, _ := boardc.Expand([]string{"x..."}); len(got) != 1 || got[0] != "x..." {
		t.Errorf(`Expand("x...") = %q, want it unchanged`, got)
	}
	empty := filepath.Join(t.TempDir(), "...")
	if _, err := boardc.Expand([]string{empty}); err == nil || err.Error() != empty+": no board found" {
		t.Errorf("a pattern matching no board: %v", err)
	}
}
