package kernel

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// A shipped catalogue is about 3 MB of JSON, and every process that checks
// a board needs a few dozen of its 5,000 drivers: decoding all of it cost
// more than compiling a small board. Load therefore indexes the embedded
// text by the layout Encode writes (json.MarshalIndent with a one-space
// indent: a driver is the text from "\n  {" to the next "\n  }", its
// compatibles the lines of its "compatibles" array) and decodes a driver
// the first time Lookup returns it. TestLazyMatchesDecode holds every
// lookup of the shipped catalogues to a full Decode.

// lazyDrivers is the drivers of an embedded catalogue, decoded on demand.
type lazyDrivers struct {
	text   string // the catalogue as Encode wrote it
	starts []int  // each driver's first byte in text, in Drivers order
	mu     sync.Mutex
	done   []*Driver // decoded drivers, nil until first returned
}

// Layout markers of Encode's output.
const (
	driversOpen   = ",\n \"drivers\": [\n"
	driverOpen    = "  {\n"
	driverClose   = "\n  }"
	compatsOpen   = "\n   \"compatibles\": [\n"
	compatsClose  = "\n   ]"
	compatsIndent = "    "
)

// openLazy reads a catalogue's metadata and indexes its drivers by
// compatible from the text itself, decoding none of them.
func openLazy(text string) (*Catalog, error) {
	ix, err := scan(text)
	if err != nil {
		return nil, err
	}
	return openIndexed(text, ix)
}

// driverIndex is where each driver of a catalogue's text starts and the
// compatibles it lists: all Load needs to look drivers up without
// reading the rest of the text.
type driverIndex struct {
	starts   []int
	compats  [][]string     // per driver; only scan keeps them
	byCompat map[string]int // compatible -> first driver listing it
}

// add records that the driver about to be appended lists compatible.
func (ix *driverIndex) add(compatible string) {
	if ix.byCompat == nil {
		ix.byCompat = make(map[string]int, 1024)
	}
	if _, dup := ix.byCompat[compatible]; !dup {
		ix.byCompat[compatible] = len(ix.starts)
	}
}

// scan indexes a catalogue's drivers by the layout Encode writes.
func scan(text string) (driverIndex, error) {
	var ix driverIndex
	head, _, ok := strings.Cut(text, driversOpen)
	if !ok {
		return ix, nil // no driver array in Encode's layout: none
	}
	pos := len(head) + len(driversOpen)
	for {
		if !strings.HasPrefix(text[pos:], driverOpen) {
			return ix, fmt.Errorf("driver %d at byte %d: not in the layout Encode writes", len(ix.starts), pos)
		}
		n := strings.Index(text[pos:], driverClose)
		if n < 0 {
			return ix, fmt.Errorf("driver %d at byte %d: no end", len(ix.starts), pos)
		}
		end := pos + n + len(driverClose)
		compats, err := compatibles(text[pos:end])
		if err != nil {
			return ix, fmt.Errorf("driver %d at byte %d: %v", len(ix.starts), pos, err)
		}
		for _, s := range compats {
			ix.add(s)
		}
		ix.starts = append(ix.starts, pos)
		ix.compats = append(ix.compats, compats)
		if !strings.HasPrefix(text[end:], ",\n") {
			if !strings.HasPrefix(text[end:], "\n ]\n}") {
				return ix, fmt.Errorf("byte %d: the driver array does not end the catalogue", end)
			}
			return ix, nil
		}
		pos = end + 2
	}
}

// openIndexed reads a catalogue's metadata and keeps its drivers for
// Lookup to decode, found through ix.
func openIndexed(text string, ix driverIndex) (*Catalog, error) {
	head, _, ok := strings.Cut(text, driversOpen)
	if !ok {
		// An empty catalogue, or one not in Encode's layout: decode it
		// whole.
		c, err := Decode(strings.NewReader(text))
		if err == nil {
			c.index()
		}
		return c, err
	}
	c, err := Decode(strings.NewReader(head + "}"))
	if err != nil {
		return nil, err
	}
	c.byCompat = ix.byCompat
	if c.byCompat == nil {
		c.byCompat = map[string]int{}
	}
	c.lazy = &lazyDrivers{text: text, starts: ix.starts, done: make([]*Driver, len(ix.starts))}
	return c, nil
}

// compatibles returns the compatibles one driver's text lists.
func compatibles(obj string) ([]string, error) {
	_, rest, ok := strings.Cut(obj, compatsOpen)
	if !ok {
		return nil, nil // "compatibles" is null: none
	}
	list, _, ok := strings.Cut(rest, compatsClose)
	if !ok {
		return nil, fmt.Errorf("compatibles: no end")
	}
	var out []string
	for line := range strings.SplitSeq(list, ",\n") {
		q, ok := strings.CutPrefix(line, compatsIndent)
		if !ok || len(q) < 2 || q[0] != '"' || q[len(q)-1] != '"' {
			return nil, fmt.Errorf("compatible %q: not a string in Encode's layout", line)
		}
		s := q[1 : len(q)-1]
		if strings.ContainsRune(s, '\\') {
			var err error
			if s, err = strconv.Unquote(q); err != nil {
				return nil, fmt.Errorf("compatible %s: %v", q, err)
			}
		}
		out = append(out, s)
	}
	return out, nil
}

// driver returns driver i, decoding it the first time. The text was
// checked when boardc was built (TestLazyMatchesDecode), so a driver that
// does not decode is a corrupt binary.
func (l *lazyDrivers) driver(i int) *Driver {
	l.mu.Lock()
	defer l.mu.Unlock()
	if d := l.done[i]; d != nil {
		return d
	}
	var d Driver
	obj := l.text[l.starts[i]:]
	n := strings.Index(obj, driverClose)
	if !strings.HasPrefix(obj, driverOpen) || n < 0 {
		panic(fmt.Sprintf("kernel: embedded catalogue, driver %d: not at byte %d", i, l.starts[i]))
	}
	dec := json.NewDecoder(strings.NewReader(obj[:n+len(driverClose)]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		panic(fmt.Sprintf("kernel: embedded catalogue, driver %d: %v", i, err))
	}
	l.done[i] = &d
	return &d
}

// all decodes every driver, in order.
func (l *lazyDrivers) all() []Driver {
	out := make([]Driver, len(l.starts))
	for i := range out {
		out[i] = *l.driver(i)
	}
	return out
}
