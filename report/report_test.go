package report_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"html"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"boardc.dev/boardc"
	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/internal/golden"
	"boardc.dev/boardc/internal/intree"
	"boardc.dev/boardc/outputs"
	"boardc.dev/boardc/report"
)

const boardsDir = "../boards"

// input returns the report input of a compiled board, with the origins
// of its outputs' lines, as boardc report makes it.
func input(t testing.TB, r *boardc.Result) *report.Input {
	t.Helper()
	in := &report.Input{Board: r.Board, Diagnostics: r.Diagnostics, Outputs: report.OutputsOf(r.Manifest)}
	if len(in.Outputs) == 0 {
		t.Fatalf("%s: no outputs", r.Board.Name)
	}
	// The description's files by module-relative path, as boardc report
	// reads them; the in-tree module root is boards/.
	in.Source = map[string][]string{}
	for _, s := range r.Board.Sources {
		data, err := os.ReadFile(filepath.Join(boardsDir, filepath.FromSlash(s.Rel)))
		if err != nil {
			t.Fatal(err)
		}
		in.Source[s.Rel] = strings.Split(string(data), "\n")
	}
	return in
}

// TestGoldenDOT compares each in-tree board's DOT with
// testdata/golden/<board>.dot (BOARDC_UPDATE=1 rewrites them).
func TestGoldenDOT(t *testing.T) {
	var files []outputs.File
	for _, r := range intree.CompileAll(t, boardsDir) {
		dot := report.DOT(input(t, r))
		if !bytes.Equal(dot, report.DOT(input(t, r))) {
			t.Errorf("%s: two DOTs of one board differ", r.Board.Name)
		}
		files = append(files, outputs.File{Path: r.Board.Name + ".dot", Data: dot})
	}
	golden.Check(t, filepath.Join("testdata", "golden"), files)
}

// svgTexts parses svg as XML, failing the test when it is not
// well-formed or its root is not an svg element, and returns the text of
// its <text> elements.
func svgTexts(t *testing.T, name string, svg []byte) []string {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(svg))
	dec.Strict = true
	var texts []string
	var root string
	depth, inText := 0, false
	var cur strings.Builder
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: the SVG is not well-formed: %v", name, err)
		}
		switch x := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				root = x.Name.Local
			}
			depth++
			if x.Name.Local == "text" {
				inText = true
				cur.Reset()
			}
		case xml.EndElement:
			depth--
			if x.Name.Local == "text" {
				inText = false
				texts = append(texts, cur.String())
			}
		case xml.CharData:
			if inText {
				cur.Write(x)
			}
		}
	}
	if root != "svg" || depth != 0 {
		t.Fatalf("%s: root element %q, depth %d at the end; want a closed svg", name, root, depth)
	}
	return texts
}

// TestSVG lays out each in-tree board: the SVG is well-formed XML and
// names every master, bus and CPU in a text element of its own.
func TestSVG(t *testing.T) {
	for _, r := range intree.CompileAll(t, boardsDir) {
		b := r.Board
		svg, err := layoutSVG(t, report.DOT(input(t, r)))
		if err != nil {
			t.Fatalf("%s: %v", b.Name, err)
		}
		texts := map[string]bool{}
		for _, s := range svgTexts(t, b.Name, svg) {
			texts[s] = true
		}
		want := []string{"memory", "legend"}
		for _, m := range b.SoC.Masters {
			want = append(want, m.Key)
		}
		for _, bus := range b.SoC.Buses {
			want = append(want, "bus "+bus.Key)
		}
		for _, c := range b.SoC.Clusters {
			for _, cpu := range c.CPUs {
				want = append(want, "CPU "+strconv.Itoa(cpu))
			}
		}
		for _, w := range want {
			if !texts[w] {
				t.Errorf("%s: no <text> %q in the SVG", b.Name, w)
			}
		}
	}
}

// TestHTML makes each in-tree board's page: it holds the picture inline,
// loads nothing, and lists every master, diagnostic and output.
func TestHTML(t *testing.T) {
	for _, r := range intree.CompileAll(t, boardsDir) {
		in := input(t, r)
		svg, err := layoutSVG(t, report.DOT(in))
		if err != nil {
			t.Fatal(err)
		}
		page, err := report.HTML(in, svg)
		if err != nil {
			t.Fatal(err)
		}
		s := string(page)
		for _, bad := range []string{"<script", "http://", "https://", "<link", "<img", "@import", "url("} {
			// The SVG's namespace declarations name the W3C's URIs: they
			// are names, not resources; nothing else may.
			rest := strings.NewReplacer(`xmlns="http://www.w3.org/2000/svg"`, "", `xmlns:xlink="http://www.w3.org/1999/xlink"`, "").Replace(s)
			if strings.Contains(rest, bad) {
				t.Errorf("%s: the page holds %q: it must load nothing", r.Board.Name, bad)
			}
		}
		unescaped := html.UnescapeString(s)
		if n := strings.Count(s, "<svg"); n != 1 {
			t.Errorf("%s: %d <svg> elements, want the picture inline once", r.Board.Name, n)
		}
		for _, m := range r.Board.SoC.Masters {
			if !strings.Contains(s, "<td><b>"+m.Key+"</b>") {
				t.Errorf("%s: master %s has no row", r.Board.Name, m.Key)
			}
		}
		for _, d := range r.Diagnostics {
			if !strings.Contains(s, d.Pos.String()) || !strings.Contains(s, d.Code) {
				t.Errorf("%s: diagnostic %s at %s not on the page", r.Board.Name, d.Code, d.Pos)
			}
		}
		for _, o := range in.Outputs {
			if !strings.Contains(s, "<code>"+o.Path+"</code>") {
				t.Errorf("%s: output %s not on the page", r.Board.Name, o.Path)
			}
			// Each fact behind an output's lines is quoted from the
			// description, where the line holds text.
			for _, l := range o.Lines {
				for _, p := range l.Pos {
					text := strings.TrimSpace(in.Source[p.Src][p.Line-1])
					want := `<span class="mono src">` + p.String() + "</span>"
					if text != "" {
						want += ` <span class="quote">` + text + "</span>"
					}
					if !strings.Contains(unescaped, want) {
						t.Errorf("%s: %s: no %s", r.Board.Name, o.Path, want)
					}
				}
			}
		}
	}
}

// short returns a copy of the in-tree ESPRESSObin with 4 GiB more RAM
// above 4 GiB: its 32-bit masters then cannot reach all of it.
func short(t *testing.T) *report.Input {
	r := intree.Compile(t, filepath.Join(boardsDir, "espressobin"))
	b := *r.Board
	b.Memory = append(append([]ir.MemRegion{}, b.Memory...), ir.MemRegion{Base: 1 << 32, Size: 1 << 32})
	return &report.Input{Board: &b}
}

// TestShortReach: a master that cannot reach all the described RAM is drawn in red with
// its reach, in the picture and on the page; one that can is not.
func TestShortReach(t *testing.T) {
	in := short(t)
	dot := string(report.DOT(in))
	eth0 := nodeLine(t, dot, "m_eth0")
	if !strings.Contains(eth0, `color="#cb181d", penwidth=3`) || !strings.Contains(eth0, "! reaches 4 GiB &lt; described RAM top 8 GiB") {
		t.Errorf("eth0 (32 bits, RAM to 8 GiB) is not marked:\n%s", eth0)
	}
	crypto := nodeLine(t, dot, "m_crypto")
	if strings.Contains(crypto, "#cb181d") || !strings.Contains(crypto, "reaches all described RAM (64-bit)") {
		t.Errorf("crypto (64 bits) is marked or its reach is wrong:\n%s", crypto)
	}
	// A bridge that does no DMA of its own (pcie0, after
	// pci-aardvark.c) is not marked, nor drawn as a coherency
	// opportunity.
	if p := nodeLine(t, dot, "m_pcie0"); strings.Contains(p, "#cb181d") || strings.Contains(p, "unverified opportunity") || !strings.Contains(p, "bridge (no DMA of its own)") {
		t.Errorf("pcie0, a bridge doing no DMA, is marked or drawn as an opportunity:\n%s", p)
	}
	// A disabled master is not marked: it does no DMA.
	if eth1 := nodeLine(t, dot, "m_eth1"); strings.Contains(eth1, "#cb181d") {
		t.Errorf("disabled eth1 is marked:\n%s", eth1)
	}
	svg, err := layoutSVG(t, []byte(dot))
	if err != nil {
		t.Fatal(err)
	}
	page, err := report.HTML(in, svg)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), `<span class="chip short">6 cannot reach all described RAM</span>`) {
		t.Error("the page's summary does not count the 6 enabled 32-bit masters that do DMA")
	}
	if n := strings.Count(string(page), `<tr class="short">`); n != 6 {
		t.Errorf("%d rows marked short, want 6", n)
	}
}

// nodeLine returns the statement of the DOT that declares node id: its
// lines up to the end of its attribute list.
func nodeLine(t *testing.T, dot, id string) string {
	t.Helper()
	lines := strings.Split(dot, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(strings.TrimSpace(l), id+" [") {
			continue
		}
		for j := i; j < len(lines); j++ {
			if strings.HasSuffix(lines[j], "];") {
				return strings.Join(lines[i:j+1], "\n")
			}
		}
	}
	t.Fatalf("no node %s in the DOT", id)
	return ""
}

// TestHostileLayout: a description's text, however hostile, leaves the
// DOT valid: the layout accepts it, the SVG is well-formed, and the text
// comes out as text.
func TestHostileLayout(t *testing.T) {
	r := intree.Compile(t, filepath.Join(boardsDir, "espressobin"))
	b := *r.Board
	b.Policy.IRQs = []ir.IRQPin{{IRQ: `x"]; evil [label="<b>&amp;</b>\` + "\n}", CPUs: []int{0}, Owners: []*ir.Master{b.SoC.Master("crypto")}}}
	dot := report.DOT(&report.Input{Board: &b})
	svg, err := layoutSVG(t, dot)
	if err != nil {
		t.Fatalf("%v\n%s", err, dot)
	}
	texts := svgTexts(t, "hostile", svg)
	want := `x"]; evil [label="<b>&amp;</b>\?}`
	found := false
	for _, s := range texts {
		// The IRQ's label is "IRQ " then the name in bold: two texts.
		found = found || s == want
	}
	if !found {
		t.Errorf("no text %q in the SVG; texts: %q", want, texts)
	}
	// The name made no node of its own.
	if strings.Contains(string(svg), "<title>evil</title>") {
		t.Error("the IRQ's name declared a node evil")
	}
}
