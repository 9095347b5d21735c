package kextract

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"testing"
)

// The expressions the scanners of scan.go stand for.
var (
	reIdents = regexp.MustCompile(`[A-Za-z_]\w*`)
	reMember = regexp.MustCompile(`(?:->|\.)\s*([A-Za-z_]\w*)\s*$`)
	reCall   = regexp.MustCompile(`^([A-Za-z_]\w*)\s*\(.*\)$`)
)

// TestScannersAreTheirExpressions checks each scanner against its
// regular expression on the expressions below and on random strings
// over the bytes that matter to them (a multi-byte rune and a byte that
// is no UTF-8 among them).
func TestScannersAreTheirExpressions(t *testing.T) {
	inputs := []string{
		"", "x", "0x1f", "pdev->dev.dma_mask", "xhci->dma_mask_bits ", "a . b", "a->", "a.1b",
		"a. 9_x", "->b", "f(x)", "f (x)\n", "f\n(x)", "f(a\nb)", "f()", "f(", "f)", "9f(x)",
		"of_device_get_match_data(&pdev->dev)", "DMA_BIT_MASK(32)", "priv->hw->caps.width\t",
	}
	const alphabet = "aZ_09 \t\n\f\r\v.->()x$é\xff"
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		inputs = append(inputs, string(b))
	}
	for _, in := range inputs {
		if got, want := identifiers(in), reIdents.FindAllString(in, -1); !slices.Equal(got, want) {
			t.Fatalf("identifiers(%q) = %q, the expression finds %q", in, got, want)
		}
		start, name, ok := memberSuffix(in)
		if m := reMember.FindStringSubmatchIndex(in); (m != nil) != ok || ok && (start != m[0] || name != in[m[2]:m[3]]) {
			t.Fatalf("memberSuffix(%q) = %d, %q, %v; the expression matches at %v", in, start, name, ok, m)
		}
		name, ok = callee(in)
		if m := reCall.FindStringSubmatch(in); (m != nil) != ok || ok && name != m[1] {
			t.Fatalf("callee(%q) = %q, %v; the expression gives %q", in, name, ok, m)
		}
	}
}
