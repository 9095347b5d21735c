package c

import (
	"fmt"
	"reflect"
	"regexp"
	"runtime"
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

func TestNames(t *testing.T) {
	b := board("ls2088a-rdb", nil)
	if got := HeaderName(b); got != "boardc_ls2088a_rdb.h" {
		t.Errorf("HeaderName = %q", got)
	}
	if got := SourceName(b); got != "boardc_ls2088a_rdb.c" {
		t.Errorf("SourceName = %q", got)
	}
	if got := CapsTable(b); got != "boardc_ls2088a_rdb_dma_caps_of_match" {
		t.Errorf("CapsTable = %q", got)
	}
}

// TestCaps: one exported struct boardc_dma_caps per compatible, declared
// in the header, each entry of the match table pointing at it.
func TestCaps(t *testing.T) {
	b := board("t", nil,
		master("eth0", 32, 10, "vendor,eth"),
		master("crypto", 64, 20, "vendor,crypto"),
		master("usb0", 40, 30, "vendor,usb"))
	h, c := files(t, b)
	for _, m := range b.SoC.Masters {
		sym := "boardc_t_dma_caps_" + ir.CIdent(m.Compatible[0])
		if !strings.Contains(h, "extern const struct boardc_dma_caps "+sym+";") {
			t.Errorf("header lacks the declaration of %s", sym)
		}
		def := fmt.Sprintf("const struct boardc_dma_caps %s = {\n\t.streaming_bits = %d,\n\t.coherent_bits = %d,\n};\nEXPORT_SYMBOL_GPL(%s);\n",
			sym, m.DMABits, m.DMABits, sym)
		if !strings.Contains(c, def) {
			t.Errorf("source lacks\n%s", def)
		}
		entry := fmt.Sprintf("\t{ .compatible = %q, .data = &%s },\n", m.Compatible[0], sym)
		if !strings.Contains(c, entry) {
			t.Errorf("match table lacks %q", entry)
		}
		// Provenance: the comment above the definition names the width's position.
		if !strings.Contains(c, m.DMABitsPos.Short()+" */\nconst struct boardc_dma_caps "+sym) {
			t.Errorf("%s: no provenance comment naming %s:\n%s", sym, m.DMABitsPos.Short(), c)
		}
	}
	if !strings.Contains(c, "\t{ }\n};\nEXPORT_SYMBOL_GPL(boardc_t_dma_caps_of_match);\n") {
		t.Errorf("the match table is not terminated and exported:\n%s", c)
	}
	if n, e := strings.Count(c, "EXPORT_SYMBOL_GPL("), len(b.SoC.Masters)+1; n != e {
		t.Errorf("%d exports, want %d (every definition, GPL only)", n, e)
	}
	if strings.Contains(c, "EXPORT_SYMBOL(") {
		t.Error("a non-GPL export")
	}
	if regexp.MustCompile(`(?m)^(int|unsigned|void|static [a-z]+ [a-z]+\()`).MatchString(c) {
		t.Errorf("the source defines a function; it should hold data only:\n%s", c)
	}
}

func TestCapabilities(t *testing.T) {
	a := master("a", 32, 10, "v,a", "generic")
	bb := master("b", 40, 20, "v,b", "generic")
	c := master("c", 64, 30, "v,c", "v,c")     // duplicate compatible on one master
	d := master("d", 48, 40, "v,c-d", "v,c_d") // two compatibles, one C identifier
	caps := Capabilities(board("t", nil, a, bb, c, d))
	var got []string
	for _, e := range caps {
		got = append(got, fmt.Sprintf("%s=%d/%d/%d %s", e.Compatible, e.Bits, e.CoherentBits, len(e.Masters), e.Symbol))
	}
	want := []string{
		"generic=32/32/2 boardc_t_dma_caps_generic",
		"v,a=32/32/1 boardc_t_dma_caps_v_a",
		"v,b=40/40/1 boardc_t_dma_caps_v_b",
		"v,c=64/64/1 boardc_t_dma_caps_v_c",
		"v,c-d=48/48/1 boardc_t_dma_caps_v_c_d",
		"v,c_d=48/48/1 boardc_t_dma_caps_v_c_d_2",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Capabilities =\n%v\nwant\n%v", got, want)
	}
	_, src := files(t, board("t", nil, a, bb, c, d))
	flat := strings.Join(strings.Fields(strings.ReplaceAll(src, "\n *", " ")), " ")
	if !strings.Contains(flat, "generic: narrowest of a 32-bit DMA, b 40-bit DMA; soc/test/test.cue:11; soc/test/test.cue:21") {
		t.Errorf("no provenance of the shared compatible:\n%s", src)
	}
}

// TestSplitMasks: a master whose coherent mask is narrower than its
// streaming one gets both widths; one whose driver sets its masks, or
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
	if !strings.Contains(c, "boardc_t_dma_caps_v_a = {\n\t.streaming_bits = 40,\n\t.coherent_bits = 32,\n};") {
		t.Errorf("the caps lack the split widths:\n%s", c)
	}
	if !strings.Contains(h, "/* v,a: 40-bit streaming and 32-bit coherent DMA */") {
		t.Errorf("the header does not say the split widths:\n%s", h)
	}
	for _, m := range []*ir.Master{set, off} {
		if strings.Contains(h+c, m.Compatible[0]) || strings.Contains(h+c, ir.CIdent(m.Compatible[0])) {
			t.Errorf("the C covers master %s, which it must not", m.Key)
		}
	}
}

// TestNoDPAA2Tables: the DPAA2 channel and stash tables are gone; the C
// of a DPAA2 board holds DMA capabilities only.
func TestNoDPAA2Tables(t *testing.T) {
	h, c := files(t, ls2088aLike())
	for _, s := range []string{"dpaa2", "dpio", "channel", "sdest"} {
		if strings.Contains(strings.ToLower(h+c), s) {
			t.Errorf("the C of a DPAA2 board mentions %q", s)
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
	// Every global symbol of the source is declared in the header.
	syms := regexp.MustCompile(`(?m)^const struct \w+ (boardc_\w+)(?:\[\])? = \{`).FindAllStringSubmatch(c, -1)
	if len(syms) < 3 {
		t.Errorf("%d global symbols, want the two masters' caps and the match table:\n%s", len(syms), c)
	}
	for _, m := range syms {
		if !strings.Contains(h, "extern const struct") || !strings.Contains(h, " "+m[1]) {
			t.Errorf("%s is not declared in the header", m[1])
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
// emitter (split streaming and coherent widths, two compatibles of one
// C identifier, a reordered DPIO affinity, LS1088A stashing, a destination
// that does not fit u8, DPAA2 without DPIOs, no masters at all, hostile
// free text), for the kbuild test to compile beside the in-tree boards.
func EdgeBoards() []*ir.Board {
	reordered := dpaa2(0, 2, 6, 7, 0, 1)
	reordered.DPIOs[3].ID = 9
	split := master("split", 40, 30, "v,split")
	split.CoherentBits = 32
	return []*ir.Board{
		board("edge-split", nil, split, master("same", 64, 40, "v,same", "v-same")),
		hostileTextBoard(),
		ls2088aLike(),
		board("edge-ls1088a", dpaa2(2, 4, 0, 1, 2, 3, 4, 5, 6, 7), master("eth", 40, 10, "v,eth")),
		board("edge-reordered", reordered, master("a", 32, 10, "v,x"), master("b", 64, 20, "v,x")),
		board("edge-sdest-range", dpaa2(250, 1, 0, 10)),
		board("edge-no-dpio", dpaa2(0, 2)),
		board("edge-empty", nil),
		childrenBoard(false),
	}
}

// childrenBoard is a board whose fsl-mc master's masks are set on the
// devices below it, on a bus with dma-ranges reaching 48 bits when
// narrowed, else on one with none.
func childrenBoard(narrowed bool) *ir.Board {
	mc := master("fsl_mc", 64, 10, "fsl,qoriq-mc")
	mc.DriverSets = &ir.DriverSet{Source: "fsl_mc_device_add()", Pos: pos(12), Children: true, ChildrenPos: pos(13)}
	name := "edge-children"
	if narrowed {
		name = "edge-children-narrowed"
		mc.Bus = &ir.Bus{Key: "soc", HasDMARanges: true, DMARanges: []ir.DMARange{{Size: 1 << 48}}}
	}
	crypto := master("crypto", 49, 20, "fsl,sec-v5.0")
	crypto.Bus = mc.Bus
	return board(name, nil, mc, crypto)
}

// TestVerifierChildren: a master whose masks are set on the devices
// below it is checked there, expecting the widths of its description
// narrowed to its bus limit (of_dma_configure_id() at bind), and its own
// device for coherency and bus limit only; no device checked below fails
// a strict load.
func TestVerifierChildren(t *testing.T) {
	src := func(b *ir.Board) string {
		for _, f := range Emit(b) {
			if f.Path == VerifyName(b) {
				return string(f.Data)
			}
		}
		t.Fatal("no verifier")
		return ""
	}
	narrowed := src(childrenBoard(true))
	for _, want := range []string{
		"\t{ \"fsl_mc\", \"/soc/fsl_mc@1000\", false,\n\t  { 0x0ULL, 0x0ULL, \"any\", \"any\" },\n" +
			"\t  { 0x800000000000ULL, 0x800000000000ULL, \"48\", \"48\" },\n" +
			"\t  0xffffffffffffULL, 0xffffffffffffULL, true, boardc_edge_children_narrowed_verify_objects },",
		"\t{ \"crypto\", \"/soc/crypto@1000\", false,\n\t  { 0x1000000000000ULL, 0x1000000000000ULL, \"49\", \"49\" },\n" +
			"\t  { 0x0ULL, 0x0ULL, \"any\", \"any\" },\n\t  0xffffffffffffULL, 0xffffffffffffULL, false, NULL },",
		"\t{ \"dpseci\", \"dpaa2_caam\", { 0x1000000000000ULL, 0x1000000000000ULL, \"49\", \"49\" } },",
		"narrowed to 48/48 bits by the bus limit",
		"\telse if (m->children)\n\t\tbad += !check_node(m, dev);\n",
		"\telse if (m->children)\n\t\tbad += verify_below(m, dev);\n",
		"\treturn device_for_each_child(dev, walk, verify_child);\n",
		"\tdevice_for_each_child(dev, &walk, verify_child);\n",
		"\t\tif (!check(walk->m, dev, child_widths(walk->m, dev), walk->m->below_limit))\n",
		"\tbool match = coherent == m->coherent && dev->bus_dma_limit == m->bus_limit;\n",
		"NOCHILDREN %s %s",
		"return strict && (bad || unbound || below_unchecked) ? -EINVAL : 0;",
	} {
		if !strings.Contains(narrowed, want) {
			t.Errorf("the verifier lacks %q:\n%s", want, narrowed)
		}
	}
	// Without dma-ranges, of_dma_configure_id() narrows nothing.
	if plain := src(childrenBoard(false)); !strings.Contains(plain, "\t  { 0x8000000000000000ULL, 0x8000000000000000ULL, \"64\", \"64\" },\n\t  0x0ULL, 0x0ULL, true, boardc_edge_children_verify_objects },") {
		t.Errorf("the verifier narrows the children's masks with no dma-ranges:\n%s", plain)
	}
}

// TestSharedCompatibleLinear: the memory Emit allocates grows linearly
// with the masters sharing a compatible (one capability entry, whose
// origin and comment name them all), where merging their origins
// pairwise grew it with their square.
func TestSharedCompatibleLinear(t *testing.T) {
	alloc := func(n int) uint64 {
		var ms []*ir.Master
		for i := range n {
			m := master(fmt.Sprint("dma", i), 32+8*(i%2), 10*i+10, "vendor,dma")

			ms = append(ms, m)
		}
		b := board("many", nil, ms...)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		Emit(b)
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := alloc(400), alloc(2000)
	if ratio := float64(large) / float64(small); ratio > 8 {
		t.Errorf("5x the masters allocate %.1fx the memory (%d bytes, then %d)", ratio, small, large)
	}
}
