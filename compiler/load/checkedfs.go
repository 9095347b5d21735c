package load

import (
	"bytes"
	"io/fs"
	"os"
	"slices"
)

// checkedFS is the host's file system as an inputChecker that keeps files
// found it, for cue/load (load.Config.FS): the directories the check
// read are listed, and the input files it parsed are read and stated,
// from what the check kept; anything else comes from the host. A path
// of it is an absolute host path without its leading "/". Loading a BSP,
// cue/load otherwise read each board's directory three times and each
// of its files again.
type checkedFS struct{ c *inputChecker }

var _ interface {
	fs.ReadDirFS
	fs.ReadFileFS
	fs.StatFS
	fs.ReadLinkFS
} = checkedFS{}

// host returns the host path of name, or an error for a name that is not
// a valid path of a file system.
func host(op, name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	if name == "." {
		return "/", nil
	}
	return "/" + name, nil
}

// kept returns what the check read of the input file at host path p,
// or nil.
func (f checkedFS) kept(p string) *readFile {
	if rf := f.c.files[p]; rf != nil && rf.data != nil {
		return rf
	}
	return nil
}

// Open opens the file name.
func (f checkedFS) Open(name string) (fs.File, error) {
	p, err := host("open", name)
	if err != nil {
		return nil, err
	}
	if rf := f.kept(p); rf != nil {
		return &keptFile{info: rf.info, Reader: bytes.NewReader(rf.data)}, nil
	}
	return os.Open(p)
}

// ReadDir lists the directory name, sorted by file name.
func (f checkedFS) ReadDir(name string) ([]fs.DirEntry, error) {
	p, err := host("readdir", name)
	if err != nil {
		return nil, err
	}
	if d := f.c.dirs[p]; d != nil && d.entries != nil {
		return slices.Clone(d.entries), nil
	}
	return os.ReadDir(p)
}

// ReadFile returns the content of the file name.
func (f checkedFS) ReadFile(name string) ([]byte, error) {
	p, err := host("readfile", name)
	if err != nil {
		return nil, err
	}
	if rf := f.kept(p); rf != nil {
		return slices.Clone(rf.data), nil
	}
	return os.ReadFile(p)
}

// Stat returns the information of the file name, links followed.
func (f checkedFS) Stat(name string) (fs.FileInfo, error) {
	p, err := host("stat", name)
	if err != nil {
		return nil, err
	}
	if rf := f.kept(p); rf != nil {
		return rf.info, nil
	}
	return os.Stat(p)
}

// ReadLink returns the destination of the link name.
func (f checkedFS) ReadLink(name string) (string, error) {
	p, err := host("readlink", name)
	if err != nil {
		return "", err
	}
	return os.Readlink(p)
}

// Lstat returns the information of the file name, a link not followed.
func (f checkedFS) Lstat(name string) (fs.FileInfo, error) {
	p, err := host("lstat", name)
	if err != nil {
		return nil, err
	}
	return os.Lstat(p)
}

// keptFile is an input file the check read, opened.
type keptFile struct {
	info fs.FileInfo
	*bytes.Reader
}

// Stat returns the file's information.
func (k *keptFile) Stat() (fs.FileInfo, error) { return k.info, nil }

// Close closes the file.
func (k *keptFile) Close() error { return nil }
