package kernel

import (
	"compress/gzip"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
	"sync"
)

// data holds the catalogues boardc ships: data/linux-SERIES.json.gz.
//
//go:embed data
var data embed.FS

var (
	loadMu sync.Mutex
	loaded = map[string]*Catalog{}
)

// Series returns the kernel series boardc ships a catalogue for, oldest
// first.
func Series() []string {
	ents, _ := fs.ReadDir(data, "data")
	var out []string
	for _, e := range ents {
		if s, ok := strings.CutPrefix(e.Name(), "linux-"); ok {
			if s, ok = strings.CutSuffix(s, ".json.gz"); ok {
				out = append(out, s)
			}
		}
	}
	slices.SortFunc(out, compareSeries)
	return out
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

// Load returns the shipped catalogue of a series ("6.12"). Catalogues are
// decoded once and shared: callers must not modify them.
func Load(series string) (*Catalog, error) {
	loadMu.Lock()
	defer loadMu.Unlock()
	if c, ok := loaded[series]; ok {
		return c, nil
	}
	f, err := data.Open("data/linux-" + series + ".json.gz")
	if err != nil {
		return nil, fmt.Errorf("no driver-facts catalogue for kernel %s (boardc has %s)", series, strings.Join(Series(), ", "))
	}
	defer f.Close()
	c, err := DecodeGzip(f)
	if err != nil {
		return nil, fmt.Errorf("catalogue for kernel %s: %v", series, err)
	}
	c.index()
	loaded[series] = c
	return c, nil
}

// DecodeGzip reads a catalogue as Encode writes it, gzip-compressed.
func DecodeGzip(r io.Reader) (*Catalog, error) {
	z, err := gzip.NewReader(r)
	if err != nil {
		return nil, err
	}
	return Decode(z)
}

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

// EncodeGzip writes a catalogue as Encode does, gzip-compressed with no
// file name and no modification time in the header, so that the bytes
// depend on the catalogue only.
func EncodeGzip(w io.Writer, c *Catalog) error {
	z, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	if err := Encode(z, c); err != nil {
		return err
	}
	return z.Close()
}
