package outset

import (
	"errors"
	"os"
	"path/filepath"
)

// Rewrite replaces the content of an existing file the user owns (a
// description that boardc migrate edits) and keeps everything else about
// it: a symbolic link is followed and its target rewritten, the link
// left as it is; the file keeps its mode and, where the process may set
// them, its owner and group. A file with one name is replaced atomically
// by a temporary file in its own directory renamed over it. A file with
// several names (hard links) is rewritten in place, truncated then
// written, so that every name sees the new content: that is not atomic,
// which keeping the links requires.
func Rewrite(path string, data []byte) error {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	fi, err := os.Stat(target)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return &os.PathError{Op: "rewrite", Path: path, Err: errors.New("not a regular file")}
	}
	links, uid, gid, known := owner(fi)
	if known && links > 1 {
		return rewriteInPlace(target, data)
	}
	return replace(target, data, fi.Mode().Perm(), func(tmp string) error {
		if !known {
			return nil
		}
		// Only root may give a file away; another user's file keeps
		// the new owner, the caller, as an editor's save does.
		if err := os.Lchown(tmp, uid, gid); err != nil && !errors.Is(err, os.ErrPermission) {
			return err
		}
		return nil
	})
}

// rewriteInPlace truncates the file at path and writes data into it.
func rewriteInPlace(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
