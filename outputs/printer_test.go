package outputs_test

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/outputs"
)

func at(line int) ir.Pos { return ir.Pos{File: "/x/b.cue", Src: "b.cue", Line: line, Col: 3} }

// lines returns, for each line of f, its text and the refs, positions and
// names of its origin, as one string.
func lines(f outputs.File) []string {
	var out []string
	for i, l := range strings.Split(strings.TrimSuffix(string(f.Data), "\n"), "\n") {
		o := f.LineOrigin(i + 1)
		s := l
		if !o.IsZero() {
			var pos []string
			for _, p := range o.Pos {
				pos = append(pos, p.Short())
			}
			s += " | " + strings.Join(refs(o.Refs), ",") + " | " + strings.Join(pos, ",") + " | " + strings.Join(o.Names, ",")
		}
		out = append(out, s)
	}
	return out
}

func refs(rs []ir.Ref) []string {
	var out []string
	for _, r := range rs {
		out = append(out, string(r))
	}
	return out
}

// TestPrinterOrigins: each line carries the origin its parts give it:
// Origin parts, and the positions a note or a comment prints; lines of
// one P share it; boilerplate has none.
func TestPrinterOrigins(t *testing.T) {
	p := outputs.NewPrinter(outputs.DTS)
	crypto := outputs.From(ir.MasterRef("crypto"), at(5))
	p.P("/dts-v1/;")
	p.Comment("", crypto, "master crypto")
	p.P(crypto, "&crypto {")
	p.P(crypto.Named("dma-coherent"), "\tdma-coherent;", outputs.N("verified, ", at(9)))
	p.P("};")
	p.P(outputs.From(ir.BusRef("soc")), "a\nb")
	c := p.Block("")
	c.Line(outputs.From(ir.BusRef("soc")), "bus soc (", at(2), ")")
	c.Line()
	c.End()
	f := p.File("x.dts")
	want := []string{
		"/dts-v1/;",
		"/* master crypto */ | soc.masters.crypto | b.cue:5 | ",
		"&crypto { | soc.masters.crypto | b.cue:5 | ",
		"\tdma-coherent; /* verified, b.cue:9 */ | soc.masters.crypto | b.cue:5,b.cue:9 | dma-coherent",
		"};",
		"a | soc.buses.soc |  | ",
		"b | soc.buses.soc |  | ",
		"/*",
		" * bus soc (b.cue:2) | soc.buses.soc | b.cue:2 | ",
		" *",
		" */",
	}
	if diff := cmp.Diff(want, lines(f)); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	// Lines 2 and 3 have the same origin: one annotation covers both.
	if a := f.Annotations[0]; a.Line != 2 || a.End != 3 {
		t.Errorf("first annotation covers lines %d-%d, want 2-3", a.Line, a.End)
	}
}

// TestOriginMerge: merging keeps order, drops duplicates and empty
// entries, and never writes into the slices of an origin lines share.
func TestOriginMerge(t *testing.T) {
	a := outputs.From(ir.MasterRef("a"), at(1), ir.Pos{})
	if len(a.Pos) != 1 {
		t.Errorf("an invalid position was kept: %v", a.Pos)
	}
	b := a.And(ir.MasterRef("b"), at(1), at(2)).And("").Named("x", "x", "")
	if got := refs(b.Refs); !cmp.Equal(got, []string{"soc.masters.a", "soc.masters.b"}) {
		t.Errorf("refs %v", got)
	}
	if len(b.Pos) != 2 || len(b.Names) != 1 {
		t.Errorf("positions %v names %v", b.Pos, b.Names)
	}
	if len(a.Refs) != 1 || len(a.Pos) != 1 || len(a.Names) != 0 {
		t.Errorf("merging changed the original: %+v", a)
	}
}

// TestCommentC wraps at 80 columns as kernel style does, keeps code
// paragraphs line by line, and makes a single short paragraph a one-line
// comment.
func TestCommentC(t *testing.T) {
	p := outputs.NewPrinter(outputs.C)
	p.Comment("", "short")
	p.Comment("\t", outputs.T("a long paragraph that has to be wrapped because it does not fit, ", at(1234)))
	p.Comment("", "two", outputs.Code("\tint x;\n\t\ty();"))
	want := "/* short */\n" +
		"\t/*\n" +
		"\t * a long paragraph that has to be wrapped because it does not fit,\n" +
		"\t * b.cue:1234\n" +
		"\t */\n" +
		"/*\n" +
		" * two\n" +
		" *\n" +
		" *\tint x;\n" +
		" *\t\ty();\n" +
		" */\n"
	if got := p.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	// Every line of text of the wrapped comment has its origin, the
	// delimiters none.
	f := p.File("x.c")
	for n, want := range map[int]bool{1: false, 2: false, 3: true, 4: true, 5: false} {
		if got := !f.LineOrigin(n).IsZero(); got != want {
			t.Errorf("line %d has an origin: %t, want %t", n, got, want)
		}
	}
}

// TestCommentShell writes '#' lines, and separates paragraphs with an
// empty one.
func TestCommentShell(t *testing.T) {
	p := outputs.NewPrinter(outputs.Shell)
	p.Comment("\t", outputs.T(at(3), ": IRQs named x"))
	p.Comment("", "one", "two")
	p.P("pin ", outputs.Str("it's"), outputs.N("done"))
	want := "\t# b.cue:3: IRQs named x\n# one\n#\n# two\npin 'it'\\''s' # done\n"
	if got := p.String(); got != want {
		t.Errorf("got:\n%q\nwant:\n%q", got, want)
	}
}

// TestPrinterPanics: what an emitter must never do is a programming
// error, caught by the first test that runs the emitter.
func TestPrinterPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"a note in a unit":        func() { outputs.NewPrinter(outputs.Systemd).P("x", outputs.N("y")) },
		"a position in code":      func() { outputs.NewPrinter(outputs.C).P(at(1)) },
		"free text in C code":     func() { outputs.NewPrinter(outputs.C).P(outputs.T("x")) },
		"free text in shell code": func() { outputs.NewPrinter(outputs.Shell).P(outputs.T("x")) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// TestCommentWrap: a C comment of random text, at any indent, is its
// text made safe (as a DTS comment, which never wraps, shows it) on one
// line when it fits in 80 columns, and otherwise its words a space apart,
// as many on each line as fit (a longer word alone); no line holds a
// control character. The text mixes words, runs of blanks, tabs,
// non-ASCII letters and spaces, control bytes at every offset, and what
// the comment policy rewrites ("*/", "??/").
func TestCommentWrap(t *testing.T) {
	pool := []string{"a", "word", "longerword", strings.Repeat("x", 90), " ", "  ", "\t", " \t ",
		"ü", "日本語", "\u00a0", "\u2003", "*/", "/*", "??/", "a\x00b", "\x1f", "\x7f", "\xff", "\n", "é"}
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		var b strings.Builder
		for range rnd.IntN(60) {
			b.WriteString(pool[rnd.IntN(len(pool))])
		}
		text := b.String()
		indent := strings.Repeat("\t", rnd.IntN(4))
		d := outputs.NewPrinter(outputs.DTS)
		d.Comment("", text)
		safe := strings.TrimSuffix(strings.TrimPrefix(d.String(), "/* "), " */\n")
		for _, c := range []byte(safe) {
			if c < 0x20 && c != '\t' || c == 0x7f {
				t.Fatalf("case %d: %q: the comment holds %#x", i, text, c)
			}
		}
		p := outputs.NewPrinter(outputs.C)
		p.Comment(indent, text)
		if got, want := p.String(), wrapped(indent, safe); got != want {
			t.Fatalf("case %d: %q at indent %d:\ngot:\n%s\nwant:\n%s", i, text, len(indent), got, want)
		}
	}
}

// wrapped is the C comment of the safe text at indent: one line when it
// fits in 80 columns (a tab is 8), else its words, a space apart, as many
// on a line as fit.
func wrapped(indent, safe string) string {
	col := 8 * len(indent)
	if col+utf8.RuneCountInString("/* "+safe+" */") <= 80 {
		return indent + "/* " + safe + " */\n"
	}
	out := indent + "/*\n"
	var line []string
	n := 0
	for _, w := range strings.Fields(safe) {
		if n > 0 && col+3+n+1+utf8.RuneCountInString(w) > 80 {
			out += indent + " * " + strings.Join(line, " ") + "\n"
			line, n = nil, 0
		}
		if n > 0 {
			n++
		}
		line = append(line, w)
		n += utf8.RuneCountInString(w)
	}
	if n > 0 {
		out += indent + " * " + strings.Join(line, " ") + "\n"
	}
	return out + indent + " */\n"
}
