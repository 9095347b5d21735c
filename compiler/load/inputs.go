package load

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// MaxInput is the largest .cue file boardc reads, in bytes. The largest
// descriptions are synthetic SoCs of 5,000 masters, 1.5 MiB of CUE.
const MaxInput = 16 << 20

// checkInput returns why the file at path cannot be an input, or "" when
// it can: a regular file (through any symbolic link) of at most MaxInput
// bytes. It only stats the file: a FIFO, a device or a socket would block
// or never end when read, and /dev/zero has no end.
func checkInput(path string) string {
	fi, err := os.Stat(path)
	if err != nil {
		return describeStatErr(err)
	}
	switch m := fi.Mode(); {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO, not a regular file: boardc reads only regular .cue files"
	case m&fs.ModeDevice != 0 || m&fs.ModeCharDevice != 0:
		return "a device, not a regular file: boardc reads only regular .cue files"
	case m&fs.ModeSocket != 0:
		return "a socket, not a regular file: boardc reads only regular .cue files"
	case !m.IsRegular():
		return "not a regular file: boardc reads only regular .cue files"
	case fi.Size() > MaxInput:
		return fmt.Sprintf("%d bytes, more than the %d MiB boardc reads of a .cue file", fi.Size(), MaxInput>>20)
	}
	return ""
}

// checkInputs checks, before CUE opens any of them, every .cue file CUE
// may read to load the package in dir: those of dir, and those of the
// CUE module holding it (root, "" for none), whose packages dir may
// import, and its module file. It returns the first file that cannot be
// an input and why.
func checkInputs(root, dir string) (file, why string) {
	check := func(path string) bool {
		if why = checkInput(path); why != "" {
			file = path
			return false
		}
		return true
	}
	if root == "" {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return "", ""
		}
		for _, e := range entries {
			if isInput(e.Name()) && !check(filepath.Join(dir, e.Name())) {
				return file, why
			}
		}
		return "", ""
	}
	if mf := filepath.Join(root, filepath.FromSlash(ModuleFile)); exists(mf) && !check(mf) {
		return file, why
	}
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // CUE reports what it cannot read
		}
		if d.IsDir() {
			if path != root && skipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if isInput(d.Name()) && !check(path) {
			return filepath.SkipAll
		}
		return nil
	})
	return file, why
}

// isInput reports whether CUE's loader reads a file of this name as part
// of a package: a .cue file not starting with "." or "_".
func isInput(name string) bool {
	return strings.HasSuffix(name, ".cue") && !strings.HasPrefix(name, ".") && !strings.HasPrefix(name, "_")
}

// skipDir reports whether a module's directory holds no package a
// description imports: CUE's module cache and generated packages, hidden
// directories, and the directories FindBoards does not search.
func skipDir(name string) bool {
	return name == "cue.mod" || name == "testdata" || name == "expected" ||
		strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}

// exists reports whether there is a directory entry at path (a link,
// dangling or not, counts).
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
