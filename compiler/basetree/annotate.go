package basetree

import (
	"bufio"
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Where each property comes from: dtc -O dts -T -T prints the tree with
// the source file, line and column of every node and property in a
// comment (dtc's treesource.c, "annotate").
var (
	annotNodeRE = regexp.MustCompile(`^\s*(?:[A-Za-z_][\w]*:\s*)*(\S+) \{ /\* .* \*/$`)
	annotPropRE = regexp.MustCompile(`^\s*(?:[A-Za-z_][\w]*:\s*)*([^\s=;]+)(?: = .*)?; /\* (.+):(\d+):\d+-\d+:\d+ \*/$`)
	annotEndRE  = regexp.MustCompile(`^\s*\};`)
)

// annotate runs dtc over preprocessed source to learn the source file and
// line of every property, and records them in t, files relative to the
// kernel tree where they are in it. dts and inc are paths()'s; dtc gets
// the same include paths as the build, so that a /include/ resolved there
// resolves here too.
func (c Compile) annotate(ctx context.Context, pre []byte, dts string, inc []string, t *Tree) error {
	args := append([]string{"-q", "-I", "dts", "-O", "dts", "-T", "-T"}, dtcIncludes(dts, inc)...)
	args = append(args, "-o", "-", "-")
	var out, stderr bytes.Buffer
	dtc := exec.CommandContext(ctx, c.dtcTool(), args...)
	dtc.Stdin, dtc.Stdout, dtc.Stderr = bytes.NewReader(pre), &out, &stderr
	if err := dtc.Run(); err != nil {
		return toolError("dtc", err, stderr.String())
	}
	t.sources = map[string]map[string]string{}
	var stack []string
	cur := func() string {
		if len(stack) <= 1 {
			return "/"
		}
		return "/" + strings.Join(stack[1:], "/")
	}
	sc := bufio.NewScanner(&out)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case annotNodeRE.MatchString(line):
			stack = append(stack, annotNodeRE.FindStringSubmatch(line)[1])
		case annotEndRE.MatchString(line):
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case annotPropRE.MatchString(line) && len(stack) > 0:
			m := annotPropRE.FindStringSubmatch(line)
			p := cur()
			if t.sources[p] == nil {
				t.sources[p] = map[string]string{}
			}
			t.sources[p][m[1]] = c.relSource(m[2]) + ":" + m[3]
		}
	}
	return sc.Err()
}

// relSource names a source file as the kernel tree does: relative to its
// root, a file reached through scripts/dtc/include-prefixes/ARCH/ by its
// place under arch/ARCH/boot/dts/.
func (c Compile) relSource(file string) string {
	if c.Root == "" {
		return filepath.ToSlash(file)
	}
	root, err := filepath.Abs(c.Root)
	if err != nil {
		return filepath.ToSlash(file)
	}
	// cpp names each file by the path it found it at, relative to the
	// working directory where the include path was.
	abs, err := filepath.Abs(file)
	if err != nil {
		return filepath.ToSlash(file)
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(file)
	}
	rel = filepath.ToSlash(rel)
	if rest, ok := strings.CutPrefix(rel, IncludePrefixes+"/"); ok {
		if arch, after, ok := strings.Cut(rest, "/"); ok && (arch == "arm" || arch == "arm64" || arch == "riscv") {
			return "arch/" + arch + "/boot/dts/" + after
		}
	}
	return rel
}

// PropSource returns where property prop of the node at path is set, as
// file:line, or "" when the tree was not compiled with its sources
// (Compile.Annotate) or has no such property.
func (t *Tree) PropSource(path, prop string) string {
	return t.sources[path][prop]
}

// SourceFiles returns the files the tree's properties are set in, each
// once and sorted, as PropSource names them; nil when the tree was not
// compiled with its sources.
func (t *Tree) SourceFiles() []string {
	seen := map[string]bool{}
	var files []string
	for _, props := range t.sources {
		for _, at := range props {
			f := at[:strings.LastIndexByte(at, ':')]
			if !seen[f] {
				seen[f] = true
				files = append(files, f)
			}
		}
	}
	sort.Strings(files)
	return files
}
