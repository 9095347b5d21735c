package main

import "testing"

// TestMakeEscape checks file names are escaped the way gcc writes them in
// depfiles and GNU make reads them back.
func TestMakeEscape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"boards/espressobin/board.cue", "boards/espressobin/board.cue"},
		{"my boards/board.cue", `my\ boards/board.cue`},
		{"a#b", `a\#b`},
		{"$x", "$$x"},
		{`a\ b`, `a\\\ b`},
		{"tab\there", "tab\\\there"},
	} {
		if got := makeEscape(tc.in); got != tc.want {
			t.Errorf("makeEscape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestExpandBoards checks that only a trailing "/..." expands.
func TestExpandBoards(t *testing.T) {
	got, err := expandBoards([]string{"../../boards/espressobin", "../../boards/..."})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"../../boards/espressobin", "../../boards/espressobin", "../../boards/ls2088a-rdb", "../../boards/mirabox", "../../boards/qemu-virt"}
	if len(got) != len(want) {
		t.Fatalf("expandBoards = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("expandBoards = %q, want %q", got, want)
		}
	}
	if got, _ := expandBoards([]string{"x..."}); len(got) != 1 || got[0] != "x..." {
		t.Errorf(`expandBoards("x...") = %q, want it unchanged`, got)
	}
	if _, err := expandBoards([]string{"testdata/..."}); err == nil {
		t.Error("a pattern matching no board is not an error")
	}
}
