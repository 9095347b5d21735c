package tune_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"boardc.dev/boardc/outputs/tune"
)

// awkRef is where a part of the library takes an awk program.
var awkRef = regexp.MustCompile(`'@([a-z-]+)\.awk@'`)

// TestScriptLibrary asserts what the golden copies of tune.sh rely on
// (internal/golden.TuneLibrary): tune.sh is the board's own lines, ending
// with the actions function, then the library, the lib/*.sh parts joined
// by a blank line with their awk programs (awk/*.awk) in place, byte for
// byte; and no annotation reaches into the
// library, so a change to it moves no line the manifest lists.
func TestScriptLibrary(t *testing.T) {
	parts, err := filepath.Glob(filepath.Join("lib", "*.sh"))
	if err != nil || len(parts) == 0 {
		t.Fatalf("no lib/*.sh: %v", err)
	}
	var texts []string
	for _, p := range parts {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(b))
	}
	lib := withAwk(t, strings.Join(texts, "\n"))
	if strings.Contains(lib, ".awk@") {
		t.Fatalf("the library takes an awk program other than as '@NAME.awk@'")
	}
	if tune.Library() != lib {
		t.Fatalf("Library() is not lib/*.sh joined by a blank line, with their awk programs in place")
	}
	for _, f := range tune.Emit(testBoard()) {
		if f.Path != tune.ScriptFile {
			continue
		}
		head, ok := strings.CutSuffix(string(f.Data), lib)
		if !ok {
			t.Fatalf("%s does not end with the library", f.Path)
		}
		if !strings.HasSuffix(head, "\n\t:\n}\n\n") {
			t.Errorf("%s: the library does not follow the actions function and a blank line:\n%s", f.Path, head[max(0, len(head)-200):])
		}
		headLines := strings.Count(head, "\n")
		for _, a := range f.Annotations {
			if a.End > headLines {
				t.Errorf("%s: an annotation of lines %d-%d reaches into the library (from line %d)", f.Path, a.Line, a.End, headLines+1)
			}
		}
		return
	}
	t.Fatalf("no %s", tune.ScriptFile)
}

// withAwk returns text with each '@NAME.awk@' replaced by awk/NAME.awk as
// one single-quoted shell word.
func withAwk(t *testing.T, text string) string {
	t.Helper()
	return awkRef.ReplaceAllStringFunc(text, func(ref string) string {
		return "'" + awkText(t, awkRef.FindStringSubmatch(ref)[1]) + "'"
	})
}

// awkText returns the program awk/NAME.awk without its final newline.
func awkText(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("awk", name+".awk"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(string(b), "\n")
}

// TestOneInterruptsParser: tune.sh and the irqbalance policy script read
// /proc/interrupts with the same program, awk/irq-actions.awk, so the
// script bans exactly the IRQs tune.sh finds by name.
func TestOneInterruptsParser(t *testing.T) {
	prog := "'" + awkText(t, "irq-actions") + "'"
	if want := "awk -v find=vars -v prefix=\"irq${irq_gen}_\" " + prog; !strings.Contains(tune.Library(), want) {
		t.Errorf("tune.sh's library does not find IRQs with awk/irq-actions.awk")
	}
	if want := "BOARDC_IRQ=$irq awk -v find=names " + prog; !strings.Contains(tune.PolicyScript(testBoard()), want) {
		t.Errorf("the policy script does not find action names with awk/irq-actions.awk")
	}
}
