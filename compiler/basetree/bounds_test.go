package basetree

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fdtBuilder writes a version-17 flattened device tree token by token.
type fdtBuilder struct{ st, str bytes.Buffer }

func (f *fdtBuilder) u32(v uint32) { binary.Write(&f.st, binary.BigEndian, v) }

func (f *fdtBuilder) pad() {
	for f.st.Len()%4 != 0 {
		f.st.WriteByte(0)
	}
}

func (f *fdtBuilder) begin(name string) {
	f.u32(fdtBeginNode)
	f.st.WriteString(name)
	f.st.WriteByte(0)
	f.pad()
}

func (f *fdtBuilder) end() { f.u32(fdtEndNode) }

func (f *fdtBuilder) prop(name string, val []byte) {
	off := f.str.Len()
	f.str.WriteString(name)
	f.str.WriteByte(0)
	f.u32(fdtProp)
	f.u32(uint32(len(val)))
	f.u32(uint32(off))
	f.st.Write(val)
	f.pad()
}

// bytes returns the tree: header, reservation block, structure, strings.
func (f *fdtBuilder) bytes() []byte {
	f.u32(fdtEnd)
	const hdr, rsv = 40, 16
	st, str := f.st.Bytes(), f.str.Bytes()
	var b bytes.Buffer
	for _, v := range []uint32{fdtMagic, uint32(hdr + rsv + len(st) + len(str)), hdr + rsv,
		uint32(hdr + rsv + len(st)), hdr, 17, 16, 0, uint32(len(str)), uint32(len(st))} {
		binary.Write(&b, binary.BigEndian, v)
	}
	b.Write(make([]byte, rsv))
	b.Write(st)
	b.Write(str)
	return b.Bytes()
}

func smallTree() *fdtBuilder {
	var f fdtBuilder
	f.begin("")
	f.prop("compatible", []byte("v,b\x00"))
	f.begin("soc")
	f.end()
	f.end()
	return &f
}

// TestBounds: a tree inside the bounds reads; a header that claims more
// than the file holds, a deep, wide or long-named tree and a malformed
// structure block are refused before anything is allocated for them.
func TestBounds(t *testing.T) {
	good := smallTree().bytes()
	if tr, err := Read(good, "good.dtb"); err != nil || tr.Node("/soc") == nil {
		t.Fatalf("a small tree: %v", err)
	}
	set := func(b []byte, at int, v uint32) []byte {
		c := append([]byte(nil), b...)
		binary.BigEndian.PutUint32(c[at:], v)
		return c
	}
	deep := &fdtBuilder{}
	for range MaxDepth + 2 {
		deep.begin("n")
	}
	for range MaxDepth + 2 {
		deep.end()
	}
	longName := &fdtBuilder{}
	longName.begin("")
	longName.begin(strings.Repeat("x", MaxName+1))
	longName.end()
	longName.end()
	longProp := &fdtBuilder{}
	longProp.begin("")
	longProp.prop(strings.Repeat("p", MaxName+1), nil)
	longProp.end()
	for _, tc := range []struct {
		name string
		dtb  []byte
		want string
		b    bool // outside the bounds, not malformed
	}{
		{"4 GiB strings block", set(good, 32, 0xffff_ff00), "its strings block (offset", false},
		{"4 GiB structure block", set(good, 36, 0xffff_ff00), "its structure block (offset", false},
		{"total size past the file", set(good, 4, uint32(len(good)+1)), "its header says", false},
		{"old version", set(good, 20, 16), "version 16", false},
		{"no magic", set(good, 0, 0), "no FDT magic", false},
		{"truncated", good[:30], "shorter than a header", false},
		{"deep", deep.bytes(), "nested more than 64 deep", true},
		{"long node name", longName.bytes(), "is 1025 bytes, more than 1024", true},
		{"long property name", longProp.bytes(), "is 1025 bytes, more than 1024", true},
		{"unknown token", set(good, 56, 7), "an unknown token 0x7", false},
	} {
		_, err := Read(tc.dtb, "x.dtb")
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "x.dtb: not a readable flattened device tree: ") {
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.want)
			continue
		}
		if errors.Is(err, errBounds) != tc.b {
			t.Errorf("%s: %v: outside the bounds %v, want %v", tc.name, err, errors.Is(err, errBounds), tc.b)
		}
	}
	var wide fdtBuilder
	wide.begin("")
	for range MaxNodes {
		wide.begin("n")
		wide.end()
	}
	wide.end()
	if _, err := Read(wide.bytes(), "wide.dtb"); !errors.Is(err, errBounds) || !strings.Contains(err.Error(), "more than 100000 nodes") {
		t.Errorf("a tree of %d nodes: %v", MaxNodes+1, err)
	}
}

// TestReadFileBounds refuses a file over MaxSize without reading all of
// it, and what is not a regular file.
func TestReadFileBounds(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.dtb")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxSize + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := ReadFile(big); err == nil || !strings.Contains(err.Error(), "larger than 32 MiB") {
		t.Errorf("a file of %d bytes: %v", MaxSize+1, err)
	}
	if _, err := ReadFile(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a directory: %v", err)
	}
}

// TestNodeNameBytes: a node name is read byte for byte, UTF-8 or not.
func TestNodeNameBytes(t *testing.T) {
	var f fdtBuilder
	f.begin("")
	f.prop("compatible", []byte("v,b\x00"))
	f.begin("caf\u00e9@1")
	f.end()
	f.begin("raw\xff@2")
	f.end()
	f.end()
	tr, err := Read(f.bytes(), "names.dtb")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/caf\u00e9@1", "/raw\xff@2"} {
		if tr.Node(p) == nil {
			t.Errorf("no node %q among %q", p, tr.Paths())
		}
	}
}
