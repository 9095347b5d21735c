package c_test

import (
	"fmt"
	"math/bits"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/internal/intree"
	"boardc.dev/boardc/outputs/c"
)

var (
	capsDef  = regexp.MustCompile(`(?m)^static const struct boardc_dma_caps (\w+) __maybe_unused = \{\n\t\.streaming_bits = (\d+),\n\t\.coherent_bits = (\d+),\n\};$`)
	tableRow = regexp.MustCompile(`(?m)^\t\{ \.compatible = "([^"]*)", \.data = &(\w+) \},$`)
)

// bitMask is DMA_BIT_MASK(n) (include/linux/dma-mapping.h).
func bitMask(n int) uint64 {
	if n >= 64 {
		return ^uint64(0)
	}
	return 1<<n - 1
}

// kernelMask is the mask, streaming and coherent alike, the kernel leaves
// on a master's platform device when no driver sets one: DMA_BIT_MASK(32)
// (of_platform_device_create_pdata(), drivers/of/platform.c; dma_mask
// from platform_device_alloc(), drivers/base/platform.c), anded by
// of_dma_configure_id() (drivers/of/device.c) with
// DMA_BIT_MASK(ilog2(end) + 1), end the top of the dma-ranges above it.
func kernelMask(m *ir.Master) uint64 {
	mask := bitMask(32)
	if end, _ := m.BusDMALimit(); end != 0 {
		mask &= bitMask(bits.Len64(end))
	}
	return mask
}

// noOpEntries reads the entries of a board's generated header and returns
// those that change nothing: every enabled master without driver-set
// masks that carries the entry's compatible already has both masks from
// the kernel, or no such master carries it.
func noOpEntries(b *ir.Board, header string) []string {
	widths := map[string][2]int{}
	for _, m := range capsDef.FindAllStringSubmatch(header, -1) {
		s, _ := strconv.Atoi(m[2])
		co, _ := strconv.Atoi(m[3])
		widths[m[1]] = [2]int{s, co}
	}
	var out []string
	for _, row := range tableRow.FindAllStringSubmatch(header, -1) {
		w, ok := widths[row[2]]
		if !ok {
			out = append(out, row[1]+": no definition of "+row[2])
			continue
		}
		changes, covered := false, 0
		for _, m := range b.SoC.Masters {
			if !m.Enabled || m.DriverSets != nil || !slices.Contains(m.Compatible, row[1]) {
				continue
			}
			covered++
			if k := kernelMask(m); bitMask(w[0]) != k || bitMask(w[1]) != k {
				changes = true
			}
		}
		if !changes {
			out = append(out, fmt.Sprintf("%s: %d/%d bits, what the kernel gives its %d master(s)", row[1], w[0], w[1], covered))
		}
	}
	return out
}

// TestNoOpEntries: no in-tree board's header holds an entry that leaves
// every master it covers as the kernel has it. The same reading of a
// header finds the no-op entry of a header written the way the C once
// was, an entry for every master, and the entry of a board that needs
// one.
func TestNoOpEntries(t *testing.T) {
	entries := 0
	for _, b := range intree.Boards(t, "../../boards") {
		h := headerOf(t, b)
		for _, e := range noOpEntries(b, h) {
			t.Errorf("%s: an entry that changes nothing: %s", b.Name, e)
		}
		entries += len(tableRow.FindAllString(h, -1))
		t.Logf("%s: %d entries, %d masters covered", b.Name, len(tableRow.FindAllString(h, -1)), len(c.Covered(b)))
	}
	t.Logf("%d entries over the in-tree boards", entries)

	// The mirabox header with the 32-bit entry of mvneta that the C once
	// carried for it (the kernel's own masks) spliced into its table.
	var mirabox *ir.Board
	for _, b := range intree.Boards(t, "../../boards") {
		if b.Name == "mirabox" {
			mirabox = b
		}
	}
	if mirabox == nil {
		t.Fatal("no in-tree board mirabox")
	}
	h := headerOf(t, mirabox)
	old := "static const struct boardc_dma_caps old_neta __maybe_unused = {\n\t.streaming_bits = 32,\n\t.coherent_bits = 32,\n};\n"
	h = strings.Replace(h, "\t{ }\n};", "\t{ .compatible = \"marvell,armada-370-neta\", .data = &old_neta },\n\t{ }\n};", 1) + old
	if got := noOpEntries(mirabox, h); len(got) != 1 || !strings.HasPrefix(got[0], "marvell,armada-370-neta: 32/32 bits") {
		t.Errorf("the no-op entry of the old header was not found: %q", got)
	}
	split := intree.Compile(t, "../../testdata/cases/dma-split").Board
	hs := headerOf(t, split)
	if n := len(tableRow.FindAllString(hs, -1)); n != 1 {
		t.Errorf("dma-split: %d entries, want its 40/32 master's", n)
	}
	if got := noOpEntries(split, hs); len(got) != 0 {
		t.Errorf("dma-split: no-op entries %q", got)
	}
}

// headerOf returns the board's generated header.
func headerOf(t *testing.T, b *ir.Board) string {
	t.Helper()
	for _, f := range c.Emit(b) {
		if f.Path == c.HeaderName(b) {
			return string(f.Data)
		}
	}
	t.Fatalf("%s: no header", b.Name)
	return ""
}
