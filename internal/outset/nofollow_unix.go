//go:build unix

package outset

import "syscall"

// oNoFollow makes opening a symbolic link fail, closing the window
// between the Lstat that refuses one and the open.
const oNoFollow = syscall.O_NOFOLLOW
