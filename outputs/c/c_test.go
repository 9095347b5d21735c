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

// header returns the board's header text.
func header(t *testing.T, b *ir.Board) string {
	t.Helper()
	fs := Emit(b)
	if len(fs) != 3 {
		t.Fatalf("Emit returned %d files, want the header, the verifier and its Kbuild", len(fs))
	}
	var h string
	for _, f := range fs {
		switch f.Path {
		case HeaderName(b):
			h = string(f.Data)
		case VerifyName(b), "Kbuild":
		default:
			t.Fatalf("unexpected file %s", f.Path)
		}
	}
	return h
}

func TestNames(t *testing.T) {
	b := board("ls2088a-rdb", nil)
	for _, tc := range []struct{ got, want string }{
		{HeaderName(b), "boardc_ls2088a_rdb.h"},
		{CapsTable(b), "boardc_ls2088a_rdb_dma_caps_of_match"},
		{LookupFunc(b), "boardc_ls2088a_rdb_dma_caps_lookup"},
		{SetupFunc(b), "boardc_ls2088a_rdb_dma_setup"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// onBus returns m moved to a bus whose dma-ranges reach limit (0: an
// empty, identity dma-ranges; no bus at all for none).
func onBus(m *ir.Master, limit uint64) *ir.Master {
	m.Bus = &ir.Bus{Key: "narrow", HasDMARanges: true, DMARangesPos: pos(5)}
	if limit != 0 {
		m.Bus.DMARanges = []ir.DMARange{{Child: 0, Parent: 0, Size: limit + 1}}
	}
	return m
}

// TestKernelDefault: a master's device keeps 32-bit masks unless the
// dma-ranges above it reach less (of_dma_configure_id() narrows both to
// DMA_BIT_MASK(ilog2(end) + 1)); an entry exists only where the described
// masks differ from that.
func TestKernelDefault(t *testing.T) {
	split := func(m *ir.Master, coherent int) *ir.Master { m.CoherentBits = coherent; return m }
	for _, tc := range []struct {
		name  string
		m     *ir.Master
		def   int
		entry bool
	}{
		{"32 bits, no dma-ranges", master("a", 32, 10, "v,a"), 32, false},
		{"40 bits, no dma-ranges", master("a", 40, 10, "v,a"), 32, true},
		{"64 bits, identity dma-ranges", onBus(master("a", 64, 10, "v,a"), 0), 32, true},
		{"32 bits, 40-bit dma-ranges", onBus(master("a", 32, 10, "v,a"), 1<<40-1), 32, false},
		{"40 bits, 40-bit dma-ranges", onBus(master("a", 40, 10, "v,a"), 1<<40-1), 32, true},
		{"30 bits, 1 GiB dma-ranges", onBus(master("a", 30, 10, "v,a"), 1<<30-1), 30, false},
		{"32 bits, 1 GiB dma-ranges", onBus(master("a", 32, 10, "v,a"), 1<<30-1), 30, true},
		{"28 bits, no dma-ranges", master("a", 28, 10, "v,a"), 32, true},
		{"32 streaming, 30 coherent", split(master("a", 32, 10, "v,a"), 30), 32, true},
		{"40 streaming, 32 coherent", split(master("a", 40, 10, "v,a"), 32), 32, true},
	} {
		if got := KernelDefault(tc.m); got != tc.def {
			t.Errorf("%s: KernelDefault = %d, want %d", tc.name, got, tc.def)
		}
		caps := Capabilities(board("t", nil, tc.m))
		if got := len(caps) == 1; got != tc.entry {
			t.Errorf("%s: an entry: %v, want %v (%+v)", tc.name, got, tc.entry, caps)
		}
	}
}

// TestCaps: one static const struct boardc_dma_caps per compatible whose
// masks differ from the kernel's, each entry of the static match table
// pointing at it; nothing exported, no global symbol, and a master that
// keeps the kernel's masks listed as such, with no entry.
func TestCaps(t *testing.T) {
	kept := master("eth0", 32, 10, "vendor,eth")
	b := board("t", nil,
		kept,
		master("crypto", 64, 20, "vendor,crypto"),
		master("usb0", 40, 30, "vendor,usb"))
	h := header(t, b)
	for _, m := range b.SoC.Masters[1:] {
		sym := "boardc_t_dma_caps_" + ir.CIdent(m.Compatible[0])
		def := fmt.Sprintf("static const struct boardc_dma_caps %s __maybe_unused = {\n\t.streaming_bits = %d,\n\t.coherent_bits = %d,\n};\n",
			sym, m.DMABits, m.DMABits)
		if !strings.Contains(h, def) {
			t.Errorf("header lacks\n%s", def)
		}
		entry := fmt.Sprintf("\t{ .compatible = %q, .data = &%s },\n", m.Compatible[0], sym)
		if !strings.Contains(h, entry) {
			t.Errorf("match table lacks %q", entry)
		}
		// Provenance: the comment above the definition names the width's position.
		if !regexp.MustCompile(regexp.QuoteMeta(m.DMABitsPos.Short()) + `[^/]*\*/\nstatic const struct boardc_dma_caps ` + sym).MatchString(h) {
			t.Errorf("%s: no provenance comment naming %s:\n%s", sym, m.DMABitsPos.Short(), h)
		}
	}
	if strings.Contains(h, "vendor,eth") || strings.Contains(h, "dma_caps_vendor_eth") {
		t.Errorf("an entry for eth0, which keeps the kernel's 32-bit masks:\n%s", h)
	}
	if !strings.Contains(h, " *   eth0: 32-bit DMA (soc/test/test.cue:11), the kernel's 32 bits\n") {
		t.Errorf("eth0 is not listed as keeping the kernel's masks:\n%s", h)
	}
	if !strings.Contains(h, "static const struct of_device_id boardc_t_dma_caps_of_match[] __maybe_unused = {\n") ||
		!strings.Contains(h, "\t{ }\n};\n") {
		t.Errorf("the match table is not static or not terminated:\n%s", h)
	}
	for _, bad := range []string{"EXPORT_SYMBOL", "extern ", "MODULE_"} {
		if strings.Contains(h, bad) {
			t.Errorf("the header holds %q: a second module of the board would clash", bad)
		}
	}
	// Every definition at file scope is static: no global symbol.
	for _, l := range strings.Split(h, "\n") {
		if regexp.MustCompile(`^[a-z].*[=(]`).MatchString(l) && !strings.HasPrefix(l, "static ") && !strings.HasPrefix(l, "boardc_t_dma_caps_lookup(") {
			t.Errorf("a definition that is not static: %q", l)
		}
	}
	for _, want := range []string{
		"static inline const struct boardc_dma_caps *\nboardc_t_dma_caps_lookup(const struct device_node *np)\n{\n",
		"\tid = of_match_node(boardc_t_dma_caps_of_match, np);\n\treturn id ? id->data : NULL;\n",
		"static inline int boardc_t_dma_setup(struct device *dev)\n{\n\tconst struct boardc_dma_caps *caps = boardc_t_dma_caps_lookup(dev->of_node);\n\n\treturn caps ? boardc_dma_caps_apply(dev, caps) : 0;\n}\n",
	} {
		if !strings.Contains(h, want) {
			t.Errorf("the header lacks\n%s", want)
		}
	}
	flat := strings.Join(strings.Fields(strings.ReplaceAll(h, "\n *", " ")), " ")
	if strings.Count(flat, "of_device_id.data") != 1 || !strings.Contains(flat, "leaves a driver's own match table and its of_device_id.data alone") {
		t.Errorf("the header advises of_device_id.data:\n%s", h)
	}
}

// TestNothingToApply: a board whose masters all keep what the kernel
// gives them, or set their own masks, says so, and still has the table
// and the functions, which then find nothing.
func TestNothingToApply(t *testing.T) {
	set := master("set", 64, 20, "v,set")
	set.DriverSets = &ir.DriverSet{Source: "drv_probe()"}
	for _, tc := range []struct {
		b    *ir.Board
		says string
	}{
		{board("t", nil, master("eth", 32, 10, "v,eth"), onBus(master("n", 30, 30, "v,n"), 1<<30-1), set),
			"keeps what the kernel already gives it: nothing to apply."},
		{board("t", nil, set), "driver sets its own): nothing to apply."},
	} {
		h := header(t, tc.b)
		flat := strings.Join(strings.Fields(strings.ReplaceAll(h, "\n *", " ")), " ")
		if !strings.Contains(flat, tc.says) {
			t.Errorf("the header does not say %q:\n%s", tc.says, h)
		}
		if strings.Contains(h, "struct boardc_dma_caps boardc_t_") ||
			!strings.Contains(h, "boardc_t_dma_caps_of_match[] __maybe_unused = {\n\t{ }\n};\n") ||
			!strings.Contains(h, "boardc_t_dma_caps_lookup(const struct device_node *np)") ||
			!strings.Contains(h, "boardc_t_dma_setup(struct device *dev)") {
			t.Errorf("not an empty table with its functions:\n%s", h)
		}
	}
}

func TestCapabilities(t *testing.T) {
	a := master("a", 32, 10, "v,a", "generic")
	bb := master("b", 40, 20, "v,b", "generic")
	c := master("c", 64, 30, "v,c", "v,c")     // duplicate compatible on one master
	d := master("d", 48, 40, "v,c-d", "v,c_d") // two compatibles, one C identifier
	e := master("e", 28, 50, "v,e", "generic2")
	f := master("f", 40, 60, "v,f", "generic2")
	caps := Capabilities(board("t", nil, a, bb, c, d, e, f))
	var got []string
	for _, e := range caps {
		got = append(got, fmt.Sprintf("%s=%d/%d/%d %s", e.Compatible, e.Bits, e.CoherentBits, len(e.Masters), e.Symbol))
	}
	// generic: the narrowest of a and b is the kernel's 32 bits, no
	// entry; generic2: e's 28 bits narrow f's 40, an entry for both.
	want := []string{
		"generic2=28/28/2 boardc_t_dma_caps_generic2",
		"v,b=40/40/1 boardc_t_dma_caps_v_b",
		"v,c=64/64/1 boardc_t_dma_caps_v_c",
		"v,c-d=48/48/1 boardc_t_dma_caps_v_c_d",
		"v,c_d=48/48/1 boardc_t_dma_caps_v_c_d_2",
		"v,e=28/28/1 boardc_t_dma_caps_v_e",
		"v,f=40/40/1 boardc_t_dma_caps_v_f",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Capabilities =\n%v\nwant\n%v", got, want)
	}
	h := header(t, board("t", nil, a, bb, c, d, e, f))
	flat := strings.Join(strings.Fields(strings.ReplaceAll(h, "\n *", " ")), " ")
	if !strings.Contains(flat, "generic2: narrowest of e 28-bit DMA, f 40-bit DMA; soc/test/test.cue:51; soc/test/test.cue:61: 28-bit DMA; the kernel gives 32 bits") {
		t.Errorf("no provenance of the shared compatible:\n%s", h)
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
	h := header(t, b)
	if !strings.Contains(h, "boardc_t_dma_caps_v_a __maybe_unused = {\n\t.streaming_bits = 40,\n\t.coherent_bits = 32,\n};") {
		t.Errorf("the caps lack the split widths:\n%s", h)
	}
	if flat := strings.Join(strings.Fields(strings.ReplaceAll(h, "\n *", " ")), " "); !strings.Contains(flat, "v,a: a; soc/test/test.cue:11: 40-bit streaming and 32-bit coherent DMA; the kernel gives 32 bits") {
		t.Errorf("the header does not say the split widths:\n%s", h)
	}
	for _, m := range []*ir.Master{set, off} {
		if strings.Contains(h, m.Compatible[0]) || strings.Contains(h, ir.CIdent(m.Compatible[0])) {
			t.Errorf("the C covers master %s, which it must not", m.Key)
		}
	}
}

// TestNarrowedDefault: the header says when the kernel's default was
// narrowed by dma-ranges, naming the bus and its position.
func TestNarrowedDefault(t *testing.T) {
	h := header(t, board("t", nil, onBus(master("a", 32, 10, "v,a"), 1<<30-1), onBus(master("k", 30, 20, "v,k"), 1<<30-1)))
	flat := strings.Join(strings.Fields(strings.ReplaceAll(h, "\n *", " ")), " ")
	for _, want := range []string{
		"v,a: a; soc/test/test.cue:11: 32-bit DMA; the kernel gives 30 bits (32 narrowed by the dma-ranges of narrow, up to 0x3fffffff, soc/test/test.cue:5)",
		"k: 30-bit DMA (soc/test/test.cue:21), the kernel's 30 bits (32 narrowed by the dma-ranges of narrow, up to 0x3fffffff, soc/test/test.cue:5)",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("the header lacks %q:\n%s", want, h)
		}
	}
}

// TestNoDPAA2Tables: the DPAA2 channel and stash tables are gone; the C
// of a DPAA2 board holds DMA capabilities only.
func TestNoDPAA2Tables(t *testing.T) {
	h := header(t, ls2088aLike())
	for _, s := range []string{"dpaa2", "dpio", "channel", "sdest"} {
		if strings.Contains(strings.ToLower(h), s) {
			t.Errorf("the C of a DPAA2 board mentions %q", s)
		}
	}
}

func TestConventions(t *testing.T) {
	b := ls2088aLike()
	h := header(t, b)
	if !strings.HasPrefix(h, "/* SPDX-License-Identifier: GPL-2.0 */\n") {
		t.Error("header does not start with its SPDX line")
	}
	if !strings.Contains(h, " * Generated by boardc from the board description. DO NOT EDIT.\n") {
		t.Error("no generated notice")
	}
	if regexp.MustCompile(`(?i)version|20[0-9][0-9]-[0-9][0-9]`).MatchString(h) {
		t.Error("a version or a date in the output")
	}
	if regexp.MustCompile(`(?m)^ +[^ *]`).MatchString(h) {
		t.Error("a line indented with spaces")
	}
	if strings.Contains(h, " \n") || strings.Contains(h, "\t\n") {
		t.Error("trailing white space")
	}
	if !strings.Contains(h, "#ifndef BOARDC_LS_LIKE_H\n#define BOARDC_LS_LIKE_H\n") || !strings.HasSuffix(h, "#endif /* BOARDC_LS_LIKE_H */\n") {
		t.Error("no include guard")
	}
	syms := regexp.MustCompile(`(?m)^static const struct boardc_dma_caps (boardc_\w+) __maybe_unused = \{`).FindAllStringSubmatch(h, -1)
	if len(syms) != 3 {
		t.Errorf("%d entries, want the two compatibles of crypto and that of usb0:\n%s", len(syms), h)
	}
}

func TestCommentInjection(t *testing.T) {
	b := ls2088aLike()
	b.Model = "Evil */ int x; /* board\nsecond line"
	h := header(t, b)
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
	h := header(t, hostileTextBoard())
	for _, f := range []string{h} {
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
