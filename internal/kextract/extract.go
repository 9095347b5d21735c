package kextract

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"

	"boardc.dev/boardc/compiler/kernel"
)

// Version is the version of the extraction rules, recorded in each
// catalogue's Source.Extractor: bump it when a rule changes what the
// extractor writes.
const Version = 8

// maxHeader is the size above which a header is not read: the generated
// register maps of some GPUs (hundreds of megabytes) define no function
// or driver the extractor uses.
const maxHeader = 1 << 20

// Extract reads the kernel tree at root (its Makefile, drivers/ and
// sound/) and returns its catalogue, with src as its provenance; the
// extractor's Version is filled in.
func Extract(root string, src kernel.Source) (*kernel.Catalog, error) {
	version, err := kernelVersion(filepath.Join(root, "Makefile"))
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, dir := range []string{"drivers", "sound"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !(strings.HasSuffix(p, ".c") || strings.HasSuffix(p, ".h")) {
				return nil
			}
			if strings.HasSuffix(p, ".h") {
				if info, err := d.Info(); err != nil || info.Size() > maxHeader {
					return err
				}
			}
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			paths = append(paths, filepath.ToSlash(rel))
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("reading the kernel tree: %v", err)
		}
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("%s has no drivers/ or sound/ sources", root)
	}
	files, err := parseAll(paths, func(p string) (string, error) {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		return string(b), err
	})
	if err != nil {
		return nil, err
	}
	src.Extractor = Version
	return catalog(version, src, paths, files), nil
}

// FromSources builds a catalogue from in-memory files (path -> C
// source), for tests and small trees.
func FromSources(version string, sources map[string]string) *kernel.Catalog {
	var paths []string
	for p := range sources {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	files, _ := parseAll(paths, func(p string) (string, error) { return sources[p], nil })
	return catalog(version, kernel.Source{Extractor: Version}, paths, files)
}

// catalog analyses parsed files.
func catalog(version string, src kernel.Source, paths []string, files []*file) *kernel.Catalog {
	ix := newIndex(files)
	series := version
	if f := strings.SplitN(version, ".", 3); len(f) >= 2 {
		series = f[0] + "." + f[1]
	}
	return &kernel.Catalog{Series: series, Kernel: version, Source: src, Drivers: ix.drivers(paths)}
}

// parseAll reads and indexes files on every CPU, in paths order.
func parseAll(paths []string, read func(string) (string, error)) ([]*file, error) {
	files := make([]*file, len(paths))
	errs := make([]error, len(paths))
	var next sync.Mutex
	i := 0
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []token
			for {
				next.Lock()
				k := i
				i++
				next.Unlock()
				if k >= len(paths) {
					return
				}
				src, err := read(paths[k])
				if err != nil {
					errs[k] = err
					continue
				}
				l := lexInto(src, buf)
				files[k] = parseFile(paths[k], l)
				buf = l.toks
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return files, nil
}

var reMakeVar = regexp.MustCompile(`(?m)^(VERSION|PATCHLEVEL|SUBLEVEL)\s*=\s*(\d*)\s*$`)

// kernelVersion reads VERSION.PATCHLEVEL.SUBLEVEL from the tree's
// Makefile.
func kernelVersion(makefile string) (string, error) {
	b, err := os.ReadFile(makefile)
	if err != nil {
		return "", fmt.Errorf("reading the kernel version: %v", err)
	}
	v := map[string]string{}
	for _, m := range reMakeVar.FindAllStringSubmatch(string(b), -1) {
		if _, dup := v[m[1]]; !dup {
			v[m[1]] = m[2]
		}
	}
	if v["VERSION"] == "" || v["PATCHLEVEL"] == "" {
		return "", fmt.Errorf("%s gives no VERSION and PATCHLEVEL", makefile)
	}
	out := v["VERSION"] + "." + v["PATCHLEVEL"]
	if v["SUBLEVEL"] != "" {
		out += "." + v["SUBLEVEL"]
	}
	return out, nil
}
