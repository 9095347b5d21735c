package main

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

// The output directory OUT holds, besides each board's directory:
//
//	OUT/.boardc.lock          locked (flock, exclusive) by every build while it writes
//	OUT/.boardc/<board>.new   a board's next set, staged; the previous set after a swap
//	OUT/.boardc/<board>.old   the previous set, only during the fallback swap
//
// A board's files are swapped in as a set, so that OUT/<board> is at every
// instant, whenever the build is killed, either the whole previous set or
// the whole new one, and its manifest.json lists exactly its files:
//
//  1. Under the lock, recover: an OUT/.boardc/X.old whose OUT/X is missing
//     is renamed back to OUT/X (the fallback swap below was cut between its
//     two renames), then everything left in OUT/.boardc is removed.
//  2. Compare each output with OUT/<board>/. When every file is unchanged and
//     nothing is to be removed, nothing is touched.
//  3. Otherwise stage the new set in OUT/.boardc/<board>.new: a file whose
//     content is unchanged is hard-linked from the current set (it keeps its
//     inode and modification time, so make and kbuild see no change), a new
//     or changed file is written. A file in the current set that the new
//     build does not produce is dropped when the previous manifest.json
//     lists it (or it is the temporary file of an older boardc's write);
//     any other file (not boardc's) is carried over.
//  4. Swap: renameat2(RENAME_EXCHANGE) exchanges the staged directory with
//     OUT/<board> in one step (rename(2) when OUT/<board> does not exist
//     yet), and the previous set, now at the staged path, is removed.
//     Where the file system cannot exchange (EINVAL), the swap is two
//     renames, OUT/<board> to OUT/.boardc/<board>.old and the staged set to
//     OUT/<board>, and a kill between them is undone by step 1 of the next
//     build: then, until that build, OUT/<board> is missing.
//
// OUT/<board> stays a plain directory with the files at the same paths, so
// consumers read it as before. Nothing is fsynced: the set is atomic
// against the death of the process, not against a crash of the machine.

// lockName and stateDir are the lock file and the private directory that
// OUT holds for boardc.
const (
	lockName = ".boardc.lock"
	stateDir = ".boardc"
)

// errNotDir and errSymlink are what is wrong with an OUT/<board> that
// the swap cannot replace: a file, or a symbolic link (the swap would
// replace the link, not the directory it points to).
var (
	errNotDir  = errors.New("not a directory")
	errSymlink = errors.New("a symbolic link: boardc replaces the directory as a whole, so -o must name the real output directory")
)

// lockOut creates outDir when needed, takes its lock and recovers from an
// interrupted build. The returned function releases the lock.
func lockOut(outDir string) (func(), error) {
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, err
	}
	unlock, err := lockFile(filepath.Join(outDir, lockName), true)
	if err != nil {
		return nil, err
	}
	if err := recoverOut(outDir); err != nil {
		unlock()
		return nil, err
	}
	return func() {
		os.Remove(filepath.Join(outDir, stateDir)) // only when empty
		unlock()
	}, nil
}

// recoverOut puts back every set a cut fallback swap left aside and
// removes what an interrupted build staged. It runs under the lock.
func recoverOut(outDir string) error {
	state := filepath.Join(outDir, stateDir)
	entries, err := os.ReadDir(state)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".old")
		if !ok || !e.IsDir() {
			continue
		}
		cur := filepath.Join(outDir, name)
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

// setChange is what writing a board's set did, by path below OUT/<board>.
type setChange struct {
	Written []string // new or changed files
	Removed []string // files the previous set had and the new one has not
}

// writeSet replaces the set of files in outDir/name by files, as the
// comment above describes. The caller holds the lock (lockOut).
func writeSet(outDir, name string, files []outputs.File) (setChange, error) {
	cur := filepath.Join(outDir, name)
	var ch setChange
	if fi, err := os.Lstat(cur); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return ch, &fs.PathError{Op: "write", Path: cur, Err: errSymlink}
	} else if err == nil && !fi.IsDir() {
		return ch, &fs.PathError{Op: "write", Path: cur, Err: errNotDir}
	}
	present, err := presentFiles(cur)
	if err != nil {
		return ch, err
	}
	produced := make(map[string]bool, len(files))
	same := make([]bool, len(files))
	for i, f := range files {
		p := filepath.FromSlash(f.Path)
		produced[p] = true
		old, err := os.ReadFile(filepath.Join(cur, p))
		switch {
		case err == nil && bytes.Equal(old, f.Data):
			same[i] = true
		case err == nil || os.IsNotExist(err):
			ch.Written = append(ch.Written, p)
		default:
			return ch, err
		}
	}
	var keep []string
	var listed map[string]bool // read only when a file is not produced
	for _, p := range present {
		if produced[p] {
			continue
		}
		if listed == nil {
			listed = previousFiles(cur)
		}
		switch {
		case listed[p] || isTempFile(p):
			ch.Removed = append(ch.Removed, p)
		default:
			keep = append(keep, p)
		}
	}
	if len(ch.Written) == 0 && len(ch.Removed) == 0 {
		return ch, nil
	}

	stage := filepath.Join(outDir, stateDir, name+".new")
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
	if err := swapIn(stage, cur, filepath.Join(outDir, stateDir, name+".old")); err != nil {
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

// presentFiles returns the files (anything but a directory) below dir,
// relative to it, sorted. A missing dir has none.
func presentFiles(dir string) ([]string, error) {
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

// isTempFile reports whether the file at p is the temporary file of an
// interrupted write by a boardc before output sets: ".NAME.tmpNNN".
func isTempFile(p string) bool {
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

// outputMode returns the mode of an output file holding data: a script
// ("#!") is executable.
func outputMode(data []byte) os.FileMode {
	if bytes.HasPrefix(data, []byte("#!")) {
		return 0o755
	}
	return 0o644
}

// writeNew creates path with data; a script ("#!") is executable.
func writeNew(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	mode := outputMode(data)
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
// current set aside to old first; recoverOut undoes a cut between them.
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

// writeFilesLocked replaces the set of files in dir; the caller holds the
// lock of the directory above it (lockOut). It returns the paths it wrote.
func writeFilesLocked(dir string, files []outputs.File) ([]string, error) {
	outDir, name := filepath.Dir(dir), filepath.Base(dir)
	ch, err := writeSet(outDir, name, files)
	written := make([]string, len(ch.Written))
	for i, p := range ch.Written {
		written[i] = filepath.Join(dir, p)
	}
	return written, err
}

// writeIfChanged writes data to path atomically unless the file already
// holds exactly data. It reports whether it wrote.
func writeIfChanged(path string, data []byte) (bool, error) {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return false, nil
	}
	return true, writeAtomic(path, data)
}

func writeAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op after a successful rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), outputMode(data)); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
