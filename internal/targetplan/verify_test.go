package main

import (
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/internal/intree"
	"github.com/google/go-cmp/cmp"
)

// TestVerifyLS2088A: the bus DMA limits of LS2088A-RDB's masters come from
// /soc's 48-bit dma-ranges, and from /soc/bus's 40-bit one for the USB
// controllers under it; the widths are the drivers' (driverSets widths),
// the fsl-mc objects' narrowed to 48 bits; the DPIO count is the
// description's.
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
widths crypto 32,40,49 32,40,49 any any
widths fsl_mc any any 48 48
widths sata0 32,64 32,64 any any
widths sata1 32,64 32,64 any any
widths smmu 32,36,40,42,44,48 32,36,40,42,44,48 any any
widths usb0 32,64 32,64 any any
widths usb1 32,64 32,64 any any
dpio 8
`
	if diff := cmp.Diff(want, s.String()); diff != "" {
		t.Errorf("verify records (-want +got):\n%s", diff)
	}
}

// TestAcceptWidths covers each way the verifier's accepted widths are
// decided, the split coherent mask included.
func TestAcceptWidths(t *testing.T) {
	bus := &ir.Bus{}
	for _, tc := range []struct {
		m    *ir.Master
		want string
	}{
		{&ir.Master{Bus: bus, DMABits: 40, CoherentBits: 32}, "40 32 any any"},
		{&ir.Master{Bus: bus, DMABits: 48, DriverSets: &ir.DriverSet{}}, "any any any any"},
		{&ir.Master{Bus: bus, DMABits: 48, DriverSets: &ir.DriverSet{Widths: []int{32, 64}}}, "32,64 32,64 any any"},
		{&ir.Master{Bus: bus, DMABits: 64, CoherentBits: 44, DriverSets: &ir.DriverSet{Widths: []int{64}}}, "64 44 any any"},
		{&ir.Master{Bus: bus, DMABits: 64, DriverSets: &ir.DriverSet{Children: true}}, "any any 64 64"},
	} {
		d, c, bd, bc := acceptWidths(tc.m)
		if got := strings.Join([]string{d, c, bd, bc}, " "); got != tc.want {
			t.Errorf("acceptWidths(%+v) = %s, want %s", tc.m, got, tc.want)
		}
	}
}
