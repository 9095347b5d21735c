//go:build unix

package outset

import (
	"os"
	"syscall"
)

// owner returns the number of names (hard links) of the file fi describes
// and its owner and group; known is false where the system does not say.
func owner(fi os.FileInfo) (links uint64, uid, gid int, known bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, 0, false
	}
	return uint64(st.Nlink), int(st.Uid), int(st.Gid), true
}
