package audit

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boardc.dev/boardc/internal/testtool"
)

// TestHTMLEscapes: text from a tree cannot inject markup into the page.
func TestHTMLEscapes(t *testing.T) {
	r := &Report{Findings: []Finding{{Class: Bounce, Severity: Warning, Board: "b.dts", Path: "/soc/usb@1", Message: `<script>alert(1)</script>`,
		Evidence: []Evidence{{Kind: "dt", Text: `compatible = "<b>x</b>"`}}, Suggest: "a & b"}}}
	var b bytes.Buffer
	if err := r.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, bad := range []string{"<script>", "<b>x</b>", "a & b"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page has %q unescaped", bad)
		}
	}
	for _, want := range []string{"&lt;script&gt;alert(1)&lt;/script&gt;", "a &amp; b", `<td class="warning">warning</td>`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page has no %q", want)
		}
	}
}

// TestHTMLChromium opens the page of a run in headless Chromium: the DOM
// Chromium built has a row per finding, and the screenshot is not blank.
func TestHTMLChromium(t *testing.T) {
	bin := testtool.Look(t, "chromium", "chromium")
	r := Board(tree(t, armada(ram8G, "", "")), "board.dts", catalog())
	rep := &Report{Kernel: "6.12", Boards: []BoardResult{r}, Findings: Finish([]BoardResult{r})}
	if len(rep.Findings) < 3 {
		t.Fatalf("findings = %+v, want the EIP97's, the OHCI's and mvneta's", rep.Findings)
	}
	dir := t.TempDir()
	html := filepath.Join(dir, "audit.html")
	var b bytes.Buffer
	if err := rep.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(html, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) []byte {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		home := t.TempDir()
		base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run", "--disable-extensions", "--user-data-dir=" + home}
		cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
		cmd.Env = append(os.Environ(), "HOME="+home)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("chromium %v: %v\n%s", args, err, errb.String())
		}
		return out.Bytes()
	}
	dom := string(run("--dump-dom", "file://"+html))
	if n := strings.Count(dom, `<tr class="finding">`); n != len(rep.Findings) {
		t.Errorf("the DOM has %d finding rows, want %d", n, len(rep.Findings))
	}
	for _, f := range rep.Findings {
		if !strings.Contains(dom, "<code>"+f.Path+"</code>") {
			t.Errorf("the DOM has no row of %s", f.Path)
		}
	}
	shot := filepath.Join(dir, "shot.png")
	run("--window-size=1400,900", "--screenshot="+shot, "file://"+html)
	data, err := os.ReadFile(shot)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the screenshot is not a PNG: %v", err)
	}
	seen := map[uint32]bool{}
	inked := 0
	bd := img.Bounds()
	for y := bd.Min.Y; y < bd.Max.Y; y++ {
		for x := bd.Min.X; x < bd.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			c := cr>>8<<16 | cg>>8<<8 | cb>>8
			seen[c] = true
			if c != 0xffffff {
				inked++
			}
		}
	}
	if px := bd.Dx() * bd.Dy(); len(seen) < 20 || inked < px/50 {
		t.Errorf("the screenshot looks blank: %d colours, %d of %d pixels not white", len(seen), inked, px)
	}
}
