//go:build !unix

package outset

// oNoFollow is 0 where open has no O_NOFOLLOW: the Lstat before the open
// refuses a symbolic link.
const oNoFollow = 0
