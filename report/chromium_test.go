package report_test

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"boardc.dev/boardc/internal/golden"
	"boardc.dev/boardc/internal/intree"
	"boardc.dev/boardc/internal/testtool"
	"boardc.dev/boardc/report"
)

// screenshotWidth is the browser window's width for the screenshots; the
// height fits the header and the picture (see windowHeight).
const screenshotWidth = 1600

// svgHeight finds the picture's height in points, as Graphviz writes it.
var svgHeight = regexp.MustCompile(`<svg width="([0-9.]+)pt" height="([0-9.]+)pt"`)

// windowHeight returns a window height that shows the page's header and
// the whole picture, which CSS scales to the window's width.
func windowHeight(t *testing.T, svg []byte) int {
	m := svgHeight.FindSubmatch(svg)
	if m == nil {
		t.Fatal("no width and height on the svg element")
	}
	w, _ := strconv.ParseFloat(string(m[1]), 64)
	h, _ := strconv.ParseFloat(string(m[2]), 64)
	px, hpx := w*4/3, h*4/3 // CSS pixels per point
	if avail := float64(screenshotWidth - 60); px > avail {
		hpx *= avail / px
	}
	return 140 + int(hpx)
}

// chromium runs headless Chromium with args and returns its standard
// output.
func chromium(t *testing.T, bin string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	home := t.TempDir() // a profile of its own, nothing from the user's
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--no-first-run", "--disable-extensions", "--user-data-dir=" + home}
	cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
	cmd.Env = append(os.Environ(), "HOME="+home)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	}
	return out.Bytes()
}

// TestChromium opens each in-tree board's report in headless Chromium:
// the screenshot is not blank (many colours, a good share of pixels not
// white), and the DOM Chromium built holds every master, as a row of the
// table and as a text of the picture. With BOARDC_UPDATE=1 the
// screenshots are copied to docs/report-<board>.png.
func TestChromium(t *testing.T) {
	bin := testtool.Look(t, "chromium", "chromium")
	for _, r := range intree.CompileAll(t, boardsDir) {
		t.Run(r.Board.Name, func(t *testing.T) {
			t.Parallel() // each board's browser runs beside the others'
			in := input(t, r)
			svg, err := layoutSVG(t, report.DOT(in))
			if err != nil {
				t.Fatal(err)
			}
			page, err := report.HTML(in, svg)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			html := filepath.Join(dir, "report.html")
			if err := os.WriteFile(html, page, 0o644); err != nil {
				t.Fatal(err)
			}
			url := "file://" + html

			shot := filepath.Join(dir, "shot.png")
			size := strconv.Itoa(screenshotWidth) + "," + strconv.Itoa(windowHeight(t, svg))
			chromium(t, bin, "--window-size="+size, "--screenshot="+shot, url)
			data, err := os.ReadFile(shot)
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("the screenshot is not a PNG: %v", err)
			}
			colours, inked := inspect(img)
			px := img.Bounds().Dx() * img.Bounds().Dy()
			t.Logf("%dx%d, %d colours, %.1f %% not white", img.Bounds().Dx(), img.Bounds().Dy(), colours, 100*float64(inked)/float64(px))
			if colours < 50 || inked < px/20 {
				t.Errorf("the screenshot looks blank: %d colours, %d of %d pixels not white", colours, inked, px)
			}

			dom := string(chromium(t, bin, "--dump-dom", url))
			for _, m := range r.Board.SoC.Masters {
				if !strings.Contains(dom, "<td><b>"+m.Key+"</b>") {
					t.Errorf("the DOM has no table row of master %s", m.Key)
				}
				if !strings.Contains(dom, ">"+m.Key+"</text>") {
					t.Errorf("the DOM's picture has no text %s", m.Key)
				}
			}
			if golden.Update() {
				docs := filepath.Join("..", "docs", "report-"+r.Board.Name+".png")
				if err := os.WriteFile(docs, data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// inspect returns how many distinct colours img has and how many of its
// pixels are not white.
func inspect(img image.Image) (colours, inked int) {
	seen := map[uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			c := r>>8<<16 | g>>8<<8 | bl>>8
			seen[c] = true
			if c != 0xffffff {
				inked++
			}
		}
	}
	return len(seen), inked
}

// TestInspect: a white page counts one colour and no ink, so that the
// blank check of TestChromium can fail.
func TestInspect(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 40, 30))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	if c, n := inspect(img); c != 1 || n != 0 {
		t.Errorf("white: %d colours, %d inked; want 1, 0", c, n)
	}
	img.Set(3, 4, color.RGBA{R: 0xcb, G: 0x18, B: 0x1d, A: 0xff})
	img.Set(5, 6, color.Black)
	if c, n := inspect(img); c != 3 || n != 2 {
		t.Errorf("two dots: %d colours, %d inked; want 3, 2", c, n)
	}
}
