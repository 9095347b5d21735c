package diag

import "testing"

func TestSuggest(t *testing.T) {
	known := []string{"node", "compatible", "bus", "dma", "dmaBits", "driverSets", "coherency", "iommu", "driver", "enabled", "irqs", "irqCount", "irqAffinity", "netdev"}
	for _, c := range []struct{ name, want string }{
		{"driverSet", "driverSets"},  // one deletion
		{"compatibel", "compatible"}, // a swap is one edit
		{"Compatible", "compatible"}, // case alone
		{"irqAfinity", "irqAffinity"},
		{"cpu", ""},    // bus is two edits away: too far for three letters
		{"colour", ""}, // nothing near
		{"dmabits", "dmaBits"},
		{"netdevs", "netdev"},
		{"coherence", "coherency"}, // two edits in nine letters
	} {
		if got := Suggest(c.name, known); got != c.want {
			t.Errorf("Suggest(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}
