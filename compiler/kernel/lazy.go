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
// more than compiling a small board. Load therefore decodes a driver the
// first time Lookup returns it, found through the catalogue's index
// (index.go). WriteIndex and All find the drivers by the layout Encode
// writes (json.MarshalIndent with a one-space indent: a driver is the
// text from "\n  {" to the next "\n  }", its compatibles the lines of
// its "compatibles" array). TestLazyMatchesDecode holds every lookup of
// the shipped catalogues to a full Decode.

// lazyDrivers is the drivers of an embedded catalogue, decoded on demand.
type lazyDrivers struct {
	text  string // the catalogue as Encode wrote it
	index string // its index (index.go)
	mu    sync.Mutex
	done  map[int]*Driver // decoded drivers by their first byte
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

// driverIndex is where each driver of a catalogue's text starts and the
// compatibles it lists.
type driverIndex struct {
	starts  []int
	compats [][]string
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
// Lookup to find through index and decode.
func openIndexed(text, index string) (*Catalog, error) {
	if !strings.HasPrefix(index, indexHeader) {
		return nil, fmt.Errorf("not a driver index")
	}
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
	c.lazy = &lazyDrivers{text: text, index: index, done: map[int]*Driver{}}
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

// lookup returns the first driver listing compatible, nil for none.
func (l *lazyDrivers) lookup(compatible string) *Driver {
	start, ok := find(l.index, compatible)
	if !ok {
		return nil
	}
	return l.driverAt(start)
}

// driverAt returns the driver starting at byte start, decoding it the
// first time. The text and its index were checked when boardc was built
// (TestShippedIndex, TestLazyMatchesDecode), so a driver that does not
// decode is a corrupt binary.
func (l *lazyDrivers) driverAt(start int) *Driver {
	l.mu.Lock()
	defer l.mu.Unlock()
	if d := l.done[start]; d != nil {
		return d
	}
	obj := l.text[start:]
	n := strings.Index(obj, driverClose)
	if !strings.HasPrefix(obj, driverOpen) || n < 0 {
		panic(fmt.Sprintf("kernel: embedded catalogue: no driver at byte %d", start))
	}
	var d Driver
	dec := json.NewDecoder(strings.NewReader(obj[:n+len(driverClose)]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		panic(fmt.Sprintf("kernel: embedded catalogue, driver at byte %d: %v", start, err))
	}
	l.done[start] = &d
	return &d
}

// all decodes every driver, in order.
func (l *lazyDrivers) all() []Driver {
	ix, err := scan(l.text)
	if err != nil {
		panic(fmt.Sprintf("kernel: embedded catalogue: %v", err))
	}
	out := make([]Driver, len(ix.starts))
	for i, start := range ix.starts {
		out[i] = *l.driverAt(start)
	}
	return out
}
