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
//     parts read in name order: the command line, finding and comparing
//     values, applying them, finding interfaces, and revert with the main
//     flow. It must stay POSIX sh (dash, busybox ash) and
//     shellcheck-clean. It calls the board's part (actions,
//     board_matches) and reads its variables (board, pins_irqs), so
//     shellcheck checks it inside each generated tune.sh rather than
//     alone.
//   - awk/*.awk, the awk programs of tune.sh and the policy script. A
//     part takes one as '@NAME.awk@', a single-quoted word the program
//     replaces (awkProgram), so a program holds no single quote. Both
//     outputs read /proc/interrupts with the one parser
//     awk/irq-actions.awk: with -v find=numbers, the numbers of the IRQs
//     one of whose action names is ENVIRON["BOARDC_IRQ"]; with -v
//     find=names, the action names of the IRQ numbered so. The target
//     checks (scripts/target/checks.sh) keep a parser of their own, an
//     independent oracle of both.
//   - init/*.sh, the bodies of the init and hotplug scripts after their
//     header, in which the one line "tune=${BOARDC_TUNE:-@tune@}" says
//     where tune.sh is (initBody).
//
//go:embed lib/*.sh awk/*.awk init/*.sh
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
		texts[i] = awkRef.ReplaceAllStringFunc(readLib(p), func(ref string) string {
			return "'" + awkProgram(awkRef.FindStringSubmatch(ref)[1]) + "'"
		})
	}
	return strings.Join(texts, "\n")
}()

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

// tuneLine is the line of an init body that sets where tune.sh is.
const tuneLine = "tune=${BOARDC_TUNE:-@tune@}\n"

// initBody writes init/NAME, the fixed body of an init or hotplug script,
// with the board's tune.sh path as a shell word in its tune= line.
func initBody(p *outputs.Printer, b *ir.Board, name string) {
	before, after, ok := strings.Cut(readLib("init/"+name), tuneLine)
	if !ok {
		panic("tune: init/" + name + " has no line " + strings.TrimSpace(tuneLine))
	}
	if before != "" {
		p.Raw(before)
	}
	p.P("tune=${BOARDC_TUNE:-", outputs.Str(tunePath(b)), "}")
	if after != "" {
		p.Raw(after)
	}
}

// Library returns the fixed part of tune.sh, the same for every board:
// Script appends it, byte for byte, after the board's own lines, and none
// of its lines has an origin, so it never moves the line numbers the
// manifest gives the board's lines.
func Library() string { return library }
