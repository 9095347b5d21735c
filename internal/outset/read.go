package outset

import (
	"bytes"
	"errors"
	"io/fs"
	"os"

	"boardc.dev/boardc/internal/plainfile"
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
	return readOutput(path, -1)
}

// sameOutput reports whether the file of an output set at path holds
// want, with ReadOutput's errors. A file of another size is not read.
func sameOutput(path string, want []byte) (bool, error) {
	old, err := readOutput(path, len(want))
	return err == nil && old != nil && bytes.Equal(old, want), err
}

// readOutput is ReadOutput, which returns nil and no error for a file
// whose size is not size, when size is not negative.
func readOutput(path string, size int) ([]byte, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	switch {
	case fi.IsDir():
		return os.ReadFile(path) // "is a directory": an I/O error, as ever
	case !fi.Mode().IsRegular():
		return nil, &fs.PathError{Op: "read", Path: path, Err: ErrNotRegular}
	case size >= 0 && fi.Size() != int64(size):
		return nil, nil
	}
	f, err := plainfile.Open(path, true)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err = f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: ErrNotRegular}
	}
	// Room for the whole file and a read that finds its end.
	return plainfile.ReadAll(f, int(fi.Size()))
}
