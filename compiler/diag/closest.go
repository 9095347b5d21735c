package diag

import (
	"sort"
	"strings"
)

// Closest returns the element of known nearest to name by edit distance,
// when it is near enough to be a misspelling, or "".
func Closest(name string, known []string) string {
	known = append([]string(nil), known...)
	sort.Strings(known)
	best, bestD := "", len(name)/2+2
	for _, k := range known {
		if d := editDistance(name, k); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// Suggest returns the element of known a misspelt name most likely
// meant, or "": the nearest by Damerau-Levenshtein distance (a swap of
// two neighbours is one edit), when that is small for the name's
// length: one edit up to 4 characters, two up to 8, three beyond. Case
// alone is no edit. Ties go to the first in sorted order.
func Suggest(name string, known []string) string {
	limit := 3
	switch n := len(name); {
	case n <= 4:
		limit = 1
	case n <= 8:
		limit = 2
	}
	known = append([]string(nil), known...)
	sort.Strings(known)
	best, bestD := "", limit+1
	for _, k := range known {
		if k == name {
			continue
		}
		if d := damerau(strings.ToLower(name), strings.ToLower(k)); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// damerau is the optimal string alignment distance between a and b:
// Levenshtein's insertions, deletions and substitutions, and swaps of
// two neighbouring bytes.
func damerau(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
