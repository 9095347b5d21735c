// Package outset writes a board's generated files into an output
// directory OUT as a set. It takes the files as data ([]outputs.File,
// manifest.json among them) and does the disk I/O; printing and exit
// codes are its callers'.
//
// OUT holds, besides each board's directory:
//
//	OUT/.boardc.lock          locked (exclusive) by every build while it writes
//	OUT/.boardc/<board>.new   a board's next set, staged; the previous set after a swap
//	OUT/.boardc/<board>.old   the previous set, only during the fallback swap
//
// A board's files are swapped in as a set, so that OUT/<board> is at every
// instant, whenever the build is killed, either the whole previous set or
// the whole new one, and its manifest.json lists exactly its files:
//
//  1. Under the lock (Lock), recover: an OUT/.boardc/X.old whose OUT/X is
//     missing is renamed back to OUT/X (the fallback swap below was cut
//     between its two renames), then everything left in OUT/.boardc is
//     removed.
//  2. Compare each output with OUT/<board>/. When every file is unchanged
//     and nothing is to be removed, nothing is touched.
//  3. Otherwise stage the new set in OUT/.boardc/<board>.new: a file whose
//     content is unchanged is hard-linked from the current set (it keeps
//     its inode and modification time, so make and kbuild see no change),
//     a new or changed file is written. A file in the current set that
//     the new build does not produce is dropped when the previous
//     manifest.json lists it (or it is the temporary file of an older
//     boardc's write); any other file (not boardc's) is carried over.
//  4. Swap: renameat2(RENAME_EXCHANGE) exchanges the staged directory
//     with OUT/<board> in one step (rename(2) when OUT/<board> does not
//     exist yet), and the previous set, now at the staged path, is
//     removed. Where the file system cannot exchange (EINVAL), the swap
//     is two renames, OUT/<board> to OUT/.boardc/<board>.old and the
//     staged set to OUT/<board>, and a kill between them is undone by
//     step 1 of the next build: then, until that build, OUT/<board> is
//     missing.
//
// OUT/<board> stays a plain directory with the files at the same paths,
// so consumers read it as before. Nothing is fsynced: the set is atomic
// against the death of the process, not against a crash of the machine.
//
// Nothing outside OUT is touched: a symbolic link at OUT/.boardc.lock,
// OUT/.boardc or OUT/<board> is refused, never followed.
package outset

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/lockedfile"
)

// LockName and StateDir are the lock file and the private directory that
// OUT holds for boardc.
const (
	LockName = ".boardc.lock"
	StateDir = ".boardc"
)

// Errors describing what is wrong with a path in OUT that boardc will
// not replace or follow; they come wrapped in an *fs.PathError naming
// the path.
var (
	// ErrNotDir is an OUT/<board> or OUT/.boardc that is not a directory.
	ErrNotDir = errors.New("not a directory")
	// ErrBoardSymlink is an OUT/<board> that is a symbolic link: the swap
	// would replace the link, not the directory it points to.
	ErrBoardSymlink = errors.New("a symbolic link: boardc replaces the directory as a whole, so -o must name the real output directory")
	// ErrStateSymlink is an OUT/.boardc.lock or OUT/.boardc that is a
	// symbolic link: following it would create or delete files outside OUT.
	ErrStateSymlink = errors.New("a symbolic link: boardc does not follow it, so as to touch nothing outside the output directory; remove it")
)

// Out is an output directory held under its exclusive lock, as Lock
// returns it.
type Out struct {
	dir  string
	lock *lockedfile.File
}

// Lock creates dir when needed, takes its lock (waiting for other
// holders) and recovers from an interrupted build. The lock goes with the
// process, so a killed build releases it. The caller calls Unlock.
func Lock(dir string) (*Out, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	f, err := openLock(filepath.Join(dir, LockName), os.O_RDWR|os.O_CREATE)
	if err != nil {
		return nil, err
	}
	o := &Out{dir: dir, lock: f}
	if err := o.recover(); err != nil {
		f.Close()
		return nil, err
	}
	return o, nil
}

// RLock takes dir's lock shared, waiting for a build writing into dir,
// and returns the function that lets it go. It fails when dir has no
// lock file (then no build has written into it yet).
func RLock(dir string) (func(), error) {
	f, err := openLock(filepath.Join(dir, LockName), os.O_RDONLY)
	if err != nil {
		return nil, err
	}
	return func() { f.Close() }, nil
}

// openLock opens and locks path, write-locked unless flag is O_RDONLY.
// A symbolic link at path is refused: with O_CREATE, a dangling one
// would create a file where it points.
func openLock(path string, flag int) (*lockedfile.File, error) {
	if err := notSymlink(path); err != nil {
		return nil, err
	}
	f, err := lockedfile.OpenFile(path, flag|oNoFollow, 0o644)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// notSymlink returns an error naming path when path is a symbolic link.
func notSymlink(path string) error {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return &fs.PathError{Op: "open", Path: path, Err: ErrStateSymlink}
	}
	return nil
}

// Unlock removes OUT/.boardc (when it is an empty directory) and lets
// the lock go.
func (o *Out) Unlock() {
	if state, ok, _ := o.state(); ok {
		os.Remove(state) // only when empty
	}
	o.lock.Close()
}

// state returns OUT/.boardc after checking that it is a directory of its
// own, or missing (then ok is false).
func (o *Out) state() (path string, ok bool, err error) {
	path = filepath.Join(o.dir, StateDir)
	fi, err := os.Lstat(path)
	switch {
	case os.IsNotExist(err):
		return path, false, nil
	case err != nil:
		return path, false, err
	case fi.Mode()&fs.ModeSymlink != 0:
		return path, false, &fs.PathError{Op: "open", Path: path, Err: ErrStateSymlink}
	case !fi.IsDir():
		return path, false, &fs.PathError{Op: "open", Path: path, Err: ErrNotDir}
	}
	return path, true, nil
}

// recover puts back every set a cut fallback swap left aside and removes
// what an interrupted build staged. It runs under the lock.
func (o *Out) recover() error {
	state, ok, err := o.state()
	if err != nil || !ok {
		return err
	}
	entries, err := os.ReadDir(state)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".old")
		if !ok || !e.IsDir() {
			continue
		}
		cur := filepath.Join(o.dir, name)
		if _, err := os.Lstat(cur); os.IsNotExist(err) {
			if err := os.Rename(filepath.Join(state, e.Name()), cur); err != nil {
				return err
			}
		}
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(state, e.Name())); err != nil {
			return err
		}
	}
	return nil
}
