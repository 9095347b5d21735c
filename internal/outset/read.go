package outset

import (
	"errors"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular is what ReadOutput returns for an entry of an output set
// that is not a regular file: a symbolic link (read through, it could
// show a file outside OUT), a FIFO (reading it would block) or a device.
var ErrNotRegular = errors.New("not a regular file")

// ReadOutput reads a file of an output set without following a symbolic
// link or opening anything but a regular file. A missing file's error
// satisfies os.IsNotExist, a directory's is the error reading one is,
// and any other entry's wraps ErrNotRegular.
func ReadOutput(path string) ([]byte, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	switch {
	case fi.IsDir():
		return os.ReadFile(path) // "is a directory": an I/O error, as ever
	case !fi.Mode().IsRegular():
		return nil, &fs.PathError{Op: "read", Path: path, Err: ErrNotRegular}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|oNoFollow, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: ErrNotRegular}
	}
	return io.ReadAll(f)
}
