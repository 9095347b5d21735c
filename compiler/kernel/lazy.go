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
	text  string // the catalogue as Encode wrote it
	spans []span // each driver's object in text, in Drivers order
	mu    sync.Mutex
	done  []*Driver // decoded drivers, nil until first returned
}

// span is a range of a catalogue's text.
type span struct{ start, end int }

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
// compatible, decoding none of them.
func openLazy(text string) (*Catalog, error) {
	head, _, ok := strings.Cut(text, driversOpen)
	if !ok {
		// No driver array in Encode's layout (an empty catalogue):
		// decode it whole.
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
	l := &lazyDrivers{text: text}
	// About one compatible per 220 bytes in the shipped catalogues.
	c.byCompat = make(map[string]int, len(text)/200)
	pos := len(head) + len(driversOpen)
	for {
		if !strings.HasPrefix(text[pos:], driverOpen) {
			return nil, fmt.Errorf("driver %d at byte %d: not in the layout Encode writes", len(l.spans), pos)
		}
		n := strings.Index(text[pos:], driverClose)
		if n < 0 {
			return nil, fmt.Errorf("driver %d at byte %d: no end", len(l.spans), pos)
		}
		end := pos + n + len(driverClose)
		if err := l.indexCompatibles(c.byCompat, text[pos:end]); err != nil {
			return nil, fmt.Errorf("driver %d at byte %d: %v", len(l.spans), pos, err)
		}
		l.spans = append(l.spans, span{pos, end})
		if !strings.HasPrefix(text[end:], ",\n") {
			break
		}
		pos = end + 2
	}
	if !strings.HasPrefix(text[l.spans[len(l.spans)-1].end:], "\n ]\n}") {
		return nil, fmt.Errorf("byte %d: the driver array does not end the catalogue", l.spans[len(l.spans)-1].end)
	}
	l.done = make([]*Driver, len(l.spans))
	c.lazy = l
	return c, nil
}

// indexCompatibles maps each compatible of one driver's text to the
// driver about to be appended, unless an earlier driver lists it.
func (l *lazyDrivers) indexCompatibles(byCompat map[string]int, obj string) error {
	_, rest, ok := strings.Cut(obj, compatsOpen)
	if !ok {
		return nil // "compatibles" is null: none
	}
	list, _, ok := strings.Cut(rest, compatsClose)
	if !ok {
		return fmt.Errorf("compatibles: no end")
	}
	for line := range strings.SplitSeq(list, ",\n") {
		q, ok := strings.CutPrefix(line, compatsIndent)
		if !ok || len(q) < 2 || q[0] != '"' || q[len(q)-1] != '"' {
			return fmt.Errorf("compatible %q: not a string in Encode's layout", line)
		}
		s := q[1 : len(q)-1]
		if strings.ContainsRune(s, '\\') {
			var err error
			if s, err = strconv.Unquote(q); err != nil {
				return fmt.Errorf("compatible %s: %v", q, err)
			}
		}
		if _, dup := byCompat[s]; !dup {
			byCompat[s] = len(l.spans)
		}
	}
	return nil
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
	dec := json.NewDecoder(strings.NewReader(l.text[l.spans[i].start:l.spans[i].end]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		panic(fmt.Sprintf("kernel: embedded catalogue, driver %d: %v", i, err))
	}
	l.done[i] = &d
	return &d
}

// all decodes every driver, in order.
func (l *lazyDrivers) all() []Driver {
	out := make([]Driver, len(l.spans))
	for i := range out {
		out[i] = *l.driver(i)
	}
	return out
}
