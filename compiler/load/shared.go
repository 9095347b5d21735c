package load

import (
	"crypto/sha256"
	"slices"
	"sync"

	"cuelang.org/go/cue/build"
)

// Templates are SoC templates (socTemplate) shared by the Loaders of one
// build, one per goroutine: an SoC package is validated and lowered once
// for the boards of every Loader, where each lowered it for its own (a
// BSP of 54 boards built by two spent 9 % of its CPU there). A template
// is keyed by the SoC package's directory and the content of every file
// it is built from, so that Loaders share one only for the same source.
// The zero value is ready; it is safe for concurrent use.
type Templates struct {
	mu sync.Mutex
	m  map[templateKey]*sharedTemplate
}

// templateKey names an SoC package's source: its directory, and a digest
// of the path and content of every file of it and of the packages it
// imports.
type templateKey struct {
	dir string
	sum [sha256.Size]byte
}

// sharedTemplate is one SoC's template, made by the first Loader that
// asks for it.
type sharedTemplate struct {
	once sync.Once
	t    *socTemplate
}

// ShareTemplates makes l take its SoC templates from t and add those it
// makes to it. The template's lowered SoC is then read by several
// goroutines at once: a board's build copies what it changes of it
// (applyOnSoC).
func (l *Loader) ShareTemplates(t *Templates) { l.shared = t }

// sharedTemplate returns the entry of t for the SoC package inst, nil
// when the content of one of its files is not known (Prepare records a
// digest of each file it parses).
func (l *Loader) sharedTemplate(inst *build.Instance) *sharedTemplate {
	if l.shared == nil {
		return nil
	}
	var files []string
	for _, i := range instances(inst) {
		for _, f := range i.BuildFiles {
			files = append(files, f.Filename)
		}
	}
	slices.Sort(files)
	h := sha256.New()
	for _, f := range files {
		sum, ok := l.sums[f]
		if !ok {
			return nil
		}
		h.Write([]byte(f))
		h.Write([]byte{0})
		h.Write(sum[:])
	}
	key := templateKey{dir: inst.Dir}
	h.Sum(key.sum[:0])
	t := l.shared
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m = map[templateKey]*sharedTemplate{}
	}
	s := t.m[key]
	if s == nil {
		s = &sharedTemplate{}
		t.m[key] = s
	}
	return s
}
