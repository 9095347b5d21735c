package main

import (
	"bytes"
	"os"
	"path/filepath"

	"boardc.dev/boardc/outputs"
)

// writeFiles writes files under dir, each atomically (a temporary file in
// the same directory, then rename) and only when its content changed. It
// returns the paths it wrote.
func writeFiles(dir string, files []outputs.File) ([]string, error) {
	var written []string
	for _, f := range files {
		path := filepath.Join(dir, filepath.FromSlash(f.Path))
		wrote, err := writeIfChanged(path, f.Data)
		if err != nil {
			return written, err
		}
		if wrote {
			written = append(written, path)
		}
	}
	return written, nil
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
	mode := os.FileMode(0o644)
	if bytes.HasPrefix(data, []byte("#!")) {
		mode = 0o755
	}
	if err := os.Chmod(tmp.Name(), mode); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
