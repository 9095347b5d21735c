package main

import (
	"strings"
	"testing"

	"boardc.dev/boardc/internal/intree"
	"github.com/google/go-cmp/cmp"
)

// TestVerifyLS2088A: the bus DMA limits of LS2088A-RDB's masters come from
// /soc's 48-bit dma-ranges, and from /soc/bus's 40-bit one for the USB
// controllers under it; the DPIO count is the description's.
func TestVerifyLS2088A(t *testing.T) {
	r := intree.Compile(t, "../../boards/ls2088a-rdb")
	var s strings.Builder
	writeVerify(&s, r.Board)
	want := `limit crypto 0xffffffffffff 0xffffffffffff
limit fsl_mc 0xffffffffffff 0xffffffffffff
limit sata0 0xffffffffffff 0xffffffffffff
limit sata1 0xffffffffffff 0xffffffffffff
limit smmu 0xffffffffffff 0xffffffffffff
limit usb0 0xffffffffff 0xffffffffff
limit usb1 0xffffffffff 0xffffffffff
dpio 8
`
	if diff := cmp.Diff(want, s.String()); diff != "" {
		t.Errorf("verify records (-want +got):\n%s", diff)
	}
}
