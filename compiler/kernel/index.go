package kernel

import (
	"bufio"
	"fmt"
	"io"
	"iter"
	"slices"
	"strconv"
	"strings"
)

// A catalogue ships with an index beside it, data/linux-SERIES.index: a
// line per compatible, in byte order, with the byte at which the first
// driver listing it starts in the catalogue. Lookup binary-searches the
// index text where it is embedded and decodes only the drivers it
// returns: a process reads a few pages of the index and of the
// catalogue, and builds no table. TestShippedIndex holds each index to
// the one WriteIndex writes from its catalogue.

// indexHeader is the first line of an index.
const indexHeader = "# boardc driver index: a line per compatible, in byte order, and the byte its first driver starts at\n"

// IndexName is the name of a series' index in compiler/kernel/data.
func IndexName(series string) string { return "linux-" + series + ".index" }

// WriteIndex writes the index of a catalogue's text, which must be as
// Encode writes it.
func WriteIndex(w io.Writer, text string) error {
	ix, err := scan(text)
	if err != nil {
		return err
	}
	first := map[string]int{}
	for i, cs := range ix.compats {
		for _, c := range cs {
			if c == "" || strings.ContainsAny(c, " \t\r\n") {
				return fmt.Errorf("driver %d: compatible %q cannot be indexed", i, c)
			}
			if _, dup := first[c]; !dup {
				first[c] = ix.starts[i]
			}
		}
	}
	keys := make([]string, 0, len(first))
	for c := range first {
		keys = append(keys, c)
	}
	slices.Sort(keys)
	b := bufio.NewWriter(w)
	b.WriteString(indexHeader)
	for _, c := range keys {
		fmt.Fprintf(b, "%s %d\n", c, first[c])
	}
	return b.Flush()
}

// find returns the byte at which the first driver listing compatible
// starts in the catalogue index indexes, by binary search over its lines.
func find(index, compatible string) (int, bool) {
	body := index[len(indexHeader):]
	start := lowerBound(body, compatible)
	if start == len(body) {
		return 0, false
	}
	line := body[start : start+strings.IndexByte(body[start:], '\n')]
	key, offset, _ := strings.Cut(line, " ")
	if key != compatible {
		return 0, false
	}
	n, err := strconv.Atoi(offset)
	if err != nil {
		panic(fmt.Sprintf("kernel: embedded index, %q: %v", line, err))
	}
	return n, true
}

// lowerBound returns the start of the first line of body whose key is
// not below key, len(body) when there is none.
func lowerBound(body, key string) int {
	// lo and hi are always at the start of a line.
	lo, hi := 0, len(body)
	for lo < hi {
		mid := lo + (hi-lo)/2
		start := lo + strings.LastIndexByte(body[lo:mid], '\n') + 1
		end := start + strings.IndexByte(body[start:], '\n')
		k, _, _ := strings.Cut(body[start:end], " ")
		if k < key {
			lo = end + 1
		} else {
			hi = start
		}
	}
	return lo
}

// prefixLines yields the lines of an index whose key starts with prefix.
func prefixLines(index, prefix string) iter.Seq[string] {
	return func(yield func(string) bool) {
		body := index[len(indexHeader):]
		for line := range strings.Lines(body[lowerBound(body, prefix):]) {
			if !strings.HasPrefix(line, prefix) || !yield(strings.TrimSuffix(line, "\n")) {
				return
			}
		}
	}
}
