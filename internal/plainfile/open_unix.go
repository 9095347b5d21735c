//go:build unix

package plainfile

import (
	"io/fs"
	"os"
	"syscall"
)

// Open opens the file at path for reading, with the errors of os.Open;
// with noFollow a symbolic link does not open (O_NOFOLLOW). The file is
// not the poller's: a FIFO or a device opened so blocks its reads in
// the thread that makes them, as any regular file's do.
func Open(path string, noFollow bool) (*os.File, error) {
	flag := syscall.O_RDONLY | syscall.O_CLOEXEC
	if noFollow {
		flag |= syscall.O_NOFOLLOW
	}
	for {
		fd, err := syscall.Open(path, flag, 0)
		switch err {
		case nil:
			// A blocking descriptor: os.NewFile leaves it out of the
			// poller after one fcntl.
			return os.NewFile(uintptr(fd), path), nil
		case syscall.EINTR:
			continue
		default:
			return nil, &fs.PathError{Op: "open", Path: path, Err: err}
		}
	}
}
