package basetree

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// The bounds of a tree boardc reads. Real trees are far inside them: the
// largest arm64 board of Linux v7.1 compiles to well under 1 MiB, about
// 3,000 nodes, 10 levels deep, with names under 64 bytes. A file outside
// them is refused before anything is allocated for it, so that a corrupt
// or hostile .dtb cannot make boardc allocate gigabytes (a header may
// claim any block size) or write a draft of hundreds of megabytes.
const (
	// MaxSize is the largest .dtb read, in bytes.
	MaxSize = 32 << 20
	// MaxNodes is the most nodes a tree may have.
	MaxNodes = 100_000
	// MaxDepth is the deepest a node may be (the root is at depth 0).
	MaxDepth = 64
	// MaxName is the longest node or property name, in bytes.
	MaxName = 1024
)

// The structure block's tokens (devicetree specification v0.4, 5.4.1).
const (
	fdtBeginNode = 1
	fdtEndNode   = 2
	fdtProp      = 3
	fdtNop       = 4
	fdtEnd       = 9
	fdtMagic     = 0xd00dfeed
)

// errBounds marks a tree outside the bounds.
var errBounds = errors.New("outside the bounds boardc reads")

// ReadFile reads a compiled tree (.dtb) of at most MaxSize bytes.
func ReadFile(path string) (*Tree, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxSize {
		return nil, fmt.Errorf("%s: larger than %d MiB: %w", path, MaxSize>>20, errBounds)
	}
	return Read(b, path)
}

// checkBounds validates a flattened device tree's header and walks its
// structure block before the tree is parsed: every block inside the
// file, every token well formed, and the tree within MaxNodes, MaxDepth
// and MaxName.
func checkBounds(dtb []byte) error {
	if len(dtb) > MaxSize {
		return fmt.Errorf("larger than %d MiB: %w", MaxSize>>20, errBounds)
	}
	if len(dtb) < 40 {
		return errors.New("shorter than a header")
	}
	be := binary.BigEndian
	if be.Uint32(dtb) != fdtMagic {
		return errors.New("no FDT magic")
	}
	total := uint64(be.Uint32(dtb[4:]))
	offStruct, offStrings := uint64(be.Uint32(dtb[8:])), uint64(be.Uint32(dtb[12:]))
	offRsv, version := uint64(be.Uint32(dtb[16:])), be.Uint32(dtb[20:])
	sizeStrings, sizeStruct := uint64(be.Uint32(dtb[32:])), uint64(be.Uint32(dtb[36:]))
	if version < 17 {
		return fmt.Errorf("version %d: boardc reads version 17 (what dtc writes)", version)
	}
	if total > uint64(len(dtb)) {
		return fmt.Errorf("its header says %d bytes, the file has %d", total, len(dtb))
	}
	for _, blk := range []struct {
		name       string
		off, size  uint64
		checkAlign bool
	}{
		{"memory reservation block", offRsv, 16, true},
		{"structure block", offStruct, sizeStruct, true},
		{"strings block", offStrings, sizeStrings, false},
	} {
		if blk.off > total || blk.size > total-blk.off {
			return fmt.Errorf("its %s (offset %d, %d bytes) ends past the file's %d bytes", blk.name, blk.off, blk.size, total)
		}
		if blk.checkAlign && blk.off%4 != 0 {
			return fmt.Errorf("its %s is not 4-byte aligned", blk.name)
		}
	}
	return walkStruct(dtb[offStruct:offStruct+sizeStruct], dtb[offStrings:offStrings+sizeStrings])
}

// walkStruct checks the structure block's tokens and the tree's shape.
func walkStruct(s, strs []byte) error {
	be := binary.BigEndian
	nodes, depth := 0, -1
	for off := 0; ; {
		if off+4 > len(s) {
			return errors.New("its structure block ends without FDT_END")
		}
		tok := be.Uint32(s[off:])
		off += 4
		switch tok {
		case fdtBeginNode:
			n := nameLen(s[off:])
			if n < 0 {
				return fmt.Errorf("a node name at structure offset %d is not terminated", off)
			}
			if n > MaxName {
				return fmt.Errorf("a node name at structure offset %d is %d bytes, more than %d: %w", off, n, MaxName, errBounds)
			}
			off += align4(n + 1)
			depth++
			nodes++
			if depth > MaxDepth {
				return fmt.Errorf("nodes nested more than %d deep: %w", MaxDepth, errBounds)
			}
			if nodes > MaxNodes {
				return fmt.Errorf("more than %d nodes: %w", MaxNodes, errBounds)
			}
		case fdtEndNode:
			if depth < 0 {
				return fmt.Errorf("an FDT_END_NODE at structure offset %d closes no node", off-4)
			}
			depth--
		case fdtProp:
			if depth < 0 || off+8 > len(s) {
				return fmt.Errorf("a property at structure offset %d is outside a node or cut short", off-4)
			}
			size, nameOff := uint64(be.Uint32(s[off:])), uint64(be.Uint32(s[off+4:]))
			off += 8
			if size > uint64(len(s)-off) {
				return fmt.Errorf("a property at structure offset %d claims %d bytes, past the structure block", off-12, size)
			}
			if nameOff >= uint64(len(strs)) {
				return fmt.Errorf("a property at structure offset %d names string offset %d, past the strings block", off-12, nameOff)
			}
			switch n := nameLen(strs[nameOff:]); {
			case n < 0:
				return fmt.Errorf("a property name at string offset %d is not terminated", nameOff)
			case n > MaxName:
				return fmt.Errorf("a property name at string offset %d is %d bytes, more than %d: %w", nameOff, n, MaxName, errBounds)
			}
			off += align4(int(size))
		case fdtNop:
		case fdtEnd:
			if depth != -1 {
				return errors.New("its structure block ends inside a node")
			}
			if nodes == 0 {
				return errors.New("it has no root node")
			}
			return nil
		default:
			return fmt.Errorf("an unknown token 0x%x at structure offset %d", tok, off-4)
		}
	}
}

// nameLen returns the length of the NUL-terminated name at the start of
// b, or -1 when b holds no NUL.
func nameLen(b []byte) int {
	for i, c := range b {
		if c == 0 {
			return i
		}
	}
	return -1
}

// align4 rounds n up to a multiple of 4.
func align4(n int) int { return (n + 3) &^ 3 }
