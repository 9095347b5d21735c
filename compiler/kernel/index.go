package kernel

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// A catalogue ships with an index beside it, data/linux-SERIES.index: a
// line per driver with the byte the driver starts at in the catalogue
// and the compatibles it lists. Load reads only the index and the
// drivers Lookup returns: scanning the whole catalogue for its
// compatibles would touch every page of its 3 MB in every process.
// TestShippedIndex holds each index to the one WriteIndex writes from its
// catalogue.

// indexHeader is the first line of an index.
const indexHeader = "# boardc driver index: a line per driver of the catalogue, its first byte and its compatibles\n"

// IndexName is the name of a series' index in compiler/kernel/data.
func IndexName(series string) string { return "linux-" + series + ".index" }

// WriteIndex writes the index of a catalogue's text, which must be as
// Encode writes it.
func WriteIndex(w io.Writer, text string) error {
	ix, err := scan(text)
	if err != nil {
		return err
	}
	b := bufio.NewWriter(w)
	b.WriteString(indexHeader)
	for i, start := range ix.starts {
		b.WriteString(strconv.Itoa(start))
		for _, c := range ix.compats[i] {
			if c == "" || strings.ContainsAny(c, " \t\r\n") {
				return fmt.Errorf("driver %d: compatible %q cannot be indexed", i, c)
			}
			b.WriteByte(' ')
			b.WriteString(c)
		}
		b.WriteByte('\n')
	}
	return b.Flush()
}

// parseIndex reads an index as WriteIndex writes it.
func parseIndex(s string) (driverIndex, error) {
	var ix driverIndex
	rest, ok := strings.CutPrefix(s, indexHeader)
	if !ok {
		return ix, fmt.Errorf("not a driver index")
	}
	ix.byCompat = make(map[string]int, len(s)/20) // about 22 bytes a compatible
	for line := range strings.Lines(rest) {
		line, ok := strings.CutSuffix(line, "\n")
		if !ok {
			return ix, fmt.Errorf("line %d: no end", len(ix.starts)+2)
		}
		offset, compats, _ := strings.Cut(line, " ")
		start, err := strconv.Atoi(offset)
		if err != nil {
			return ix, fmt.Errorf("line %d: %v", len(ix.starts)+2, err)
		}
		for compats != "" {
			var c string
			c, compats, _ = strings.Cut(compats, " ")
			ix.add(c)
		}
		ix.starts = append(ix.starts, start)
	}
	return ix, nil
}
