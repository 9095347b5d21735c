package outputs

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"boardc.dev/boardc/compiler/ir"
)

// Printer writes one generated file line by line, in the manner of
// protogen's GeneratedFile.P, and records the origin of every line it
// writes (see Origin). It applies its language's escaping to every value
// handed to it as text or as a string.
type Printer struct {
	lang  *Lang
	buf   bytes.Buffer
	lines int // lines written
	anns  []Annotation
}

// NewPrinter returns a printer of a file in lang.
func NewPrinter(lang *Lang) *Printer { return &Printer{lang: lang} }

// Str is a string from the description, printed as one literal or word of
// the printer's language: a C or DTS string literal, a single-quoted shell
// word, an argument of a systemd Exec*= line, a key or value of a conf
// file as it is. A string the language cannot write (Lang.Check) makes P
// panic: the emitter checks it first.
type Str string

// Quoted is free text (parts as in Text) printed as one literal or word,
// like a Str, once made one line: a message a script prints, say.
type Quoted []any

// Text is free text: its parts are printed one after the other, and made
// safe for where they land (a comment, a setting's value). A part is a
// string or a number; an ir.Pos prints as src:line and adds the position
// to the origin of the line; a Cite prints its ref and adds its position;
// an Origin prints nothing and adds to the
// origin of the line.
type Text []any

// Cite is a part of a Text or a Note that names a description element by
// its ref and adds the position of the fact to the origin of the line
// without printing it: a comment that cites a fact this way does not
// change when an edit elsewhere in the description moves the fact's line,
// while the file's annotations (and so manifest.json and boardc explain)
// still hold the position.
type Cite struct {
	Ref ir.Ref
	Pos ir.Pos
}

// At returns the citation of the element ref, whose fact is at pos.
func At(ref ir.Ref, pos ir.Pos) Cite { return Cite{Ref: ref, Pos: pos} }

// T returns the text of parts.
func T(parts ...any) Text { return Text(parts) }

// Note is a comment after the code of a line (" /* ... */", " # ..."),
// with parts as in Text. After code that ends in a blank, such as a tab,
// the comment opens without another space.
type Note []any

// N returns the note of parts.
func N(parts ...any) Note { return Note(parts) }

// Code is a paragraph of a comment that is code: each line printed as it
// is (still made safe for the comment), never wrapped.
type Code string

// P prints one line made of v, one part after the other. A string, a
// number or a fmt.Stringer is code, written as it is: the emitter's own
// text, numbers, and identifiers and paths a schema pattern keeps to the
// language's syntax. Text from the description must be passed as a Str,
// a Quoted, a Note or (where the language has settings of free text) a
// Text. An Origin part prints nothing and adds to the origin
// of the line, as the positions of a Note or a Text do. A part holding a
// newline makes P print several lines, which all get the origin.
func (p *Printer) P(v ...any) {
	var o OriginSet
	first := p.lines + 1
	start := p.buf.Len()
	for _, x := range v {
		switch x := x.(type) {
		case string:
			p.buf.WriteString(x)
		case Origin:
			o.Add(x)
		case Str:
			p.buf.WriteString(p.str(string(x)))
		case Quoted:
			s, xo := p.render(Text(x))
			o.Add(xo)
			p.buf.WriteString(p.str(oneLine(s)))
		case Text:
			if p.lang.text == nil {
				panic("outputs: free text outside a comment or string in " + p.lang.Name)
			}
			s, xo := p.render(x)
			o.Add(xo)
			p.buf.WriteString(p.lang.text(s))
		case Note:
			if p.lang.trailOpen == "" {
				panic("outputs: no comment after code in " + p.lang.Name)
			}
			s, xo := p.render(Text(x))
			o.Add(xo)
			open := p.lang.trailOpen
			if b := p.buf.Bytes(); len(b) > start && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
				open = strings.TrimLeft(open, " ")
			}
			p.buf.WriteString(open + p.lang.comment(s) + p.lang.trailClose)
		case int:
			p.buf.WriteString(strconv.Itoa(x))
		case ir.Pos, Cite:
			panic("outputs: a position in code; print it in a Note or a Text")
		default:
			fmt.Fprint(&p.buf, x)
		}
	}
	p.lines += bytes.Count(p.buf.Bytes()[start:], []byte{'\n'}) + 1
	p.buf.WriteByte('\n')
	p.annotate(first, p.lines, o.Origin())
}

// str returns s as one literal or word of the language. A string the
// language refuses (Lang.Check) is a bug of the emitter, which must check
// it first: it panics rather than write something else.
func (p *Printer) str(s string) string {
	if err := p.lang.Check(s); err != nil {
		panic("outputs: " + p.lang.Name + " cannot write a string: " + err.Error())
	}
	return p.lang.str(s)
}

// write writes s and a newline, and records o as the origin of the lines
// it spans.
func (p *Printer) write(s string, o Origin) {
	first := p.lines + 1
	p.buf.WriteString(s)
	p.buf.WriteByte('\n')
	p.lines += strings.Count(s, "\n") + 1
	p.annotate(first, p.lines, o)
}

// annotate records o as the origin of lines first to last, merging it
// into the previous annotation where that ends just before and has the
// same origin.
func (p *Printer) annotate(first, last int, o Origin) {
	if o.IsZero() {
		return
	}
	if n := len(p.anns); n > 0 && p.anns[n-1].End == first-1 && sameOrigin(p.anns[n-1].Origin, o) {
		p.anns[n-1].End = last
		return
	}
	if n := len(p.anns); n == cap(p.anns) && n >= 256 {
		// Doubled, where append grows a slice past 256 elements by a
		// quarter: a file of many lines of distinct origins (an entry
		// per master) copied its annotations about 5 times over.
		p.anns = slices.Grow(p.anns, n)
	}
	p.anns = append(p.anns, Annotation{Line: first, End: last, Origin: o})
}

func sameOrigin(a, b Origin) bool {
	return same(a.Refs, b.Refs) && same(a.Pos, b.Pos) && same(a.Names, b.Names)
}

// same reports whether a and b hold the same elements, at once when they
// are the same slice (the lines of one comment share their origin).
func same[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 || &a[0] == &b[0] {
		return true
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Raw writes s, fixed text of the emitter's own spanning whole lines, as
// it is; its lines have no origin. A missing final newline is added.
func (p *Printer) Raw(s string) {
	p.write(strings.TrimSuffix(s, "\n"), Origin{})
}

// render returns the text of t and the origin its parts add.
func (p *Printer) render(t Text) (string, Origin) {
	var b strings.Builder
	// Room for the whole text at once, where growing with each part
	// cost an allocation for most of them.
	b.Grow(textLen(t))
	var o OriginSet
	p.renderTo(&b, &o, t)
	return b.String(), o.Origin()
}

// textLen returns about how many bytes t renders to: its strings' and
// refs' lengths exactly, a position's src with room for its line.
func textLen(t Text) int {
	n := 0
	for _, x := range t {
		switch x := x.(type) {
		case string:
			n += len(x)
		case ir.Pos:
			n += len(x.Src) + 6
		case Cite:
			n += len(x.Ref)
		case Text:
			n += textLen(x)
		case Origin:
		default:
			n += 8
		}
	}
	return n
}

// renderTo writes the text of t to b and adds the origin its parts add
// to o.
func (p *Printer) renderTo(b *strings.Builder, o *OriginSet, t Text) {
	for _, x := range t {
		switch x := x.(type) {
		case Origin:
			o.Add(x)
		case ir.Pos:
			b.WriteString(x.Short())
			o.AddRef("", x)
		case Cite:
			b.WriteString(string(x.Ref))
			o.AddRef("", x.Pos)
		case Text:
			p.renderTo(b, o, x)
		case string:
			b.WriteString(x)
		default:
			fmt.Fprint(b, x)
		}
	}
}

// Block is a comment being written line by line; see Printer.Block.
type Block struct {
	p      *Printer
	indent string
}

// Block opens a comment indented by indent, whose lines are then written
// with Line and which End closes: a block comment in C and DTS, a run of
// '#' lines elsewhere.
func (p *Printer) Block(indent string) *Block {
	if p.lang.open != "" {
		p.write(indent+p.lang.open, Origin{})
	}
	return &Block{p: p, indent: indent}
}

// Line writes one line of the comment made of parts, as in Text, never
// wrapped; no parts write an empty comment line.
func (c *Block) Line(parts ...any) {
	s, o := c.p.render(Text(parts))
	c.line(s, o)
}

func (c *Block) line(s string, o Origin) {
	// Written in pieces, where a line made whole first cost a string
	// per line of every comment; the language's comment makes s one
	// line.
	p, l := c.p, c.p.lang
	p.buf.WriteString(c.indent)
	p.buf.WriteString(l.prefix)
	if s != "" {
		p.buf.WriteByte(' ')
		p.buf.WriteString(l.comment(s))
	}
	p.buf.WriteByte('\n')
	p.lines++
	p.annotate(p.lines, p.lines, o)
}

// code writes a line of a code paragraph: after the prefix with no space,
// the line holding its own indentation.
func (c *Block) code(s string, o Origin) {
	c.p.write(c.indent+c.p.lang.prefix+c.p.lang.comment(s), o)
}

// End closes the comment.
func (c *Block) End() {
	if c.p.lang.close != "" {
		c.p.write(c.indent+c.p.lang.close, Origin{})
	}
}

// Comment writes a comment of paragraphs, indented by indent (tabs):
// each a string or a Text (wrapped at the language's width, if it has
// one), or a Code paragraph; paragraphs are separated by an empty comment
// line. A single text paragraph that fits on one line becomes a one-line
// comment. An Origin among v is the origin of every line of text of the
// comment; the positions a paragraph prints, and the Origin parts of a
// Text, add to the origin of that paragraph's lines.
func (p *Printer) Comment(indent string, v ...any) {
	var all Origin
	type para struct {
		text string
		code bool
		o    Origin
		// safe is text made safe for the comment, when computed.
		safe string
	}
	var paras []para
	for _, x := range v {
		switch x := x.(type) {
		case Origin:
			all = all.merge(x)
		case Code:
			paras = append(paras, para{text: string(x), code: true})
		case Text:
			s, o := p.render(x)
			paras = append(paras, para{text: s, o: o})
		default:
			s, o := p.render(Text{x})
			paras = append(paras, para{text: s, o: o})
		}
	}
	l := p.lang
	col := 8 * strings.Count(indent, "\t")
	if len(paras) == 1 && !paras[0].code {
		text := l.comment(paras[0].text)
		paras[0].safe = text
		// One line: the prefix (or the opening and the closing, both
		// ASCII), a space and the text.
		open, end, n := l.prefix, "", 0
		if l.open != "" {
			open, end = l.open, strings.TrimSpace(l.close)
			n = 1 + len(end)
		}
		n += col + len(open) + 1 + utf8.RuneCountInString(text)
		if l.width == 0 || n <= l.width {
			first := p.lines + 1
			p.buf.WriteString(indent)
			p.buf.WriteString(open)
			p.buf.WriteByte(' ')
			p.buf.WriteString(text)
			if end != "" {
				p.buf.WriteByte(' ')
				p.buf.WriteString(end)
			}
			p.buf.WriteByte('\n')
			p.lines++
			p.annotate(first, p.lines, all.merge(paras[0].o))
			return
		}
	}
	c := p.Block(indent)
	var line []byte
	for i, para := range paras {
		o := all.merge(para.o)
		if i > 0 {
			c.line("", Origin{})
		}
		if para.code {
			for _, s := range strings.Split(para.text, "\n") {
				c.code(s, o)
			}
			continue
		}
		if l.width == 0 {
			c.line(para.text, o)
			continue
		}
		// Wrap at the width: each line holds the indent, the prefix, a
		// space and words.
		room := l.width - col - len(l.prefix) - 1
		text := para.safe
		if text == "" {
			text = l.comment(para.text)
		}
		if isPlain(text) {
			line = c.wrapPlain(text, room, o, line)
			continue
		}
		// n counts the runes of line, which is built in place rather
		// than by a new string for every word, in one buffer for every
		// line.
		n := 0
		for word := range strings.FieldsSeq(text) {
			w := utf8.RuneCountInString(word)
			if n > 0 && n+1+w > room {
				c.line(string(line), o)
				line, n = line[:0], 0
			}
			if n > 0 {
				line = append(line, ' ')
				n++
			}
			line = append(line, word...)
			n += w
		}
		if n > 0 {
			c.line(string(line), o)
			line = line[:0]
		}
	}
	c.End()
}

// wrapPlain writes text, printable ASCII and tabs already made safe for
// the comment, as lines of its words separated by one space, each at most
// room bytes where its words allow; it returns buf, a buffer for a line
// whose words text separates otherwise. A line of words a single space
// apart in text is written from text as it is. The language's comment is
// not applied to the lines again: a run of words of text is as safe as
// text (TestWrapPlain).
func (c *Block) wrapPlain(text string, room int, o Origin, buf []byte) []byte {
	blank := func(b byte) bool { return b == ' ' || b == '\t' }
	i := 0
	for {
		for i < len(text) && blank(text[i]) {
			i++
		}
		if i == len(text) {
			return buf
		}
		start, end, n, single := i, i, 0, true
		for i < len(text) {
			j := i
			for j < len(text) && !blank(text[j]) {
				j++
			}
			if n > 0 && n+1+j-i > room {
				break
			}
			if n > 0 {
				n++
				single = single && i == end+1 && text[end] == ' '
			}
			n += j - i
			end = j
			for i = j; i < len(text) && blank(text[i]); i++ {
			}
		}
		s := text[start:end]
		if !single {
			buf = buf[:0]
			for k := start; k < end; k++ {
				if !blank(text[k]) {
					buf = append(buf, text[k])
				} else if !blank(text[k-1]) {
					buf = append(buf, ' ')
				}
			}
			s = string(buf)
		}
		c.p.buf.WriteString(c.indent)
		c.p.buf.WriteString(c.p.lang.prefix)
		c.p.buf.WriteByte(' ')
		c.p.buf.WriteString(s)
		c.p.buf.WriteByte('\n')
		c.p.lines++
		c.p.annotate(c.p.lines, c.p.lines, o)
	}
}

// Grow makes room for about n more bytes, for an emitter that knows how
// long its file about is: a buffer grown by doubling allocates and copies
// the file about twice over.
func (p *Printer) Grow(n int) { p.buf.Grow(n) }

// File returns the printed file at path.
func (p *Printer) File(path string) File {
	return File{Path: path, Data: p.buf.Bytes(), Annotations: p.anns}
}

// String returns the text printed so far.
func (p *Printer) String() string { return p.buf.String() }
