// Package plainfile opens and reads regular files with as few system
// calls as the host allows. os.Open hands every file to the runtime's
// poller, which refuses a regular file or a directory only after five
// calls (fcntl four times, epoll_ctl); a build of many boards reads
// thousands of small files, each input and each output it compares.
package plainfile

import (
	"bytes"
	"os"
)

// ReadFile returns the content of the file at path, as os.ReadFile.
func ReadFile(path string) ([]byte, error) {
	f, err := Open(path, false)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := 0
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = int(fi.Size())
	}
	return ReadAll(f, size)
}

// ReadAll reads f to its end, in one allocation when it holds size
// bytes, where io.ReadAll grows from 512 bytes.
func ReadAll(f *os.File, size int) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(size + bytes.MinRead)
	if _, err := b.ReadFrom(f); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
