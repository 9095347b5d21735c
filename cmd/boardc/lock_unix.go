//go:build unix

package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// lockFile opens (creating it when exclusive) and locks path with
// flock(2), exclusive or shared, waiting for other holders. The lock goes
// with the process, so a killed build releases it. The returned function
// unlocks.
func lockFile(path string, exclusive bool) (func(), error) {
	flag, how := os.O_RDONLY, unix.LOCK_SH
	if exclusive {
		flag, how = os.O_RDWR|os.O_CREATE, unix.LOCK_EX
	}
	f, err := os.OpenFile(path, flag, 0o644)
	if err != nil {
		return nil, err
	}
	for {
		err = unix.Flock(int(f.Fd()), how)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, &os.PathError{Op: "flock", Path: path, Err: err}
	}
	return func() { f.Close() }, nil
}
