package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/kernel"
	"boardc.dev/boardc/schema"
)

// decodeStrict decodes data into v, failing on a field v does not have.
func decodeStrict(t *testing.T, data []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%v in:\n%s", err, data)
	}
}

func runOK(t *testing.T, args ...string) []byte {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := runWith(args, &stdout, &stderr); code != exitOK {
		t.Fatalf("boardc %v: exit %d\n%s", args, code, stderr.String())
	}
	return stdout.Bytes()
}

// TestVersionOutputs checks boardc --version, boardc version and the
// shape of version --json.
func TestVersionOutputs(t *testing.T) {
	text := runOK(t, "version")
	if got := runOK(t, "--version"); !bytes.Equal(got, text) {
		t.Errorf("--version printed\n%s\nversion printed\n%s", got, text)
	}
	var v struct {
		Boardc string `json:"boardc"`
		Schema int    `json:"schema"`
		CUE    string `json:"cue"`
	}
	decodeStrict(t, runOK(t, "version", "--json"), &v)
	want := fmt.Sprintf("boardc %s\nschema v%d\ncuelang.org/go %s\n", v.Boardc, v.Schema, v.CUE)
	if v.Boardc == "" || v.Schema != schema.Version || !strings.HasPrefix(v.CUE, "v0.") || string(text) != want {
		t.Errorf("version --json = %+v, text:\n%s", v, text)
	}
}

// TestListJSON checks the shape of list --json, for boards that load and
// for one that does not.
func TestListJSON(t *testing.T) {
	t.Setenv("CUE_REGISTRY", "none")
	var got []struct {
		Dir   string `json:"dir"`
		Board string `json:"board"`
		SoC   string `json:"soc"`
	}
	boards := filepath.Join("..", "..", "boards")
	decodeStrict(t, runOK(t, "list", "--json", boards), &got)
	want := "espressobin armada-3720,ls2088a-rdb ls2088a,mirabox armada-370,qemu-virt qemu-virt"
	var have []string
	for _, e := range got {
		if e.Dir != filepath.Join(boards, e.Board) {
			t.Errorf("board %s listed in %s", e.Board, e.Dir)
		}
		have = append(have, e.Board+" "+e.SoC)
	}
	if strings.Join(have, ",") != want {
		t.Errorf("list --json: %s, want %s", strings.Join(have, ","), want)
	}

	dir := t.TempDir()
	a, _ := setTree(t, dir)
	writeFile(t, filepath.Join(a, "board.cue"), "package tiny\n\nname: 1\nsoc: {}\n")
	var stdout, stderr bytes.Buffer
	if code := runWith([]string{"list", "--json", dir}, &stdout, &stderr); code != exitDiags {
		t.Fatalf("list --json of a broken board: exit %d, want %d\n%s", code, exitDiags, stderr.String())
	}
	var bad []struct {
		Dir         string `json:"dir"`
		Board       string `json:"board"`
		SoC         string `json:"soc"`
		Diagnostics []struct {
			File, Severity, Code, Message, Ref string
			Line, Col                          int
			Notes                              []struct{ Pos, Message string }
		} `json:"diagnostics"`
	}
	decodeStrict(t, stdout.Bytes(), &bad)
	if len(bad) != 2 || bad[0].Dir != a || bad[0].Board != "" || len(bad[0].Diagnostics) == 0 || bad[1].Board != "tiny" || bad[1].Diagnostics != nil {
		t.Fatalf("list --json of a broken board and a good one:\n%s", stdout.String())
	}
	if d := bad[0].Diagnostics[0]; d.File != filepath.Join(a, "board.cue") || d.Line != 3 || d.Severity != "error" || !strings.HasPrefix(d.Code, "BC") {
		t.Errorf("diagnostic %+v, want an error at %s:3", d, filepath.Join(a, "board.cue"))
	}
}

// TestExplainJSON checks the shape of explain --json and that it holds
// what the text form prints.
func TestExplainJSON(t *testing.T) {
	t.Setenv("CUE_REGISTRY", "none")
	board := filepath.Join("..", "..", "boards", "espressobin")
	var e struct {
		What  string `json:"what"`
		Board string `json:"board"`
		Facts []struct {
			Pos  string `json:"pos"`
			Ref  string `json:"ref"`
			Text string `json:"text"`
		} `json:"facts"`
		Masters []struct {
			Key       string `json:"key"`
			Coherence string `json:"coherence"`
		} `json:"masters"`
		Drivers []struct {
			Master  string   `json:"master"`
			Kernel  string   `json:"kernel"`
			Version string   `json:"version"`
			Name    string   `json:"name"`
			Matched string   `json:"matched"`
			Bus     string   `json:"bus"`
			Site    string   `json:"site"`
			Probe   string   `json:"probe"`
			Bridge  string   `json:"bridge"`
			DMA     string   `json:"dma"`
			Widths  []int    `json:"widths"`
			Reason  string   `json:"reason"`
			Sets    []string `json:"sets"`
			IRQs    []string `json:"irqs"`
		} `json:"drivers"`
		ChecksRan   int               `json:"checksRan"`
		Diagnostics []json.RawMessage `json:"diagnostics"`
		Generated   []struct {
			File string `json:"file"`
			Line int    `json:"line"`
			Text string `json:"text"`
		} `json:"generated"`
	}
	decodeStrict(t, runOK(t, "explain", "--json", board, "crypto"), &e)
	text := string(runOK(t, "explain", board, "crypto"))
	if e.What != "crypto" || e.Board != "espressobin" || e.ChecksRan == 0 || e.Diagnostics == nil {
		t.Errorf("explain --json: what %q board %q checksRan %d diagnostics %v", e.What, e.Board, e.ChecksRan, e.Diagnostics)
	}
	if kernel.Default() != "" {
		// The catalogue's fact behind crypto: its driver, as the text
		// form prints it.
		if len(e.Drivers) != 1 || e.Drivers[0].Master != "crypto" || e.Drivers[0].Kernel != kernel.Default() || e.Drivers[0].Name == "" ||
			!strings.Contains(text, "  crypto: driver "+e.Drivers[0].Name+" ("+e.Drivers[0].Bus+" bus, "+e.Drivers[0].Site+")") {
			t.Errorf("explain --json drivers %+v, not as the text form:\n%s", e.Drivers, text)
		}
	}
	pos := regexp.MustCompile(`^\S+\.cue:\d+:\d+$`)
	if len(e.Facts) == 0 {
		t.Error("no facts")
	}
	for _, f := range e.Facts {
		if !pos.MatchString(f.Pos) || f.Ref == "" || !strings.Contains(text, "  "+f.Pos+": "+f.Text+"\n") {
			t.Errorf("fact %+v is not in the text form", f)
		}
	}
	if len(e.Masters) != 1 || e.Masters[0].Key != "crypto" || !strings.Contains(text, "=> master crypto: "+e.Masters[0].Coherence+"\n") {
		t.Errorf("masters %+v", e.Masters)
	}
	dtsi := false
	for _, l := range e.Generated {
		if !strings.Contains(text, fmt.Sprintf("  espressobin/%s:%d: %s\n", l.File, l.Line, strings.TrimSpace(l.Text))) {
			t.Errorf("generated line %+v is not in the text form", l)
		}
		dtsi = dtsi || l.File == "espressobin.dtsi" && strings.Contains(l.Text, "dma-coherent;")
	}
	if !dtsi {
		t.Errorf("no dma-coherent line in espressobin.dtsi among %+v", e.Generated)
	}
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
