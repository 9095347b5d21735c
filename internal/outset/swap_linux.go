package outset

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// swapIn puts the staged set at cur in one step: renameat2 with
// RENAME_EXCHANGE (Linux 3.15) exchanges the two directories atomically,
// leaving the previous set at stage. Without a current set it is a plain
// rename: do_renameat2() in fs/namei.c fails an exchange whose target does
// not exist with ENOENT. A file system whose ->rename does not take the
// flag fails it with EINVAL (as ext4_rename2() in fs/ext4/namei.c does for
// flags it does not know), a kernel without renameat2 with ENOSYS: those
// get the two-rename fallback, through old.
func swapIn(stage, cur, old string) error {
	err := unix.Renameat2(unix.AT_FDCWD, stage, unix.AT_FDCWD, cur, unix.RENAME_EXCHANGE)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, unix.ENOENT):
		// No current set (the staged one exists: it was just made).
		return os.Rename(stage, cur)
	case errors.Is(err, unix.EINVAL), errors.Is(err, unix.ENOSYS):
		return fallbackSwap(stage, cur, old)
	}
	return &os.LinkError{Op: "renameat2", Old: stage, New: cur, Err: err}
}
