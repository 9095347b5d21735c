package check

import (
	"testing"

	"boardc.dev/boardc/compiler/diag"
)

func TestDPIOIDs(t *testing.T) {
	for _, tc := range []struct {
		name string
		ids  []int
		want string
		line int
	}{
		{"0 and 1", []int{0, 1}, "", 0},
		{"a gap", []int{0, 2}, "DPIO id 2 leaves a gap: id 1 is not declared, and DPIO ids must run from 0 without one", 31},
		{"starting at 2", []int{2, 3}, "DPIO id 2 leaves a gap: ids 0-1 are not declared, and DPIO ids must run from 0 without one", 30},
		{"a duplicate is BC0301's", []int{0, 0}, "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := board()
			for i, id := range tc.ids {
				b.SoC.DPAA2.DPIOs[i].ID = id
			}
			finish(b)
			got := only(Run(b), "BC0305")
			if tc.want == "" {
				if len(got) != 0 {
					t.Fatalf("findings %v, want none", got)
				}
				return
			}
			if len(got) != 1 || got[0].Message != tc.want || got[0].Pos.Line != tc.line || got[0].Severity != diag.Error {
				t.Fatalf("got %v, want one error %q at line %d", got, tc.want, tc.line)
			}
		})
	}
}
