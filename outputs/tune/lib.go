package tune

import (
	"embed"
	"fmt"
	"io/fs"
	"regexp"
	"strings"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/outputs"
)

// libFS holds the fixed text of the shell outputs, as files a shell
// reader and shellcheck see as they are:
//
//   - lib/*.sh, the fixed part of tune.sh, after the board's actions, in
//     parts read in name order: the command line, comparing CPU lists and
//     masks, finding values, applying them, finding interfaces, and revert
//     with the main flow. It must stay POSIX sh (dash, busybox ash) and
//     shellcheck-clean. It calls the board's part (actions,
//     board_matches) and reads its variables (board, pins_irqs,
//     policy_script, isolated_cpus), so shellcheck checks it inside each generated
//     tune.sh rather than alone.
//   - awk/*.awk, the awk programs of tune.sh and the policy script. A
//     part takes one as '@NAME.awk@', a single-quoted word the program
//     replaces (awkProgram), so a program holds no single quote. Both
//     outputs read /proc/interrupts with the one parser
//     awk/irq-actions.awk: with -v find=vars, a shell assignment for
//     each action name, of the numbers of the IRQs that have it; with
//     -v find=names, the action names of the IRQ numbered
//     ENVIRON["BOARDC_IRQ"]. The target
//     checks (scripts/target/checks.sh) keep a parser of their own, an
//     independent oracle of both.
//   - body/*.sh, the bodies of the init, hotplug and policy scripts after
//     their header. A line that is a key of writeBody's fill (the tune=
//     line that says where tune.sh is, the policy script's case arms) is
//     where the board's own lines go.
//
//go:embed lib/*.sh awk/*.awk body/*.sh
var libFS embed.FS

// awkRef is where a part of the library takes an awk program.
var awkRef = regexp.MustCompile(`'@([a-z-]+)\.awk@'`)

// library is the parts of lib/ joined by a blank line, with their awk
// programs in place.
var library = func() string {
	parts, err := fs.Glob(libFS, "lib/*.sh")
	if err != nil {
		panic(err)
	}
	texts := make([]string, len(parts))
	for i, p := range parts {
		texts[i] = withAwk(readLib(p))
	}
	return strings.Join(texts, "\n")
}()

// withAwk returns text with each '@NAME.awk@' replaced by the program as
// a single-quoted word.
func withAwk(text string) string {
	return awkRef.ReplaceAllStringFunc(text, func(ref string) string {
		return "'" + awkProgram(awkRef.FindStringSubmatch(ref)[1]) + "'"
	})
}

// readLib returns the embedded file at path.
func readLib(path string) string {
	b, err := libFS.ReadFile(path)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// awkProgram returns the program awk/NAME.awk without its final newline,
// to be written as one single-quoted shell word.
func awkProgram(name string) string {
	prog := strings.TrimSuffix(readLib("awk/"+name+".awk"), "\n")
	if strings.Contains(prog, "'") {
		panic(fmt.Sprintf("tune: awk/%s.awk holds a single quote, which would end its shell word", name))
	}
	return prog
}

// writeBody writes body/NAME, with its awk programs in place, as fixed
// text, but for each line that is a key of fill (without its newline):
// fill's function writes that line's place.
func writeBody(p *outputs.Printer, name string, fill map[string]func()) {
	text := withAwk(readLib("body/" + name))
	used := 0
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if f, ok := fill[line]; ok {
			f()
			used++
			continue
		}
		p.Raw(line)
	}
	if used != len(fill) {
		panic(fmt.Sprintf("tune: body/%s fills %d of its %d places", name, used, len(fill)))
	}
}

// initBody writes body/NAME, the fixed body of an init or hotplug script,
// with the board's tune.sh path as a shell word in its tune= line.
func initBody(p *outputs.Printer, b *ir.Board, name string) {
	writeBody(p, name, map[string]func(){
		"tune=${BOARDC_TUNE:-@tune@}": func() {
			p.P("tune=${BOARDC_TUNE:-", outputs.Str(tunePath(b)), "}")
		},
	})
}

// Library returns the fixed part of tune.sh, the same for every board:
// Script appends it, byte for byte, after the board's own lines, and none
// of its lines has an origin, so it never moves the line numbers the
// manifest gives the board's lines.
func Library() string { return library }
