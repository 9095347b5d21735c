package outset

import (
	"bytes"
	"os"
	"path/filepath"
)

// WriteFile writes data to path atomically, creating the directory when
// needed: a temporary file in the same directory, given the mode Mode
// gives, then renamed over path, so that path is at every instant the
// previous file or the whole new one, with its final mode. (go-internal's
// renameio, deprecated, cannot set the mode before the rename.)
func WriteFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return replace(path, data, Mode(data), nil)
}

// replace writes data to a temporary file beside path, gives it mode and
// whatever set does (nil for nothing), and renames it over path.
func replace(path string, data []byte, mode os.FileMode, set func(tmp string) error) error {
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
	if err := os.Chmod(tmp.Name(), mode); err != nil {
		return err
	}
	if set != nil {
		if err := set(tmp.Name()); err != nil {
			return err
		}
	}
	return os.Rename(tmp.Name(), path)
}

// WriteIfChanged writes data to path as WriteFile does unless the file
// already holds exactly data. It reports whether it wrote.
func WriteIfChanged(path string, data []byte) (bool, error) {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return false, nil
	}
	return true, WriteFile(path, data)
}
