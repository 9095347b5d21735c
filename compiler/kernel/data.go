package kernel

import (
	_ "embed" // the catalogues
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
)

// The catalogues boardc ships, data/linux-SERIES.json as Encode writes
// them, and their indexes (index.go), embedded as strings so that
// opening one copies nothing. TestShipped fails when a file of data/ is
// missing here.
var (
	//go:embed data/linux-6.1.json
	linux6_1 string
	//go:embed data/linux-6.1.index
	linux6_1Index string
	//go:embed data/linux-6.12.json
	linux6_12 string
	//go:embed data/linux-6.12.index
	linux6_12Index string

	shipped = map[string]struct{ text, index string }{
		"6.1":  {linux6_1, linux6_1Index},
		"6.12": {linux6_12, linux6_12Index},
	}
)

var (
	loadMu sync.Mutex
	loaded = map[string]*Catalog{}
)

// Series returns the kernel series boardc ships a catalogue for, oldest
// first.
func Series() []string {
	return slices.SortedFunc(maps.Keys(shipped), compareSeries)
}

// Default returns the series a board that names none is checked against:
// the newest one shipped, "" when none is.
func Default() string {
	s := Series()
	if len(s) == 0 {
		return ""
	}
	return s[len(s)-1]
}

// Load returns the shipped catalogue of a series ("6.12"). A catalogue is
// opened once and shared, its drivers decoded as Lookup returns them:
// callers must not modify them.
func Load(series string) (*Catalog, error) {
	loadMu.Lock()
	defer loadMu.Unlock()
	if c, ok := loaded[series]; ok {
		return c, nil
	}
	data, ok := shipped[series]
	if !ok {
		return nil, fmt.Errorf("no driver-facts catalogue for kernel %s (boardc has %s)", series, strings.Join(Series(), ", "))
	}
	ix, err := parseIndex(data.index)
	if err != nil {
		return nil, fmt.Errorf("catalogue for kernel %s: %s: %v", series, IndexName(series), err)
	}
	c, err := openIndexed(data.text, ix)
	if err != nil {
		return nil, fmt.Errorf("catalogue for kernel %s: %v", series, err)
	}
	loaded[series] = c
	return c, nil
}

// FileName is the name of a series' catalogue in compiler/kernel/data.
func FileName(series string) string { return "linux-" + series + ".json" }

// Decode reads a catalogue's JSON.
func Decode(r io.Reader) (*Catalog, error) {
	var c Catalog
	d := json.NewDecoder(r)
	d.DisallowUnknownFields()
	if err := d.Decode(&c); err != nil {
		return nil, err
	}
	if c.Series == "" || seriesOf(c.Kernel) != c.Series {
		return nil, fmt.Errorf("kernel %q is not of series %q", c.Kernel, c.Series)
	}
	return &c, nil
}

// compareSeries orders "6.1" before "6.12" before "7.0".
func compareSeries(a, b string) int {
	var am, an, bm, bn int
	fmt.Sscanf(a, "%d.%d", &am, &an)
	fmt.Sscanf(b, "%d.%d", &bm, &bn)
	if am != bm {
		return am - bm
	}
	return an - bn
}

// Encode writes a catalogue as JSON, indented, map keys sorted: the same
// catalogue always gives the same bytes.
func Encode(w io.Writer, c *Catalog) error {
	b, err := json.MarshalIndent(c, "", " ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
