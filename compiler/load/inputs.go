package load

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/mod/modfile"

	"boardc.dev/boardc/internal/plainfile"
)

// MaxInput is the largest .cue file boardc reads, in bytes. The largest
// descriptions are synthetic SoCs of 5,000 masters, 1.5 MiB of CUE.
const MaxInput = 16 << 20

// checkInput returns why the file at path cannot be an input, or "" when
// it can: a regular file (through any symbolic link) of at most MaxInput
// bytes. It only stats the file: a FIFO, a device or a socket would block
// or never end when read, and /dev/zero has no end.
func checkInput(path string) string {
	_, why := statInput(path)
	return why
}

// statInput is checkInput, with the file's information when it can be
// an input.
func statInput(path string) (fs.FileInfo, string) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, describeStatErr(err)
	}
	switch m := fi.Mode(); {
	case m&fs.ModeNamedPipe != 0:
		return nil, "a FIFO, not a regular file: boardc reads only regular .cue files"
	case m&fs.ModeDevice != 0 || m&fs.ModeCharDevice != 0:
		return nil, "a device, not a regular file: boardc reads only regular .cue files"
	case m&fs.ModeSocket != 0:
		return nil, "a socket, not a regular file: boardc reads only regular .cue files"
	case !m.IsRegular():
		return nil, "not a regular file: boardc reads only regular .cue files"
	case fi.Size() > MaxInput:
		return nil, fmt.Sprintf("%d bytes, more than the %d MiB boardc reads of a .cue file", fi.Size(), MaxInput>>20)
	}
	return fi, ""
}

// checkInputs checks, before CUE opens any of them, every .cue file CUE
// reads to load the package in dir: those of dir and of its ancestors up
// to the module root (root, "" for none), which may hold files of the same
// package, then those of every package of the module they import, and the
// module file. It returns the first file that cannot be an input and why.
//
// Only those directories are read, not the whole module: a module holding
// a BSP of many boards is checked per board in the time of the board's
// own files, not of all of them. The import clauses are read with CUE's
// parser, from files that have passed the check.
func checkInputs(root, dir string) (file, why string) {
	return newInputChecker(root).check(dir)
}

// inputChecker is checkInputs for several packages of one module: each
// directory is read, and the module file parsed, once for all of them.
type inputChecker struct {
	root, module string
	// mod is the module file's check, done on first use.
	mod  *dirCheck
	dirs map[string]*dirCheck
	// parsed, when not nil, keeps every file that passed the check
	// parsed whole, as cue/load parses it (parseFile), and sums a digest
	// of its content; files keeps what was read of each input file, and
	// the directories their entries (checkedFS).
	parsed map[string]*ast.File
	sums   map[string][sha256.Size]byte
	files  map[string]*readFile
	// syntax is how cue/load parses the module's files, ok false when
	// it is not known.
	syntax struct {
		cfg parser.Config
		ok  bool
	}
}

// dirCheck is what one directory's check found: the first of its files
// that cannot be an input and why, or the directories of the module's
// packages its files import.
type dirCheck struct {
	file, why string
	imports   []string
	// files are the directory's input files.
	files []string
	// entries are the directory's, when c keeps files and it was read
	// without error.
	entries []fs.DirEntry
}

// readFile is an input file as the check found it: its information
// and, once parsed, its content.
type readFile struct {
	info fs.FileInfo
	data []byte
}

// newInputChecker returns an inputChecker for the module rooted at root
// ("" for none).
func newInputChecker(root string) *inputChecker {
	return &inputChecker{root: root, dirs: map[string]*dirCheck{}}
}

// check is checkInputs(c.root, dir).
func (c *inputChecker) check(dir string) (file, why string) {
	if c.root == "" {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return "", ""
		}
		for _, e := range entries {
			if !isInput(e.Name()) {
				continue
			}
			path := filepath.Join(dir, e.Name())
			if why := checkInput(path); why != "" {
				return path, why
			}
		}
		return "", ""
	}
	if c.parsed != nil && c.files == nil {
		c.files = map[string]*readFile{}
	}
	if c.mod == nil {
		c.mod = &dirCheck{}
		if mf := filepath.Join(c.root, filepath.FromSlash(ModuleFile)); exists(mf) {
			if why := checkInput(mf); why != "" {
				c.mod.file, c.mod.why = mf, why
			}
		}
		if c.mod.why == "" {
			var m *modfile.File
			if m, _ = moduleFile(c.root); m != nil && m.ModuleRootPath() != "" {
				// Without a module path, CUE resolves no import of
				// the module.
				c.module = m.ModuleRootPath()
				c.syntax.cfg, c.syntax.ok = cueSyntax(m)
			}
		}
	}
	if c.mod.why != "" {
		return c.mod.file, c.mod.why
	}
	seen := map[string]bool{}
	queue := []string{dir}
	for len(queue) > 0 {
		pkg := queue[0]
		queue = queue[1:]
		for d := pkg; ; d = filepath.Dir(d) {
			if !seen[d] {
				seen[d] = true
				r := c.dir(d)
				if r.why != "" {
					return r.file, r.why
				}
				queue = append(queue, r.imports...)
			}
			if d == c.root || filepath.Dir(d) == d || !strings.HasPrefix(d, c.root) {
				break
			}
		}
	}
	return "", ""
}

// dir checks the input files of the directory d, once.
func (c *inputChecker) dir(d string) *dirCheck {
	if r, ok := c.dirs[d]; ok {
		return r
	}
	r := &dirCheck{}
	c.dirs[d] = r
	entries, err := os.ReadDir(d) // CUE reports what it cannot read
	if err == nil && c.parsed != nil {
		r.entries = entries
	}
	for _, e := range entries {
		if !isInput(e.Name()) {
			continue
		}
		path := filepath.Join(d, e.Name())
		fi, why := statInput(path)
		if why != "" {
			r.file, r.why, r.imports = path, why, nil
			return r
		}
		r.files = append(r.files, path)
		if c.parsed != nil {
			c.files[path] = &readFile{info: fi}
		}
		if f := c.parse(path); f != nil {
			r.imports = append(r.imports, importedDirs(f, c.root, c.module)...)
			continue
		}
		r.imports = append(r.imports, imported(path, c.root, c.module)...)
	}
	return r
}

// parse returns the file at path parsed whole as cue/load parses it, and
// keeps it in c.parsed, when c keeps files and the file is valid UTF-8
// with no byte-order mark (cue/load decodes it to UTF-8 first, which
// changes nothing then) and parses without error; nil otherwise.
func (c *inputChecker) parse(path string) *ast.File {
	if c.parsed == nil || !c.syntax.ok {
		return nil
	}
	data, err := plainfile.ReadFile(path)
	if err != nil || !utf8.Valid(data) || bytes.HasPrefix(data, []byte("\uFEFF")) {
		return nil
	}
	f, err := parser.ParseFile(path, data, c.syntax.cfg)
	if err != nil {
		return nil
	}
	c.parsed[path] = f
	c.files[path].data = data
	if c.sums == nil {
		c.sums = map[string][sha256.Size]byte{}
	}
	c.sums[path] = sha256.Sum256(data)
	return f
}

// packageOf returns the package of the checked directory dir when c kept
// every one of its input files parsed and they all name it, "" otherwise.
// cue/load given "./dir:pkg" then skips reading and parsing dir's files
// to find the package it would load for "./dir", with the same instance.
func (c *inputChecker) packageOf(dir string) string {
	r := c.dirs[dir]
	if r == nil || r.why != "" || len(r.files) == 0 {
		return ""
	}
	pkg := ""
	for _, path := range r.files {
		f := c.parsed[path]
		if f == nil {
			return ""
		}
		name := f.PackageName()
		if name == "" || name == "_" || pkg != "" && name != pkg {
			return ""
		}
		pkg = name
	}
	return pkg
}

// parseFile is cue/load's parser (load.Config.ParseFile): a file c kept
// parsed, of the same content and parsed alike, is not parsed again.
func (c *inputChecker) parseFile(name string, src any, cfg parser.Config) (*ast.File, error) {
	if b, ok := src.([]byte); ok && c.syntax.ok && cfg == c.syntax.cfg {
		if f, rf := c.parsed[name], c.files[name]; f != nil && rf != nil && bytes.Equal(b, rf.data) {
			return f, nil
		}
	}
	return parser.ParseFile(name, src, cfg)
}

// cueSyntax returns how cue/load parses the files of a module whose
// module file is m (cue/load's Config.complete and loadModule): with
// comments, in the module's language version; ok is false when m names
// none.
func cueSyntax(m *modfile.File) (parser.Config, bool) {
	if m.QualifiedModule() == "" || m.Language == nil || m.Language.Version == "" {
		return parser.Config{}, false
	}
	return parser.NewConfig(parser.ParseComments).Apply(parser.Version(m.Language.Version)), true
}

// imported returns the directories, under the module root, of the
// packages of the module (import path prefix module) that the CUE file
// at path imports; none when it does not parse, which CUE then reports.
func imported(path, root, module string) []string {
	if module == "" {
		return nil
	}
	f, err := parser.ParseFile(path, nil, parser.ImportsOnly)
	if err != nil {
		return nil
	}
	return importedDirs(f, root, module)
}

// importedDirs returns the directories, under the module root, of the
// packages of the module (import path prefix module) that f imports.
func importedDirs(f *ast.File, root, module string) []string {
	var dirs []string
	for spec := range f.ImportSpecs() {
		p, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			continue
		}
		p, _, _ = strings.Cut(p, ":") // a package qualifier
		rel, ok := strings.CutPrefix(p, module+"/")
		if !ok || !filepath.IsLocal(filepath.FromSlash(rel)) {
			continue
		}
		dirs = append(dirs, filepath.Join(root, filepath.FromSlash(rel)))
	}
	return dirs
}

// isInput reports whether CUE's loader reads a file of this name as part
// of a package: a .cue file not starting with "." or "_".
func isInput(name string) bool {
	return strings.HasSuffix(name, ".cue") && !strings.HasPrefix(name, ".") && !strings.HasPrefix(name, "_")
}

// skipDir reports whether a module's directory holds no package a
// description imports: CUE's module cache and generated packages, hidden
// directories, and the directories FindBoards does not search.
func skipDir(name string) bool {
	return name == "cue.mod" || name == "testdata" || name == "expected" ||
		strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}

// exists reports whether there is a directory entry at path (a link,
// dangling or not, counts).
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
