package report_test

import (
	"bytes"
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"boardc.dev/boardc/internal/intree"
	"boardc.dev/boardc/internal/testtool"
	"boardc.dev/boardc/report"
)

// fitScript measures, once the page's fonts are ready, every text the
// browser rendered against the box drawn around it, and writes what it
// found into the DOM as JSON (pre#fit), for --dump-dom to hand back:
//
//   - each text of the picture's nodes (g.node text) against the
//     smallest shape of its node (a polygon, a path, an ellipse) that
//     holds the text's anchor: the node's outline, or its table cell;
//   - each cell of the page's tables, whose content must not be wider
//     than the cell;
//   - the page itself, which must not be wider than the window: a table
//     too wide for it scrolls in its own box.
//
// A text whose box is wider than its shape by more than half a unit is
// an overflow.
const fitScript = `<script>
document.fonts.ready.then(function () {
  var out = {texts: 0, overflows: [], cells: 0, page: 0, window: window.innerWidth};
  document.querySelectorAll("svg g.node").forEach(function (g) {
    var shapes = Array.from(g.querySelectorAll("polygon, path, ellipse")).map(function (s) { return s.getBBox(); });
    g.querySelectorAll("text").forEach(function (t) {
      if (!t.textContent.trim()) return;
      out.texts++;
      var b = t.getBBox();
      var ax = b.x + b.width / 2, ay = b.y + b.height / 2;
      var box = null;
      shapes.forEach(function (s) {
        if (ax >= s.x && ax <= s.x + s.width && ay >= s.y && ay <= s.y + s.height && (!box || s.width * s.height < box.width * box.height)) box = s;
      });
      if (!box) { out.overflows.push("no box holds " + JSON.stringify(t.textContent)); return; }
      var left = box.x - b.x, right = b.x + b.width - (box.x + box.width);
      if (left > 0.5 || right > 0.5) {
        out.overflows.push(JSON.stringify(t.textContent) + " overflows its box by " + Math.max(left, right).toFixed(1) + " of " + box.width.toFixed(1));
      }
    });
  });
  document.querySelectorAll("table.t td").forEach(function (td) {
    out.cells++;
    if (td.scrollWidth > td.clientWidth + 1) out.overflows.push("table cell " + JSON.stringify(td.textContent.slice(0, 40)) + " overflows its cell");
  });
  out.page = document.documentElement.scrollWidth;
  if (out.page > window.innerWidth) out.overflows.push("the page is " + out.page + " px wide in a window of " + window.innerWidth);
  var pre = document.createElement("pre");
  pre.id = "fit";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>`

// fit is what fitScript reports.
type fit struct {
	Texts     int      `json:"texts"`
	Cells     int      `json:"cells"`
	Page      int      `json:"page"`
	Window    int      `json:"window"`
	Overflows []string `json:"overflows"`
}

var fitResult = regexp.MustCompile(`<pre id="fit">([^<]*)</pre>`)

// fitWidth is the window width the page is measured in.
const fitWidth = 1400

// measure opens page with fitScript in headless Chromium, fitWidth wide,
// and returns what the script found.
func measure(t *testing.T, bin string, page []byte) fit {
	t.Helper()
	page = bytes.Replace(page, []byte("</body>"), []byte(fitScript+"\n</body>"), 1)
	file := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(file, page, 0o644); err != nil {
		t.Fatal(err)
	}
	dom := chromium(t, bin, "--window-size=1400,1000", "--virtual-time-budget=5000", "--dump-dom", "file://"+file)
	m := fitResult.FindSubmatch(dom)
	if m == nil {
		t.Fatalf("the page reported no measurement:\n%.2000s", dom)
	}
	var f fit
	if err := json.Unmarshal([]byte(html.UnescapeString(string(m[1]))), &f); err != nil {
		t.Fatal(err)
	}
	if f.Window != fitWidth {
		t.Fatalf("window %d px wide, want %d", f.Window, fitWidth)
	}
	return f
}

// dejaVu is the font file the page's text is rendered in on a machine
// with fonts-dejavu-core.
const dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

// TestTextFits opens each in-tree board's report in headless Chromium
// and fails when any text the browser rendered lies outside its box: a
// label of the picture outside its node or cell, a table cell's content
// outside the cell, or the page wider than a 1,400 px window. As
// negative controls, the same page laid out with the widths of the font
// the layout used to measure, Helvetica, while the page renders DejaVu
// Sans, must have texts overflow, and the page without the masters
// table's scrolling box must be wider than the window.
func TestTextFits(t *testing.T) {
	bin := testtool.Look(t, "chromium", "chromium")
	if _, err := os.Stat(dejaVu); err != nil {
		testtool.Missing(t, "DejaVu Sans ("+dejaVu+") not found", "fonts-dejavu-core")
	}
	for _, r := range intree.CompileAll(t, boardsDir) {
		t.Run(r.Board.Name, func(t *testing.T) {
			t.Parallel()
			in := input(t, r)
			dot := report.DOT(in)
			page := func(dot []byte) []byte {
				svg, err := layoutSVG(t, dot)
				if err != nil {
					t.Fatal(err)
				}
				p, err := report.HTML(in, svg)
				if err != nil {
					t.Fatal(err)
				}
				return p
			}
			f := measure(t, bin, page(dot))
			t.Logf("%d texts of the picture, %d table cells, page %d px", f.Texts, f.Cells, f.Page)
			if f.Texts < len(r.Board.SoC.Masters) || f.Cells == 0 {
				t.Fatalf("measured %d texts and %d cells: the page was not measured", f.Texts, f.Cells)
			}
			for _, o := range f.Overflows {
				t.Error(o)
			}

			// Without its scrolling box, the masters table widens the page.
			wide := measure(t, bin, bytes.Replace(page(dot), []byte(`<div class="scroll">`), []byte(`<div>`), 1))
			t.Logf("without the scrolling box: page %d px", wide.Page)
			if wide.Page <= fitWidth {
				t.Errorf("without its scrolling box the masters table fits a %d px window (page %d px): the page check cannot fail", fitWidth, wide.Page)
			}

			old := bytes.ReplaceAll(dot, []byte(`fontname="DejaVu Sans"`), []byte(`fontname="Helvetica"`))
			if bytes.Equal(old, dot) {
				t.Fatal("the DOT names no DejaVu Sans font to replace")
			}
			bad := measure(t, bin, page(old))
			var texts int
			for _, o := range bad.Overflows {
				if strings.Contains(o, "overflows its box") {
					texts++
				}
			}
			t.Logf("laid out with Helvetica's widths: %d of %d texts overflow", texts, bad.Texts)
			if texts == 0 {
				t.Error("laid out with Helvetica's widths and rendered in DejaVu Sans, no text overflows: the measurement cannot see an overflow")
			}
		})
	}
}
