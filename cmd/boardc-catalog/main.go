// Command boardc-catalog writes boardc's driver-facts catalogue of one
// Linux kernel: it reads the tree's Makefile, drivers/ and sound/ and
// writes the JSON that compiler/kernel embeds
// (compiler/kernel/data/linux-SERIES.json) and its index
// (linux-SERIES.index). scripts/catalog.sh runs it for every series
// boardc ships.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"strings"
	"time"

	"boardc.dev/boardc/compiler/kernel"
	"boardc.dev/boardc/internal/kextract"
)

const usage = `usage: boardc-catalog -tarball FILE [-tree DIR] -out FILE

Writes the driver-facts catalogue of a Linux source archive (a Debian
linux-source-SERIES package's /usr/src/linux-source-SERIES.tar.xz) to
FILE, as kernel.Encode writes it ("-" for stdout), and its index
(kernel.WriteIndex) beside it: FILE with .index for .json.

With -tree, DIR is the tree already extracted from the archive (it must
hold its Makefile, drivers/ and sound/); without it, those are extracted
into $BOARDC_KSRC_CACHE (default: the user cache's boardc/ksrc) once and
reused. The catalogue records the archive's name and sha256, and the
package's version as dpkg-query gives it.

Flags:
`

func main() {
	tree := flag.String("tree", "", "the kernel source tree extracted from the archive (default: extract into the cache)")
	tarball := flag.String("tarball", "", "the kernel source archive")
	out := flag.String("out", "", "the catalogue to write, \"-\" for stdout")
	quiet := flag.Bool("q", false, "print no summary on stderr")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the extraction to this file")
	memprofile := flag.String("memprofile", "", "write a heap profile, taken after the extraction, to this file")
	flag.Usage = func() {
		fmt.Fprint(os.Stderr, usage)
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 0 || *tarball == "" || *out == "" {
		flag.Usage()
		os.Exit(2)
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fail(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fail(err)
		}
	}
	err := run(*tree, *tarball, *out, *quiet, *memprofile)
	pprof.StopCPUProfile()
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "boardc-catalog:", err)
	os.Exit(1)
}

func run(tree, tarball, out string, quiet bool, memprofile string) error {
	src, err := kextract.Provenance(tarball)
	if err != nil {
		return fmt.Errorf("-tarball: %v", err)
	}
	if tree == "" {
		cache, err := kextract.CacheDir()
		if err != nil {
			return err
		}
		if tree, err = kextract.Unpack(tarball, src.SHA256, cache); err != nil {
			return err
		}
	} else if st, err := os.Stat(tree); err != nil || !st.IsDir() {
		return fmt.Errorf("-tree %s: not a directory", tree)
	}
	start := time.Now()
	c, err := kextract.Extract(tree, src)
	if err != nil {
		return err
	}
	if memprofile != "" {
		f, err := os.Create(memprofile)
		if err != nil {
			return err
		}
		if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
			return err
		}
		f.Close()
	}
	var buf bytes.Buffer
	if err := kernel.Encode(&buf, c); err != nil {
		return err
	}
	if out == "-" {
		_, err = os.Stdout.Write(buf.Bytes())
	} else {
		err = writeWithIndex(out, buf.String())
	}
	if err != nil {
		return err
	}
	if !quiet {
		kinds := map[kernel.DMAKind]int{}
		ncompat := 0
		for _, d := range c.Drivers {
			kinds[d.DMA.Kind]++
			ncompat += len(d.Compatibles)
		}
		fmt.Fprintf(os.Stderr, "linux %s: %d drivers, %d compatibles, dma %v, %d bytes, extracted in %.1fs\n",
			c.Kernel, len(c.Drivers), ncompat, kinds, buf.Len(), time.Since(start).Seconds())
	}
	return nil
}

// writeWithIndex writes a catalogue's text to out and its index beside.
func writeWithIndex(out, text string) error {
	var ix bytes.Buffer
	if err := kernel.WriteIndex(&ix, text); err != nil {
		return err
	}
	if err := os.WriteFile(out, []byte(text), 0o644); err != nil {
		return err
	}
	return os.WriteFile(strings.TrimSuffix(out, ".json")+".index", ix.Bytes(), 0o644)
}
