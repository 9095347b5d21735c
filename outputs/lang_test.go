package outputs_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"boardc.dev/boardc/internal/testtool"
	"boardc.dev/boardc/outputs"
)

// hostile are strings that would leave a comment, a string or a line of
// some output if printed raw.
var hostile = []string{
	"x */ / { chosen { bootargs = \"init=/bin/sh\"; }; }; /* y",
	"*/*/*//**/", "**//", "/*/", "a\\", "a\\\\\\", "trigraph ??/", "???/??=",
	"line\nnext", "cr\rx", "nul\x00x", "esc\x1b[2Jx", "del\x7fx", "nel\u0085x",
	"ls\u2028ps\u2029x", "bidi\u202eevil\u2066x", "bad\xffutf8", "tab\tx",
	"'$(touch pwned)'", "`id`", "%n$HOME${PATH}", "\"quoted\" \\ ;", "",
	strings.Repeat("long ", 2000),
}

// render prints s in every place a language has for text: a comment, a
// note after code, a string, and a setting's value.
func render(l *outputs.Lang, s string) string {
	p := outputs.NewPrinter(l)
	p.Comment("", s)
	p.Comment("\t", s, outputs.T("second ", s))
	c := p.Block("")
	c.Line(s)
	c.End()
	if l != outputs.Systemd && l != outputs.Conf {
		p.P("y;", outputs.N(s))
	}
	if l == outputs.Systemd || l == outputs.Conf {
		p.P("Description=", outputs.T(s))
	}
	if l.Check(s) == nil { // Conf refuses what it cannot write (TestConfRefuses)
		p.P("x = ", outputs.Str(s), ";") // last: a shell word may span lines
	}
	return p.String()
}

// TestCommentsHold: in C and DTS no text ends its comment early or opens
// another, in every language no text makes a line of its own, and no
// control or bidi character reaches a comment.
func TestCommentsHold(t *testing.T) {
	for _, l := range []*outputs.Lang{outputs.C, outputs.DTS, outputs.Shell, outputs.Systemd, outputs.Conf} {
		for _, s := range hostile {
			out := render(l, s)
			if !utf8.ValidString(out) && l != outputs.Shell {
				t.Errorf("%s: %q: output is not UTF-8", l.Name, s)
			}
			for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
				if strings.HasPrefix(line, "x = ") && l == outputs.Shell {
					// A shell word holds its value exactly, over lines
					// if need be (TestStrCompiles reads it back).
					if strings.ContainsRune(out, 0) {
						t.Errorf("%s: %q: a NUL reached the output", l.Name, s)
					}
					break
				}
				if strings.HasPrefix(line, "next") || strings.HasPrefix(line, "ps") {
					t.Errorf("%s: %q made a line of its own: %q", l.Name, s, line)
				}
				if strings.ContainsAny(line, "\r\x00\x1b\x7f\u0085\u2028\u2029\u202e\u2066") {
					t.Errorf("%s: %q: a control character reached the output: %q", l.Name, s, line)
				}
				if l == outputs.Systemd || l == outputs.Conf {
					if n := len(line) - len(strings.TrimRight(line, `\`)); n%2 == 1 {
						t.Errorf("%s: %q: a line ends in a continuation: %q", l.Name, s, line)
					}
				}
			}
			if l == outputs.C || l == outputs.DTS {
				checkBlockComments(t, l.Name, s, out)
				if strings.Contains(out, "??/") {
					t.Errorf("%s: %q: a trigraph reached the output: %q", l.Name, s, out)
				}
			}
		}
	}
}

// checkBlockComments walks out as a C lexer does: each comment must close
// where the printer closed it, and hold no "/*".
func checkBlockComments(t *testing.T, lang, s, out string) {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		trim := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trim, "x = "):
			// a string literal, which TestStrCompiles reads back
		case strings.HasPrefix(trim, "/*") && strings.HasSuffix(trim, "*/"):
			// a one-line comment: one opener, one closer
			if strings.Count(trim, "/*") != 1 || strings.Count(trim, "*/") != 1 {
				t.Errorf("%s: %q: comment not closed where printed: %q", lang, s, line)
			}
		case strings.HasPrefix(trim, "*"), trim == "/*":
			body := strings.TrimPrefix(trim, "/*")
			if trim != "*/" && (strings.Contains(body, "*/") || strings.Contains(body, "/*")) {
				t.Errorf("%s: %q: comment broken: %q", lang, s, line)
			}
		case strings.Contains(trim, "/*"):
			// code, then a note: the note opens once and closes at the end
			i := strings.Index(trim, "/*")
			note := trim[i:]
			if strings.Count(note, "/*") != 1 || strings.Count(note, "*/") != 1 || !strings.HasSuffix(note, "*/") {
				t.Errorf("%s: %q: note broken: %q", lang, s, line)
			}
		}
	}
}

// TestStr: each string is one literal or word whatever it holds.
func TestStr(t *testing.T) {
	for _, c := range []struct {
		lang    *outputs.Lang
		in, out string
	}{
		{outputs.C, "a\"b\\c\n?", `"a\"b\\c\012\077"`},
		{outputs.C, "nul\x00esc\x1b", `"nul\000esc\033"`},
		{outputs.DTS, "a\"b\\c\n\x00", `"a\"b\\c\x0a\x00"`},
		{outputs.DTS, "why??/", `"why\x3f\x3f/"`},
		{outputs.Shell, "eth0", "'eth0'"},
		{outputs.Shell, "", "''"},
		{outputs.Shell, "a'b", `'a'\''b'`},
		{outputs.Shell, "$(x)", "'$(x)'"},
		{outputs.Systemd, "/usr/libexec/boardc/b/tune.sh", "/usr/libexec/boardc/b/tune.sh"},
		{outputs.Systemd, "/a b/%n/$X", `"/a b/%%n/$$X"`},
		{outputs.Systemd, "a\"b\\c;\nd", `"a\"b\\c;?d"`},
		{outputs.Systemd, "", `""`},
		{outputs.Conf, "4096", "4096"},
		{outputs.Conf, "0 1\t2 %$#;", "0 1\t2 %$#;"},
	} {
		p := outputs.NewPrinter(c.lang)
		p.P(outputs.Str(c.in))
		if got := strings.TrimSuffix(p.String(), "\n"); got != c.out {
			t.Errorf("%s: Str(%q) = %s, want %s", c.lang.Name, c.in, got, c.out)
		}
	}
}

// TestConfRefuses: a conf file writes a key or value as it is, or refuses
// it, saying why; it never writes something else, and the printer panics
// on a string the emitter did not check.
func TestConfRefuses(t *testing.T) {
	for _, c := range []struct{ in, err string }{
		{"1\nkernel.panic = 1", `"1\nkernel.panic = 1" holds a control character, a line separator, a bidirectional control or a byte that is not UTF-8`},
		{"ls\u2028x", `"ls\u2028x" holds a control character, a line separator, a bidirectional control or a byte that is not UTF-8`},
		{"bad\xffutf8", `"bad\xffutf8" holds a control character, a line separator, a bidirectional control or a byte that is not UTF-8`},
		{" 1", `" 1" has a blank at its start or end, which the readers of the file strip`},
		{"1\t", `"1\t" has a blank at its start or end, which the readers of the file strip`},
		{`a\`, `"a\\" holds a backslash or a quote, which an environment file reads as an escape or quoting`},
		{`"1"`, `"\"1\"" holds a backslash or a quote, which an environment file reads as an escape or quoting`},
		{"it's", `"it's" holds a backslash or a quote, which an environment file reads as an escape or quoting`},
	} {
		err := outputs.Conf.Check(c.in)
		if err == nil || err.Error() != c.err {
			t.Errorf("Conf.Check(%q) = %v, want %s", c.in, err, c.err)
		}
		func() {
			defer func() {
				want := "outputs: conf cannot write a string: " + c.err
				if r := recover(); r != want {
					t.Errorf("P(Str(%q)) panicked with %v, want %s", c.in, r, want)
				}
			}()
			outputs.NewPrinter(outputs.Conf).P("k = ", outputs.Str(c.in))
		}()
	}
	for _, l := range []*outputs.Lang{outputs.C, outputs.DTS, outputs.Shell, outputs.Systemd} {
		for _, s := range hostile {
			if err := l.Check(s); err != nil {
				t.Errorf("%s refuses %q: %v", l.Name, s, err)
			}
		}
	}
}

// TestUnitText: a setting's free text keeps to its line and expands no
// specifier.
func TestUnitText(t *testing.T) {
	p := outputs.NewPrinter(outputs.Systemd)
	p.P("Description=", outputs.T("50% of a\nb\\"))
	if got, want := p.String(), "Description=50%% of a?b\\\\\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestSystemdEscape(t *testing.T) {
	for in, want := range map[string]string{
		"eth0": "eth0", "br-lan": `br\x2dlan`, "eth0.100": "eth0.100", ".x": `\x2ex`, "a b": `a\x20b`,
	} {
		if got := outputs.SystemdEscape(in); got != want {
			t.Errorf("SystemdEscape(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestStrCompiles has the C compiler and the shell read every hostile
// string back: the C literal and the shell word must hold exactly it.
func TestStrCompiles(t *testing.T) {
	cc := testtool.Look(t, "gcc", "gcc")
	dir := t.TempDir()
	var c, sh strings.Builder
	c.WriteString("#include <stdio.h>\n#include <string.h>\nint main(void)\n{\n")
	sh.WriteString("#!/bin/sh\n")
	for i, s := range hostile {
		if strings.ContainsRune(s, 0) {
			continue // neither a C string nor a shell word holds a NUL
		}
		cp := outputs.NewPrinter(outputs.C)
		cp.P("\tfwrite(", outputs.Str(s), fmt.Sprintf(", 1, %d, stdout);", len(s)))
		cp.P("\tputchar(0);")
		c.WriteString(cp.String())
		sp := outputs.NewPrinter(outputs.Shell)
		sp.P("printf '%s\\0' ", outputs.Str(s), outputs.N("case ", i, ": ", s))
		sh.WriteString(sp.String())
	}
	c.WriteString("\treturn 0;\n}\n")
	src := filepath.Join(dir, "s.c")
	if err := os.WriteFile(src, []byte(c.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "s")
	if out, err := exec.Command(cc, "-Wall", "-Werror", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	var want strings.Builder
	for _, s := range hostile {
		if !strings.ContainsRune(s, 0) {
			want.WriteString(s + "\x00")
		}
	}
	got, err := exec.Command(bin).Output()
	if err != nil || string(got) != want.String() {
		t.Errorf("C strings read back as %q (%v), want %q", got, err, want.String())
	}
	script := filepath.Join(dir, "s.sh")
	if err := os.WriteFile(script, []byte(sh.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err = exec.Command("sh", script).Output()
	if err != nil || string(got) != want.String() {
		t.Errorf("shell words read back as %q (%v), want %q", got, err, want.String())
	}
}
