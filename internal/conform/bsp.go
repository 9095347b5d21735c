package conform

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"boardc.dev/boardc"
)

// bsp takes the filled draft of the board dir, whose SoC package is
// socDir, through the BSP stage: the DMA widths of the filler moved into
// the SoC package, the board built alone, then prepared with a twin, a
// copy of it on the same SoC, and built, as boardc build builds many
// boards of one SoC (boardc.Compiler.Prepare). The two builds of
// the board must give the same files, byte for byte, and the same
// diagnostics, positions included. A board of the shape the SoC is
// lowered once for (the boards boardc import --soc writes) is noted "on
// its SoC", any other "evaluated whole".
func bsp(c *boardc.Compiler, r *Result, dir, socDir, boardPkg string, memory bool) {
	fail := func(detail, cause string) { r.fail(BSP, detail, cause) }
	socPkg, err := packageOf(socDir)
	if err != nil {
		fail(err.Error(), "reading the SoC package: "+Normalize(err.Error()))
		return
	}
	if err := writeFile(filepath.Join(socDir, "corpus_fill.cue"), fillFile(socPkg, true, false)); err != nil {
		fail(err.Error(), "writing the filler: "+Normalize(err.Error()))
		return
	}
	if err := writeFile(filepath.Join(dir, "corpus_fill.cue"), fillFile(boardPkg, false, memory)); err != nil {
		fail(err.Error(), "writing the filler: "+Normalize(err.Error()))
		return
	}
	twin := dir + "-twin"
	if err := os.CopyFS(twin, os.DirFS(dir)); err != nil {
		fail(err.Error(), "copying the board: "+Normalize(err.Error()))
		return
	}
	alone := c.Compile(dir, boardc.Options{})
	// Prepared with its twin, the board is loaded as one of a BSP's
	// boards; the twin need not be built for that.
	c.Prepare([]string{twin, dir})
	got := c.Compile(dir, boardc.Options{})
	if a, g := diagText(alone), diagText(got); a != g {
		fail(fmt.Sprintf("diagnostics alone:\n%s\nbeside a twin:\n%s", a, g), "the diagnostics differ beside a twin on the same SoC")
		return
	}
	if len(alone.Files) != len(got.Files) {
		fail(fmt.Sprintf("%d files alone, %d beside a twin", len(alone.Files), len(got.Files)), "the files differ beside a twin on the same SoC")
		return
	}
	for i, f := range alone.Files {
		if g := got.Files[i]; f.Path != g.Path || !bytes.Equal(f.Data, g.Data) {
			fail(fmt.Sprintf("%s differs beside a twin (%s)", f.Path, g.Path), "the files differ beside a twin on the same SoC")
			return
		}
	}
	if got.OnSoC {
		r.pass(BSP, bspOnSoC)
	} else {
		r.pass(BSP, "evaluated whole")
	}
}

// bspOnSoC is the note of a board the BSP stage built on its SoC lowered
// once.
const bspOnSoC = "on its SoC"

// diagText is the diagnostics of res as boardc prints them.
func diagText(res *boardc.Result) string {
	var b strings.Builder
	if err := res.Diagnostics.WriteText(&b); err != nil {
		return err.Error()
	}
	return b.String()
}

// packageOf returns the package name of the CUE files in dir.
func packageOf(dir string) (string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.cue"))
	if err != nil || len(files) == 0 {
		return "", fmt.Errorf("%s: no CUE file", dir)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		return "", err
	}
	m := packageRE.FindSubmatch(data)
	if m == nil {
		return "", fmt.Errorf("%s: no package clause", files[0])
	}
	return string(m[1]), nil
}
