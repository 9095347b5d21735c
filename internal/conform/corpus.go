// Package conform runs the upstream Linux arm64 device-tree corpus as a
// conformance suite: for every board it does what a vendor does with
// boardc (compile the .dts, import it, fill what a tree cannot say, vet
// the draft against the tree, build it, and include the fragment after
// the upstream .dts) and records, per stage, whether it passed and why
// not. CORPUS.md and the baseline beside it are written from a run
// (Report, Baseline); the test of this package fails when a stage passes
// on fewer boards than the baseline says.
package conform

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Tarball is the corpus's file name in the shared directory's corpus/.
const Tarball = "linux-v7.1-dts-arm64.tar.gz"

// CacheEnv names the directory the corpus is extracted into; without it,
// a directory under os.TempDir() named after the tarball's digest.
const CacheEnv = "BOARDC_CORPUS_CACHE"

// DTSDir is where a kernel tree keeps the arm64 device trees, and where an
// extracted corpus links its src/arm64 so that a board's dts: and the
// sources of its facts read as they do in a kernel tree.
const DTSDir = "arch/arm64/boot/dts"

// Corpus is an extracted corpus laid out as a kernel tree.
type Corpus struct {
	// Root is the tree: src/, include/ as the tarball has them, and the
	// links arch/arm64/boot/dts -> src/arm64 and
	// scripts/dtc/include-prefixes/{arm64,dt-bindings} that kbuild's
	// include path needs (basetree.IncludePrefixes).
	Root string
	// Boards are the board .dts files, relative to DTSDir, sorted:
	// "freescale/imx8mp-evk.dts", "exynos/google/gs101-oriole.dts".
	Boards []string
	// Kernel, when not nil, gave Root its arch/arm and arch/riscv and
	// compiles its boards (WithKernel).
	Kernel *Kernel
}

// cacheDir is where corpora and kernel parts are extracted: CacheEnv,
// else a directory under os.TempDir().
func cacheDir() string {
	if c := os.Getenv(CacheEnv); c != "" {
		return c
	}
	return filepath.Join(os.TempDir(), "boardc-corpus")
}

// Open extracts the tarball into the cache directory (CacheEnv, else one
// under os.TempDir()), unless an earlier call did, and lists its boards.
// The extraction is made in a directory of its own and renamed into
// place, so that a killed or concurrent run never sees half a tree.
func Open(tarball string) (*Corpus, error) {
	data, err := os.ReadFile(tarball)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	digest := hex.EncodeToString(sum[:])
	cache := cacheDir()
	root := filepath.Join(cache, digest[:16])
	if _, err := os.Stat(filepath.Join(root, DTSDir)); err != nil {
		if err := os.MkdirAll(cache, 0o755); err != nil {
			return nil, err
		}
		tmp, err := os.MkdirTemp(cache, ".extract-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		if err := extract(data, tmp); err != nil {
			return nil, fmt.Errorf("%s: %v", tarball, err)
		}
		if err := layout(tmp); err != nil {
			return nil, err
		}
		if err := os.Rename(tmp, root); err != nil {
			// Another run extracted it first.
			if _, err2 := os.Stat(filepath.Join(root, DTSDir)); err2 != nil {
				return nil, err
			}
		}
	}
	c := &Corpus{Root: root}
	src := filepath.Join(root, "src", "arm64")
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".dts") {
			rel, _ := filepath.Rel(src, p)
			c.Boards = append(c.Boards, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(c.Boards)
	if len(c.Boards) == 0 {
		return nil, fmt.Errorf("%s: no board under src/arm64", tarball)
	}
	return c, nil
}

// extract writes the regular files and directories of the gzipped tar
// data below dir; links and names that would leave dir are refused.
func extract(data []byte, dir string) error {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return err
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		name := filepath.Clean(filepath.FromSlash(h.Name))
		if filepath.IsAbs(name) || name == ".." || strings.HasPrefix(name, ".."+string(filepath.Separator)) {
			return fmt.Errorf("%s: a name outside the tree", h.Name)
		}
		p := filepath.Join(dir, name)
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(p, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
			if err != nil {
				return err
			}
			_, err = io.Copy(f, tr)
			if err2 := f.Close(); err == nil {
				err = err2
			}
			if err != nil {
				return err
			}
		}
	}
}

// layout adds to the extracted tree at dir the links of a kernel tree:
// arch/arm64/boot/dts is src/arm64, and the include prefixes name arm64
// and dt-bindings (scripts/dtc/include-prefixes in Linux). The tarball
// has no src/arm or src/riscv: a board that includes <arm/...> or
// <riscv/...> compiles only in the corpus WithKernel gives.
func layout(dir string) error {
	return symlinks(dir, map[string]string{
		DTSDir:                               "../../../src/arm64",
		"scripts/dtc/include-prefixes/arm64": "../../../src/arm64",
		"scripts/dtc/include-prefixes/dt-bindings": "../../../include/dt-bindings",
	})
}

// symlinks makes each link below dir (a slash-separated path) point to
// its target.
func symlinks(dir string, links map[string]string) error {
	for link, target := range links {
		p := filepath.Join(dir, filepath.FromSlash(link))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.Symlink(target, p); err != nil {
			return err
		}
	}
	return nil
}
