package tune

import (
	"embed"
	"io/fs"
	"strings"
)

// libFS holds the fixed part of tune.sh, after the board's actions, in
// parts read in name order: the command line, finding and comparing
// values, applying them, finding interfaces, and revert with the main
// flow. It must stay POSIX sh (dash, busybox ash) and shellcheck-clean.
// It calls the board's part (actions, board_matches) and reads its
// variables (board, pins_irqs), so shellcheck checks it inside each
// generated tune.sh rather than alone. Its awk programs are
// single-quoted and hold no single quote.
//
//go:embed lib/*.sh
var libFS embed.FS

// library is the parts of libFS joined by a blank line.
var library = func() string {
	parts, err := fs.Glob(libFS, "lib/*.sh")
	if err != nil {
		panic(err)
	}
	texts := make([]string, len(parts))
	for i, p := range parts {
		b, err := libFS.ReadFile(p)
		if err != nil {
			panic(err)
		}
		texts[i] = string(b)
	}
	return strings.Join(texts, "\n")
}()

// Library returns the fixed part of tune.sh, the same for every board:
// Script appends it, byte for byte, after the board's own lines, and none
// of its lines has an origin, so it never moves the line numbers the
// manifest gives the board's lines.
func Library() string { return library }
