package outset

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"boardc.dev/boardc/outputs"
)

// Change is what writing a board's set did, by path below OUT/<board>.
type Change struct {
	Written []string // new or changed files
	Removed []string // files the previous set had and the new one has not
}

// compare returns what writing files as the set OUT/name would change,
// without writing or locking anything: which outputs are the same as the
// current set's (same, by index of files) and which files of the current
// set are not boardc's and stay (keep).
func compare(out, name string, files []outputs.File) (ch Change, same []bool, keep []string, err error) {
	cur := filepath.Join(out, name)
	if name == "." || name != filepath.Base(name) || !filepath.IsLocal(name) {
		return ch, nil, nil, &fs.PathError{Op: "write", Path: cur, Err: fs.ErrInvalid}
	}
	if fi, err := os.Lstat(cur); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return ch, nil, nil, &fs.PathError{Op: "write", Path: cur, Err: ErrBoardSymlink}
	} else if err == nil && !fi.IsDir() {
		return ch, nil, nil, &fs.PathError{Op: "write", Path: cur, Err: ErrNotDir}
	}
	present, err := Present(cur)
	if err != nil {
		return ch, nil, nil, err
	}
	produced := make(map[string]bool, len(files))
	same = make([]bool, len(files))
	for i, f := range files {
		p := filepath.FromSlash(f.Path)
		if !filepath.IsLocal(p) {
			return ch, nil, nil, &fs.PathError{Op: "write", Path: filepath.Join(cur, p), Err: fs.ErrInvalid}
		}
		produced[p] = true
		eq, err := sameOutput(filepath.Join(cur, p), f.Data)
		switch {
		case eq:
			same[i] = true
		case err == nil || os.IsNotExist(err) || errors.Is(err, ErrNotRegular):
			// A link or FIFO where an output goes is replaced, unread.
			ch.Written = append(ch.Written, p)
		default:
			return ch, nil, nil, err
		}
	}
	var listed map[string]bool // read only when a file is not produced
	for _, p := range present {
		if produced[p] {
			continue
		}
		if listed == nil {
			listed = previousFiles(cur)
		}
		switch {
		case listed[p] || IsTemp(p):
			ch.Removed = append(ch.Removed, p)
		default:
			keep = append(keep, p)
		}
	}
	return ch, same, keep, nil
}

// Unchanged reports whether OUT/name holds exactly files already: a
// build that would change nothing. It neither locks nor writes, so that
// such a build succeeds on an OUT it cannot write; a set another build
// is swapping in meanwhile is read whole or not at all (the swap is
// atomic).
func Unchanged(out, name string, files []outputs.File) bool {
	ch, _, _, err := compare(out, name, files)
	return err == nil && len(ch.Written) == 0 && len(ch.Removed) == 0
}

// Settled reports whether OUT holds nothing an interrupted build left
// (no OUT/.boardc): only then may a build that changes nothing skip the
// lock, under which such leftovers are recovered.
func Settled(out string) bool {
	_, err := os.Lstat(filepath.Join(out, StateDir))
	return os.IsNotExist(err)
}

// Write replaces the set of files in OUT/name by files, as the package
// comment describes. name is one path element (a board's name, or a
// report directory's).
func (o *Out) Write(name string, files []outputs.File) (Change, error) {
	cur := filepath.Join(o.dir, name)
	ch, same, keep, err := compare(o.dir, name, files)
	if err != nil || len(ch.Written) == 0 && len(ch.Removed) == 0 {
		return ch, err
	}

	state, _, err := o.state()
	if err != nil {
		return ch, err
	}
	stage := filepath.Join(state, name+".new")
	if err := os.RemoveAll(stage); err != nil {
		return ch, err
	}
	if err := os.MkdirAll(stage, 0o755); err != nil {
		return ch, err
	}
	for i, f := range files {
		p := filepath.FromSlash(f.Path)
		if same[i] {
			err = linkOrCopy(filepath.Join(cur, p), filepath.Join(stage, p))
		} else {
			err = writeNew(filepath.Join(stage, p), f.Data)
		}
		if err != nil {
			os.RemoveAll(stage)
			return ch, err
		}
	}
	for _, p := range keep {
		if err := linkOrCopy(filepath.Join(cur, p), filepath.Join(stage, p)); err != nil {
			os.RemoveAll(stage)
			return ch, err
		}
	}
	if err := swapIn(stage, cur, filepath.Join(state, name+".old")); err != nil {
		os.RemoveAll(stage)
		return ch, err
	}
	// The previous set, now at stage. The new set is in place whatever
	// happens here: what a kill or an error leaves, the next build's
	// recovery removes.
	os.RemoveAll(stage)
	return ch, nil
}

// previousFiles returns the files the manifest.json in dir lists, itself
// included; only itself when there is none or it does not parse (then
// no other file is known to be boardc's).
func previousFiles(dir string) map[string]bool {
	listed := map[string]bool{outputs.ManifestPath: true}
	data, err := os.ReadFile(filepath.Join(dir, outputs.ManifestPath))
	if err != nil {
		return listed
	}
	var m outputs.Manifest
	if json.Unmarshal(data, &m) != nil {
		return listed
	}
	for _, f := range m.Files {
		listed[filepath.FromSlash(f.Path)] = true
	}
	return listed
}

// Present returns the files (anything but a directory) below dir,
// relative to it, sorted. A missing dir has none.
func Present(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) && path == dir {
				return filepath.SkipDir
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		out = append(out, rel)
		return err
	})
	sort.Strings(out)
	return out, err
}

// IsTemp reports whether the file at p is the temporary file of an
// interrupted write by a boardc before output sets: ".NAME.tmpNNN".
func IsTemp(p string) bool {
	b := filepath.Base(p)
	return strings.HasPrefix(b, ".") && strings.Contains(b, ".tmp")
}

// linkOrCopy makes dst the file src: a hard link, or where the file
// system has none a copy with src's mode and modification time.
func linkOrCopy(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if os.Link(src, dst) == nil {
		return nil
	}
	fi, err := os.Lstat(src)
	if err != nil {
		return err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		target, err := os.Readlink(src)
		if err != nil {
			return err
		}
		return os.Symlink(target, dst)
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.WriteFile(dst, data, fi.Mode().Perm()); err != nil {
		return err
	}
	return os.Chtimes(dst, fi.ModTime(), fi.ModTime())
}

// Mode returns the mode of an output file holding data: a script ("#!")
// is executable.
func Mode(data []byte) os.FileMode {
	if bytes.HasPrefix(data, []byte("#!")) {
		return 0o755
	}
	return 0o644
}

// writeNew creates path with data, with the mode Mode gives.
func writeNew(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	mode := Mode(data)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	// The umask may have taken bits away; outputs have fixed modes.
	return os.Chmod(path, mode)
}

// fallbackSwap puts the staged set at cur in two renames, moving the
// current set aside to old first; recover undoes a cut between them.
func fallbackSwap(stage, cur, old string) error {
	if err := os.Rename(cur, old); err != nil {
		return err
	}
	if err := os.Rename(stage, cur); err != nil {
		if rerr := os.Rename(old, cur); rerr != nil {
			return fmt.Errorf("%w; the previous set is in %s", err, old)
		}
		return err
	}
	// The previous set goes where the caller removes it.
	return os.Rename(old, stage)
}
