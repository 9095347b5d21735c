package kc

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/ir"
)

// pos returns a position in a made-up SoC file.
func pos(line int) ir.Pos {
	return ir.Pos{File: "/abs/boards/soc/test/test.cue", Src: "soc/test/test.cue", Line: line, Col: 3}
}

// master returns an enabled master on a coherent bus.
func master(key string, bits, line int, compat ...string) *ir.Master {
	return &ir.Master{
		Key: key, Pos: pos(line),
		Node:       ir.Node{Label: key, Path: "/soc/" + key + "@1000"},
		Compatible: compat, Bus: &ir.Bus{Key: "soc"},
		DMABits: bits, DMABitsPos: pos(line + 1),
		Driver: "drv", Enabled: true,
	}
}

// dpaa2 returns a DPAA2 block where DPIO i serves cpus[i].
func dpaa2(base, size int, cpus ...int) *ir.DPAA2 {
	d := &ir.DPAA2{
		StashClusterBase: base, StashClusterSize: size,
		StashSource: "drivers/soc/fsl/dpio/dpio-driver.c: dpaa2_dpio_get_cluster_sdest()",
		StashPos:    pos(90), Pos: pos(80),
	}
	for i, c := range cpus {
		d.DPIOs = append(d.DPIOs, ir.DPIO{ID: i, CPU: c, Pos: pos(100 + i)})
	}
	return d
}

// board returns a board named name with the given masters and DPAA2.
func board(name string, d *ir.DPAA2, ms ...*ir.Master) *ir.Board {
	return &ir.Board{
		Name: name, Model: "Test Board", Pos: pos(1),
		SoC: ir.SoC{Name: "test-soc", Masters: ms, DPAA2: d},
	}
}

// ls2088aLike is an 8-CPU board with LS2088A stashing (base 0, size 2).
func ls2088aLike() *ir.Board {
	return board("ls-like", dpaa2(0, 2, 0, 1, 2, 3, 4, 5, 6, 7),
		master("crypto", 48, 10, "fsl,sec-v5.0", "fsl,sec-v4.0"),
		master("usb0", 40, 20, "snps,dwc3"))
}

// files returns the board's header and source text.
func files(t *testing.T, b *ir.Board) (h, c string) {
	t.Helper()
	fs := Emit(b)
	if len(fs) != 4 {
		t.Fatalf("Emit returned %d files, want the header, the source, the verifier and its Kbuild", len(fs))
	}
	for _, f := range fs {
		switch f.Path {
		case HeaderName(b):
			h = string(f.Data)
		case SourceName(b):
			c = string(f.Data)
		case VerifyName(b), "Kbuild":
		default:
			t.Fatalf("unexpected file %s", f.Path)
		}
	}
	return h, c
}

// body returns the body of the C function name in src.
func body(t *testing.T, src, name string) string {
	t.Helper()
	i := strings.Index(src, " "+name+"(")
	if i < 0 {
		i = strings.Index(src, "*"+name+"(")
	}
	if i < 0 {
		t.Fatalf("no function %s in:\n%s", name, src)
	}
	rest := src[i:]
	open := strings.Index(rest, "\n{\n")
	end := strings.Index(rest, "\n}\n")
	if open < 0 || end < open {
		t.Fatalf("function %s has no body", name)
	}
	return rest[open+3 : end+1]
}

func TestNames(t *testing.T) {
	b := board("ls2088a-rdb", nil)
	if got := HeaderName(b); got != "boardc_ls2088a_rdb.h" {
		t.Errorf("HeaderName = %q", got)
	}
	if got := SourceName(b); got != "boardc_ls2088a_rdb.c" {
		t.Errorf("SourceName = %q", got)
	}
	if got := SetupFunc(b, master("fsl_mc", 48, 1)); got != "boardc_ls2088a_rdb_fsl_mc_dma_setup" {
		t.Errorf("SetupFunc = %q", got)
	}
}

func TestDMASetup(t *testing.T) {
	b := board("t", nil,
		master("eth0", 32, 10, "vendor,eth"),
		master("crypto", 64, 20, "vendor,crypto"),
		master("usb0", 40, 30, "vendor,usb"))
	h, c := files(t, b)
	for _, m := range b.SoC.Masters {
		name := SetupFunc(b, m)
		if !strings.Contains(h, "int "+name+"(struct device *dev);") {
			t.Errorf("header lacks the prototype of %s", name)
		}
		got := body(t, c, name)
		want := fmt.Sprintf("dma_set_mask_and_coherent(dev, DMA_BIT_MASK(%d));", m.DMABits)
		if n := strings.Count(got, "dma_set_mask_and_coherent("); n != 1 || !strings.Contains(got, want) {
			t.Errorf("%s: want exactly one call %s, got:\n%s", name, want, got)
		}
		for _, s := range []string{"dev_err(dev,", "return err;"} {
			if !strings.Contains(got, s) {
				t.Errorf("%s: no %q in:\n%s", name, s, got)
			}
		}
		// Provenance: the comment above the function names the width's position.
		if !strings.Contains(c, m.DMABitsPos.Short()+"\n */\nint "+name) &&
			!strings.Contains(c, m.DMABitsPos.Short()+" */\nint "+name) {
			t.Errorf("%s: no provenance comment naming %s", name, m.DMABitsPos.Short())
		}
	}
	if strings.Contains(body(t, c, SetupFunc(b, b.SoC.Masters[1])), "DMA_BIT_MASK(32)") {
		t.Error("64-bit master falls back to 32 bits")
	}
}

func TestWidths(t *testing.T) {
	a := master("a", 32, 10, "v,a", "generic")
	bb := master("b", 40, 20, "v,b", "generic")
	c := master("c", 64, 30, "v,c", "v,c") // duplicate compatible on one master
	ws := Widths(board("t", nil, a, bb, c))
	var got []string
	for _, w := range ws {
		got = append(got, fmt.Sprintf("%s=%d/%d", w.Compatible, w.Bits, len(w.Masters)))
	}
	want := []string{"generic=32/2", "v,a=32/1", "v,b=40/1", "v,c=64/1"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Widths = %v, want %v", got, want)
	}
	_, src := files(t, board("t", nil, a, bb, c))
	if !strings.Contains(src, "/* narrowest of a 32, b 40; soc/test/test.cue:11 */") {
		t.Errorf("no provenance of the shared compatible:\n%s", src)
	}
	if !strings.Contains(src, "\t{ .compatible = \"generic\", .dma_bits = 32, .coherent_bits = 32 },") {
		t.Errorf("table lacks the narrowest width of the shared compatible:\n%s", src)
	}
}

// TestSplitMasks: a master whose coherent mask is narrower than its
// streaming one gets both set apart; one whose driver sets its masks, or
// that the board disables, gets no C at all.
func TestSplitMasks(t *testing.T) {
	a := master("a", 40, 10, "v,a")
	a.CoherentBits, a.CoherentBitsPos = 32, a.DMABitsPos
	set := master("set", 64, 20, "v,set")
	set.DriverSets = &ir.DriverSet{Source: "drv_probe()"}
	off := master("off", 32, 30, "v,off")
	off.Enabled = false
	b := board("t", nil, a, set, off)
	h, c := files(t, b)
	got := body(t, c, SetupFunc(b, a))
	for _, want := range []string{"dma_set_mask(dev, DMA_BIT_MASK(40));", "dma_set_coherent_mask(dev, DMA_BIT_MASK(32));"} {
		if !strings.Contains(got, want) {
			t.Errorf("%s lacks %s:\n%s", SetupFunc(b, a), want, got)
		}
	}
	if strings.Contains(got, "dma_set_mask_and_coherent") {
		t.Errorf("split masks set as one:\n%s", got)
	}
	if !strings.Contains(c, "{ .compatible = \"v,a\", .dma_bits = 40, .coherent_bits = 32 },") {
		t.Errorf("table lacks the split widths:\n%s", c)
	}
	for _, m := range []*ir.Master{set, off} {
		for _, name := range []string{SetupFunc(b, m), m.Compatible[0]} {
			if strings.Contains(h+c, name) {
				t.Errorf("%s appears in the C of a master the C must not cover (%s)", name, m.Key)
			}
		}
	}
}

func TestChannelsLS2088A(t *testing.T) {
	chs := Channels(ls2088aLike())
	var cpus, sdest []int
	for _, c := range chs {
		cpus = append(cpus, c.DPIO.CPU)
		sdest = append(sdest, c.SDest)
	}
	if want := []int{0, 1, 2, 3, 4, 5, 6, 7}; !reflect.DeepEqual(cpus, want) {
		t.Errorf("channel CPUs = %v, want %v", cpus, want)
	}
	if want := []int{0, 0, 1, 1, 2, 2, 3, 3}; !reflect.DeepEqual(sdest, want) {
		t.Errorf("stash destinations = %v, want %v", sdest, want)
	}
	h, c := files(t, ls2088aLike())
	if !strings.Contains(h, "#define BOARDC_LS_LIKE_NUM_CHANNELS\t8\n") {
		t.Error("header lacks the channel count")
	}
	for i := 0; i < 8; i++ {
		e := fmt.Sprintf("\t{ .id = %d, .cpu = %d, .sdest = %d },\t/* soc/test/test.cue:%d */", i, i, i/2, 100+i)
		if !strings.Contains(c, e) {
			t.Errorf("no DPIO entry %q", e)
		}
		e = fmt.Sprintf("\t[%d] = %d,\t/* dpio.%d, soc/test/test.cue:%d */", i, i, i, 100+i)
		if !strings.Contains(c, e) {
			t.Errorf("no channel entry %q", e)
		}
	}
	io := body(t, c, "boardc_ls_like_channel_io")
	want := "\tif (ch >= ARRAY_SIZE(boardc_ls_like_channel_cpus))\n\t\treturn NULL;\n" +
		"\treturn dpaa2_io_service_select(boardc_ls_like_channel_cpus[ch]);\n"
	if io != want {
		t.Errorf("channel_io body:\n%s\nwant:\n%s", io, want)
	}
	if !strings.Contains(c, "#include <soc/fsl/dpaa2-io.h>") || !strings.Contains(h, "struct dpaa2_io *boardc_ls_like_channel_io(unsigned int ch);") {
		t.Error("DPAA2 include or prototype missing")
	}
	// The stash call is a snippet in a comment, never a call: its
	// declaration is in drivers/soc/fsl/dpio/dpio.h, not a public header.
	for _, l := range strings.Split(h+c, "\n") {
		if strings.Contains(l, "dpio_set_stashing_destination(") && !strings.HasPrefix(l, " *") {
			t.Errorf("dpio_set_stashing_destination outside a comment: %q", l)
		}
	}
	if !strings.Contains(h, " *\t\terr = dpio_set_stashing_destination(dpio_dev->mc_io, 0,") {
		t.Error("header lacks the call-site snippet")
	}
}

func TestChannelsLS1088A(t *testing.T) {
	chs := Channels(board("ls1088a-like", dpaa2(2, 4, 0, 1, 2, 3, 4, 5, 6, 7)))
	var sdest []int
	for _, c := range chs {
		sdest = append(sdest, c.SDest)
	}
	if want := []int{2, 2, 2, 2, 3, 3, 3, 3}; !reflect.DeepEqual(sdest, want) {
		t.Errorf("stash destinations = %v, want %v", sdest, want)
	}
}

func TestChannelsFollowAffinity(t *testing.T) {
	d := dpaa2(0, 2, 6, 7, 0, 1)
	d.DPIOs[0].ID, d.DPIOs[1].ID, d.DPIOs[2].ID, d.DPIOs[3].ID = 2, 3, 5, 9
	b := board("t", d)
	_, c := files(t, b)
	for i, want := range []string{"[0] = 6,\t/* dpio.2,", "[1] = 7,\t/* dpio.3,", "[2] = 0,\t/* dpio.5,", "[3] = 1,\t/* dpio.9,"} {
		if !strings.Contains(c, "\t"+want) {
			t.Errorf("channel %d: no %q", i, want)
		}
	}
	if !strings.Contains(c, "{ .id = 9, .cpu = 1, .sdest = 0 },") || !strings.Contains(c, "{ .id = 2, .cpu = 6, .sdest = 3 },") {
		t.Errorf("DPIO table does not follow the affinity:\n%s", c)
	}
}

func TestChannelsOutOfRange(t *testing.T) {
	// A destination above 255 does not fit dpio_set_stashing_destination()'s
	// u8 sdest; a zero cluster size must not divide by zero.
	for _, d := range []*ir.DPAA2{dpaa2(250, 1, 0, 10), dpaa2(0, 0, 0, 1)} {
		b := board("t", d)
		chs := Channels(b)
		if chs[1].SDest != -1 {
			t.Errorf("base %d size %d: sdest of CPU %d = %d, want -1", d.StashClusterBase, d.StashClusterSize, chs[1].DPIO.CPU, chs[1].SDest)
		}
		if _, c := files(t, b); !strings.Contains(c, ".sdest = -ERANGE },") {
			t.Errorf("no -ERANGE entry in:\n%s", c)
		}
	}
}

func TestNoDPIOs(t *testing.T) {
	_, c := files(t, board("t", dpaa2(0, 2)))
	if got := body(t, c, "boardc_t_channel_io"); got != "\treturn NULL;\n" {
		t.Errorf("channel_io with no DPIOs:\n%s", got)
	}
	if got := body(t, c, "boardc_t_dpio_sdest"); got != "\treturn -ENOENT;\n" {
		t.Errorf("dpio_sdest with no DPIOs:\n%s", got)
	}
	if strings.Contains(c, "[] = {") {
		t.Error("empty table emitted")
	}
}

func TestNoDPAA2(t *testing.T) {
	h, c := files(t, board("t", nil, master("eth0", 32, 10, "v,eth")))
	for _, s := range []string{"dpaa2", "dpio", "NUM_CHANNELS"} {
		if strings.Contains(h+c, s) {
			t.Errorf("board without DPAA2 mentions %q", s)
		}
	}
}

func TestConventions(t *testing.T) {
	b := ls2088aLike()
	h, c := files(t, b)
	if !strings.HasPrefix(h, "/* SPDX-License-Identifier: GPL-2.0 */\n") {
		t.Error("header does not start with its SPDX line")
	}
	if !strings.HasPrefix(c, "// SPDX-License-Identifier: GPL-2.0\n") {
		t.Error("source does not start with its SPDX line")
	}
	for _, f := range []string{h, c} {
		if !strings.Contains(f, " * Generated by boardc from the board description. DO NOT EDIT.\n") {
			t.Error("no generated notice")
		}
		if regexp.MustCompile(`(?i)version|20[0-9][0-9]-[0-9][0-9]`).MatchString(f) {
			t.Error("a version or a date in the output")
		}
		if regexp.MustCompile(`(?m)^ +[^ *]`).MatchString(f) {
			t.Error("a line indented with spaces")
		}
		if strings.Contains(f, " \n") || strings.Contains(f, "\t\n") {
			t.Error("trailing white space")
		}
	}
	if !strings.Contains(h, "#ifndef BOARDC_LS_LIKE_H\n#define BOARDC_LS_LIKE_H\n") || !strings.HasSuffix(h, "#endif /* BOARDC_LS_LIKE_H */\n") {
		t.Error("no include guard")
	}
	if !strings.Contains(c, "#include \"boardc_ls_like.h\"\n") {
		t.Error("the source does not include its header (W=1 wants prototypes)")
	}
	if !strings.Contains(c, "static const struct boardc_dma_width boardc_ls_like_dma_widths[] = {") {
		t.Error("no static const width table")
	}
	// Every global function of the source has its prototype in the header.
	for _, m := range regexp.MustCompile(`(?m)^(?:int|unsigned int|struct dpaa2_io \*)(boardc_\w+)\(`).FindAllStringSubmatch(c, -1) {
		if !strings.Contains(h, m[1]+"(") {
			t.Errorf("%s has no prototype in the header", m[1])
		}
	}
}

func TestCommentInjection(t *testing.T) {
	b := ls2088aLike()
	b.Model = "Evil */ int x; /* board\nsecond line"
	h, _ := files(t, b)
	if strings.Contains(h, "*/ int x") || strings.Contains(h, "/* board") || strings.Contains(h, "\nsecond line") {
		t.Errorf("model text escaped its comment:\n%s", h)
	}
}

// hostileText is free text that would end a C comment, open another,
// splice lines, form a trigraph or carry control characters if printed
// raw; the schema refuses its control characters, the printer must cope
// with them anyway.
const hostileText = "x */ int pwned; /* y \\\n#define X ??/ \x00\x1b[2J\u202e // \"q\" \\"

// hostileTextBoard is ls2088aLike with hostileText in every free-text
// field the C prints: the model and the stash source.
func hostileTextBoard() *ir.Board {
	b := ls2088aLike()
	b.Name = "edge-hostile-text"
	b.Model = hostileText
	b.SoC.DPAA2.StashSource = hostileText
	return b
}

// TestHostileText: the model and the stash source stay inside their
// comments, on their lines.
func TestHostileText(t *testing.T) {
	h, c := files(t, hostileTextBoard())
	for _, f := range []string{h, c} {
		for _, l := range strings.Split(f, "\n") {
			if strings.Contains(l, "pwned") && !strings.HasPrefix(strings.TrimSpace(l), "*") {
				t.Errorf("free text left its comment: %q", l)
			}
			if strings.HasPrefix(l, "#define X") || strings.ContainsAny(l, "\x00\x1b\u202e") {
				t.Errorf("free text made a line or reached it raw: %q", l)
			}
		}
	}
}

// EdgeBoards returns hand-built boards that exercise the corners of the
// emitter (a reordered DPIO affinity, LS1088A stashing, a destination that
// does not fit u8, DPAA2 without DPIOs, no masters at all, hostile free
// text), for the kbuild test to compile beside the in-tree boards.
func EdgeBoards() []*ir.Board {
	reordered := dpaa2(0, 2, 6, 7, 0, 1)
	reordered.DPIOs[3].ID = 9
	return []*ir.Board{
		hostileTextBoard(),
		ls2088aLike(),
		board("edge-ls1088a", dpaa2(2, 4, 0, 1, 2, 3, 4, 5, 6, 7), master("eth", 40, 10, "v,eth")),
		board("edge-reordered", reordered, master("a", 32, 10, "v,x"), master("b", 64, 20, "v,x")),
		board("edge-sdest-range", dpaa2(250, 1, 0, 10)),
		board("edge-no-dpio", dpaa2(0, 2)),
		board("edge-empty", nil),
	}
}

// TestVerifier: the verifier's table holds every enabled master, with the
// coherency, streaming and coherent widths the description gives it, and
// no disabled master.
func TestVerifier(t *testing.T) {
	a := master("a", 40, 10, "v,a")
	a.CoherentBits = 32
	off := master("off", 32, 30, "v,off")
	off.Enabled = false
	b := board("t", nil, a, off)
	var src string
	for _, f := range Emit(b) {
		if f.Path == VerifyName(b) {
			src = string(f.Data)
		}
	}
	if !strings.Contains(src, "\t{ \"a\", \"/soc/a@1000\", false, 40, 32 },") {
		t.Errorf("the verifier lacks master a's entry:\n%s", src)
	}
	if strings.Contains(src, "\"off\"") {
		t.Errorf("the verifier checks a disabled master:\n%s", src)
	}
	if !strings.Contains(src, "return strict && (bad || unbound) ? -EINVAL : 0;") {
		t.Errorf("strict does not fail the load:\n%s", src)
	}
}
