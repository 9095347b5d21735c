package boardc

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/compiler/load"
)

// Discover returns the board directories at or below root, sorted (see
// load.FindBoards for what makes a directory a board).
func Discover(root string) ([]string, error) {
	return load.FindBoards(root)
}

// ErrNoBoard is what Expand returns, wrapped, for a pattern that finds no
// board.
var ErrNoBoard = errors.New("no board found")

// Expand replaces every argument ending in "/..." (e.g. ./boards/...) by
// the board directories at or below that directory (Discover), keeping
// the order of the arguments; other arguments are kept as they are. A
// pattern that matches no board is an error.
func Expand(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		root, ok := strings.CutSuffix(filepath.ToSlash(a), "...")
		if !ok || (root != "" && !strings.HasSuffix(root, "/")) {
			out = append(out, a)
			continue
		}
		root = strings.TrimSuffix(root, "/")
		if root == "" {
			root = "."
		}
		dirs, err := Discover(filepath.FromSlash(root))
		if err != nil {
			return nil, err
		}
		if len(dirs) == 0 {
			return nil, fmt.Errorf("%s: %w", a, ErrNoBoard)
		}
		out = append(out, dirs...)
	}
	return out, nil
}

// ModuleFile returns the cue.mod/module.cue of the CUE module holding
// the first of sources, or "" when there is none: the module path and
// language version it declares change how the description loads.
func ModuleFile(sources []ir.Source) string {
	if len(sources) == 0 {
		return ""
	}
	return load.FindModuleFile(sources[0].Path)
}

// ModulePath returns the module path, without its major version, of the
// CUE module rooted at dir. When dir has no cue.mod/module.cue, the error
// satisfies errors.Is(err, fs.ErrNotExist).
func ModulePath(dir string) (string, error) {
	return load.ModulePath(dir)
}
