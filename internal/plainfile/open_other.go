//go:build !unix

package plainfile

import "os"

// Open opens the file at path for reading, as os.Open; noFollow is
// ignored where the host has no O_NOFOLLOW.
func Open(path string, noFollow bool) (*os.File, error) {
	return os.Open(path)
}
