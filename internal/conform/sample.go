package conform

import (
	"path"
	"strings"
)

// Family returns the SoC family a board belongs to, for the sample: its
// directory under DTSDir (the vendor, with a sub-directory where the
// vendor has them: exynos/google) and the first dash-separated word of
// its file name, which upstream names after the SoC (imx8mp-evk:
// freescale/imx8mp; sun50i-h6-pine-h64: allwinner/sun50i; k3-am625-sk:
// ti/k3).
func Family(board string) string {
	dir, file := path.Split(board)
	stem := strings.TrimSuffix(file, ".dts")
	word, _, _ := strings.Cut(stem, "-")
	return dir + word
}

// Sample returns the boards of a fixed stratified sample: the first
// board, in sorted order, of every Family. It depends on the list of
// boards only, so that the same corpus always gives the same sample,
// and every vendor and SoC family is in it.
func Sample(boards []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, b := range boards {
		if f := Family(b); !seen[f] {
			seen[f] = true
			out = append(out, b)
		}
	}
	return out
}
