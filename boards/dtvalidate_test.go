package boards_test

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc/internal/testtool"
)

// corpusTarball is the upstream Linux v7.1 arm64 corpus in the shared
// directory; its Bindings/ holds the v7.1 dt-schema YAML bindings.
const corpusTarball = "corpus/linux-v7.1-dts-arm64.tar.gz"

// badCrypto is the negative control: crypto@90000's binding
// (Bindings/crypto/inside-secure,safexcel.yaml: additionalProperties:
// false) forbids a property it does not list.
const badCrypto = "&crypto {\n\tboardc,bogus = <1>;\n};\n"

// TestDTValidate runs dt-validate (dt-schema) with the v7.1 bindings on
// each board's upstream .dtb and on the .dtb of the upstream .dts with the
// board's fragment included after it: the fragment must add no error.
// Errors are compared as the node and message dt-validate prints, with
// the complaints of bindings selected only through a generic compatible
// set aside (schemaErrors). docs/dt-validate.md records the result.
func TestDTValidate(t *testing.T) {
	shared := testtool.RequireShared(t, "..")
	testtool.Look(t, "dtc", "device-tree-compiler")
	testtool.Look(t, "cpp", "cpp")
	testtool.DTBindings(t)
	validate := testtool.Look(t, "dt-validate", "dt-schema")
	mk := testtool.Look(t, "dt-mk-schema", "dt-schema")
	corpus := filepath.Join(shared, corpusTarball)
	if _, err := os.Stat(corpus); err != nil {
		msg := corpus + " not present: the v7.1 bindings come from it"
		if testtool.Required() {
			t.Fatal(msg + " (BOARDC_REQUIRE_TOOLS=1)")
		}
		t.Skip(msg)
	}
	schema := processedSchema(t, mk, validate, corpus)
	up := filepath.Join(shared, "upstream-dts")

	for _, dir := range boardDirs(t) {
		t.Run(dir, func(t *testing.T) {
			t.Parallel()
			r := compile(t, dir)
			if r.Board.DTS == "" {
				t.Logf("%s names no upstream .dts: nothing to validate", r.Board.Name)
				return
			}
			dts := filepath.Join(up, r.Board.DTS)
			tmp := t.TempDir()
			frag := filepath.Join(tmp, "fragment.dtsi")
			if err := os.WriteFile(frag, output(t, r, r.Board.Name+".dtsi"), 0o644); err != nil {
				t.Fatal(err)
			}
			build := func(name, extra string) string {
				src := "#include \"" + dts + "\"\n"
				if name != "upstream" {
					src += "#include \"" + frag + "\"\n" + extra
				}
				p := filepath.Join(tmp, name+".dts")
				if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
				out := filepath.Join(tmp, name+".dtb")
				testtool.CompileDTS(t, up, p, out, "")
				return out
			}
			dtbs := []string{build("upstream", ""), build("fragment", "")}
			if string(readFile(t, dtbs[0])) == string(readFile(t, dtbs[1])) {
				// mirabox states no property; ls2088a-rdb states what
				// upstream already has. The same bytes give the same
				// errors: nothing to validate.
				t.Logf("%s: the fragment leaves the dtb byte-identical: it adds no error", r.Board.Name)
				return
			}
			errs := dtValidate(t, validate, schema, "", dtbs)
			base, with := errs[dtbs[0]], errs[dtbs[1]]
			t.Logf("%s: %d dt-schema errors upstream (%d set aside), %d with the fragment (%d set aside)",
				r.Board.Name, len(base.kept), base.aside, len(with.kept), with.aside)
			if diff := cmp.Diff([]string(nil), added(base.kept, with.kept)); diff != "" {
				t.Errorf("dt-schema errors the fragment adds (-none +added):\n%s", diff)
			}
			if r.Board.Name != "espressobin" {
				return
			}
			// The negative control: the same comparison, between the
			// fragment and the fragment with badCrypto after it, must
			// fail. It validates with crypto@90000's binding only
			// (dt-validate -l), a second's work instead of five.
			dtbs = []string{dtbs[1], build("control", badCrypto)}
			errs = dtValidate(t, validate, schema, "inside-secure,safexcel", dtbs)
			got := added(errs[dtbs[0]].kept, errs[dtbs[1]].kept)
			want := []string{
				"crypto@90000: 'boardc,bogus' does not match any of the regexes: 'pinctrl-[0-9]+' [Bindings/crypto/inside-secure,safexcel.yaml]",
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("errors the control fragment adds (-want +got):\n%s", diff)
			}
		})
	}
}

// added returns the errors of after absent from before, sorted.
func added(before, after []string) []string {
	seen := map[string]bool{}
	for _, e := range before {
		seen[e] = true
	}
	var out []string
	for _, e := range after {
		if !seen[e] {
			out = append(out, e)
		}
	}
	sort.Strings(out)
	return out
}

// validated is one dtb's dt-schema errors: kept, normalised and sorted,
// and how many were set aside.
type validated struct {
	kept  []string
	aside int
}

// dtValidate returns each dtb's errors from dt-validate with the
// processed schema. limit, when set, restricts it to the schema files
// whose name contains it (dt-validate -l). dt-validate's output for a
// dtb is cached beside the schema, keyed by the dtb's SHA-256 and limit:
// the schema's name already keys the bindings and dt-schema's version,
// so an unchanged tree is not validated again. The dtbs not cached are
// validated in one run (one schema load).
func dtValidate(t *testing.T, bin, schema, limit string, dtbs []string) map[string]validated {
	t.Helper()
	dir := strings.TrimSuffix(schema, ".json") + ".out"
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	res := map[string]validated{}
	cached := map[string]string{}
	var todo []string
	for _, dtb := range dtbs {
		sum := sha256.Sum256(readFile(t, dtb))
		cached[dtb] = filepath.Join(dir, hex.EncodeToString(sum[:])+"-"+strings.ReplaceAll(limit, "/", "_")+".txt")
		if b, err := os.ReadFile(cached[dtb]); err == nil {
			res[dtb] = schemaErrors(string(b), "DTB")
			continue
		}
		todo = append(todo, dtb)
	}
	if len(todo) == 0 {
		return res
	}
	args := []string{"-s", schema}
	if limit != "" {
		args = append(args, "-l", limit)
	}
	out, err := exec.Command(bin, append(args, todo...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("dt-validate: %v\n%s", err, out)
	}
	per := map[string]*strings.Builder{}
	for _, dtb := range todo {
		per[dtb] = &strings.Builder{}
	}
	var cur *strings.Builder
	for _, l := range strings.SplitAfter(string(out), "\n") {
		for _, dtb := range todo {
			if strings.HasPrefix(l, dtb+": ") {
				cur, l = per[dtb], "DTB: "+strings.TrimPrefix(l, dtb+": ")
				break
			}
		}
		if cur != nil {
			cur.WriteString(l)
		}
	}
	for _, dtb := range todo {
		text := per[dtb].String()
		res[dtb] = schemaErrors(text, "DTB")
		if err := os.WriteFile(cached[dtb]+".part", []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(cached[dtb]+".part", cached[dtb]); err != nil {
			t.Fatal(err)
		}
	}
	return res
}

var (
	falseSchema = regexp.MustCompile(`False schema does not allow \{.*\}$`)
	compatFail  = regexp.MustCompile(`^compatible(:\d+)?: `)
)

// dtError is one error dt-validate printed: the node it names (the first
// name after the file; nested nodes follow in the message), the message
// and the schema file it comes from.
type dtError struct{ node, msg, schema string }

// schemaErrors extracts the errors dt-validate printed for dtb (lines
// "DTB: node: message" followed by "\tFrom schema: FILE"). A message that
// quotes the node's properties (a false schema) is cut at the quote: it
// changes with any property the fragment adds. The errors of a binding
// whose compatible check fails on the node are set aside: dt-schema
// 2022.08's generated select matches any item of a binding's compatible
// list, so a binding listing "simple-bus" (Bindings/gpio/gpio-mxs.yaml)
// or a bus's generic compatible is applied to every simple-bus node and
// then complains about each of its children's properties.
func schemaErrors(out, dtb string) validated {
	var errs []dtError
	prefix := dtb + ": "
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	open := false // the last error is dtb's and its lines follow
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, prefix):
			node, msg, _ := strings.Cut(strings.TrimPrefix(l, prefix), ": ")
			errs = append(errs, dtError{node: node, msg: msg})
			open = true
		case !strings.HasPrefix(l, "\t"):
			open = false // another dtb's error
		case !open:
		case strings.HasPrefix(l, "\tFrom schema: "):
			s := strings.TrimPrefix(l, "\tFrom schema: ")
			if i := strings.Index(s, "/Bindings/"); i >= 0 {
				s = s[i+1:]
			} else if i := strings.Index(s, "/dtschema/schemas/"); i >= 0 {
				s = "dtschema:" + s[i+len("/dtschema/schemas/"):]
			}
			errs[len(errs)-1].schema = s
		case errs[len(errs)-1].schema == "":
			errs[len(errs)-1].msg += "\n" + l
		}
	}
	unmatched := map[[2]string]bool{}
	for _, e := range errs {
		if compatFail.MatchString(e.msg) {
			unmatched[[2]string{e.node, e.schema}] = true
		}
	}
	var v validated
	seen := map[string]bool{}
	for _, e := range errs {
		if unmatched[[2]string{e.node, e.schema}] {
			v.aside++
			continue
		}
		k := e.node + ": " + falseSchema.ReplaceAllString(e.msg, "False schema does not allow {...}") + " [" + e.schema + "]"
		if !seen[k] {
			seen[k] = true
			v.kept = append(v.kept, k)
		}
	}
	sort.Strings(v.kept)
	return v
}

// processedSchema returns dt-mk-schema's processed schema of the corpus's
// Bindings/, from the user cache directory (boardc/dt-schema/, keyed by
// the hash of Bindings/ and dt-schema's version) or built there once.
func processedSchema(t *testing.T, mk, validate, corpus string) string {
	t.Helper()
	ver, err := exec.Command(validate, "-V").Output()
	if err != nil {
		t.Fatalf("dt-validate -V: %v", err)
	}
	hash := bindingsHash(t, corpus)
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(cache, "boardc", "dt-schema")
	name := filepath.Join(dir, hash[:16]+"-"+strings.TrimSpace(string(ver)))
	if _, err := os.Stat(name + ".json"); err == nil {
		t.Logf("processed schema (cached): %s.json", name)
		return name + ".json"
	}
	tmp := t.TempDir()
	extract(t, corpus, tmp)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	part := name + ".json." + filepath.Base(tmp)
	cmd := exec.Command(mk, "-j", "-o", part, filepath.Join(tmp, "Bindings"))
	log, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("dt-mk-schema: %v\n%s", err, log)
	}
	if err := os.WriteFile(name+".log", log, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(part, name+".json"); err != nil {
		t.Fatal(err)
	}
	t.Logf("processed schema built: %s.json; %d bindings skipped (%s.log)",
		name, strings.Count(string(log), "ignoring, error in schema"), name)
	return name + ".json"
}

// bindingsHash returns the hex SHA-256 of the corpus's Bindings/ entries
// (names and contents, in archive order).
func bindingsHash(t *testing.T, corpus string) string {
	t.Helper()
	h := sha256.New()
	walkBindings(t, corpus, func(hdr *tar.Header, r io.Reader) {
		io.WriteString(h, hdr.Name+"\x00")
		if _, err := io.Copy(h, r); err != nil {
			t.Fatal(err)
		}
	})
	return hex.EncodeToString(h.Sum(nil))
}

// extract writes the corpus's Bindings/ under dst.
func extract(t *testing.T, corpus, dst string) {
	t.Helper()
	walkBindings(t, corpus, func(hdr *tar.Header, r io.Reader) {
		p := filepath.Join(dst, filepath.FromSlash(hdr.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(f, r); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

// walkBindings calls fn on each regular file under Bindings/ in the
// corpus tarball.
func walkBindings(t *testing.T, corpus string, fn func(*tar.Header, io.Reader)) {
	t.Helper()
	f, err := os.Open(corpus)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if hdr.Typeflag == tar.TypeReg && strings.HasPrefix(hdr.Name, "Bindings/") && !strings.Contains(hdr.Name, "..") {
			fn(hdr, tr)
		}
	}
}

// TestSchemaErrors pins the normalisation on dt-validate's own wording
// (dt-schema 2022.08.2, espressobin's upstream dtb): a binding whose
// compatible check fails on a node has its errors about that node set
// aside, a false schema's quote of the node's properties is cut, and
// the schema file is named from Bindings/ or dt-schema's own schemas.
func TestSchemaErrors(t *testing.T) {
	out := `/x/a.dtb: cpu@0: False schema does not allow {'device_type': ['cpu'], 'reg': [[0]]}
	From schema: /tmp/b/Bindings/arm/cpus.yaml
/x/a.dtb: bus@d0000000: compatible: ['simple-bus'] is too short
	From schema: /tmp/b/Bindings/gpio/gpio-mxs.yaml
/x/a.dtb: bus@d0000000: crypto@90000: 'clocks', 'dma-coherent' do not match any of the regexes: 'pinctrl-[0-9]+'
	From schema: /tmp/b/Bindings/gpio/gpio-mxs.yaml
/x/a.dtb: bus@d0000000: 'reg' is a required property
	From schema: /tmp/b/Bindings/soc/fsl/cpm_qe/fsl,qe.yaml
/x/a.dtb: crypto@90000: dma-coherent: 'oneOf' conditional failed, one must be fixed:
	b'\x00\x00\x00\x02' is not of type 'boolean'
	From schema: /usr/lib/python3/dist-packages/dtschema/schemas/dt-core.yaml
/x/b.dtb: phy@18300: '#phy-cells' is a required property
	From schema: /usr/lib/python3/dist-packages/dtschema/schemas/phy/phy-provider.yaml
/x/a.dtb: phy@18300: '#phy-cells' is a required property
	From schema: /usr/lib/python3/dist-packages/dtschema/schemas/phy/phy-provider.yaml
`
	got := schemaErrors(out, "/x/a.dtb")
	want := validated{
		kept: []string{
			"bus@d0000000: 'reg' is a required property [Bindings/soc/fsl/cpm_qe/fsl,qe.yaml]",
			"cpu@0: False schema does not allow {...} [Bindings/arm/cpus.yaml]",
			"crypto@90000: dma-coherent: 'oneOf' conditional failed, one must be fixed:\n\tb'\\x00\\x00\\x00\\x02' is not of type 'boolean' [dtschema:dt-core.yaml]",
			"phy@18300: '#phy-cells' is a required property [dtschema:phy/phy-provider.yaml]",
		},
		aside: 2,
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(validated{})); diff != "" {
		t.Errorf("schemaErrors (-want +got):\n%s", diff)
	}
}
