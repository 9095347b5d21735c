package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"boardc.dev/boardc/audit"
	"boardc.dev/boardc/compiler/diag/sarif"
	"boardc.dev/boardc/compiler/diag/sarif/sariftest"
	"boardc.dev/boardc/internal/testtool"
)

// auditTree writes a kernel tree with one arm64 board, an Armada 3720
// whose EIP97 is not dma-coherent, and returns its root.
func auditTree(t *testing.T) string {
	t.Helper()
	testtool.Look(t, "cpp", "cpp")
	testtool.Look(t, "dtc", "device-tree-compiler")
	root := t.TempDir()
	dts := `/dts-v1/;
/ {
	compatible = "acme,board", "marvell,armada3720";
	#address-cells = <2>;
	#size-cells = <2>;
	soc {
		compatible = "simple-bus";
		#address-cells = <2>;
		#size-cells = <2>;
		ranges;
		crypto: crypto@90000 {
			compatible = "marvell,armada-3700-crypto", "inside-secure,safexcel-eip97ies";
			reg = <0 0x90000 0 0x20000>;
		};
	};
};
`
	p := filepath.Join(root, "arch", "arm64", "boot", "dts", "acme", "board.dts")
	for _, d := range []string{filepath.Dir(p), filepath.Join(root, "scripts", "dtc", "include-prefixes")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(p, []byte(dts), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

func TestAudit(t *testing.T) {
	root := auditTree(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		args        []string
		want        int
		out, errOut string
	}{
		{[]string{"audit", "--dts-root", root}, exitOK,
			"error [coherency] acme/board.dts: /soc/crypto@90000 (&crypto)\n  arch/arm64/boot/dts/acme/board.dts:12: ",
			"audit: 1 board(s), 0 not compiled, 1 with SoC interconnect facts; 1 finding(s): coherency 1"},
		{[]string{"audit", "--dts-root", root, "--fail-on=error", "acme/"}, exitDiags, "error [coherency]", ""},
		{[]string{"audit", "--dts-root", root, "--fail-on=note", "acme/b*"}, exitDiags, "error [coherency]", ""},
		{[]string{"audit", "--dts-root", root, "nope/"}, exitDiags, "", "boardc audit: nope/: no board of "},
		{[]string{"audit", "acme/board.dts"}, exitDiags, "", "boardc audit: no kernel tree: give --dts-root, --corpus or $BOARDC_DTS_ROOT"},
		{[]string{"audit", "--format=xml"}, exitUsage, "", "boardc audit: --format \"xml\": want text, json, sarif or html"},
		{[]string{"audit", "--fail-on=info"}, exitUsage, "", "boardc audit: --fail-on \"info\": want error, warning or note"},
		{[]string{"audit", "--dts-root", root, "--corpus", "x.tar.gz"}, exitUsage, "", "--dts-root and --corpus exclude each other"},
		{[]string{"audit", "--dts-root", root, "-o", filepath.Join(dir, "no", "such", "dir", "a.txt")}, exitIO, "", "boardc audit: "},
	} {
		var stdout, stderr bytes.Buffer
		t.Setenv("BOARDC_DTS_ROOT", "")
		code := runWith(tc.args, &stdout, &stderr)
		if code != tc.want || !strings.Contains(stdout.String(), tc.out) || !strings.Contains(stderr.String(), tc.errOut) {
			t.Errorf("%v: exit %d, want %d\nstdout: %s\nstderr: %s\nwant stdout containing %q, stderr %q", tc.args, code, tc.want, stdout.String(), stderr.String(), tc.out, tc.errOut)
		}
	}

	// A .dtb, read as it is: no upstream position.
	dtb := filepath.Join(dir, "board.dtb")
	if b, err := exec.Command("dtc", "-q", "-I", "dts", "-O", "dtb", "-@", "-o", dtb, filepath.Join(root, "arch", "arm64", "boot", "dts", "acme", "board.dts")).CombinedOutput(); err != nil {
		t.Fatalf("dtc: %v: %s", err, b)
	}
	var dout, derr bytes.Buffer
	if code := runWith([]string{"audit", dtb}, &dout, &derr); code != exitOK || !strings.Contains(dout.String(), "error [coherency] "+dtb+": /soc/crypto@90000 (&crypto)\n  /soc/crypto@90000 is not dma-coherent") {
		t.Errorf("audit %s: exit %d\nstdout: %s\nstderr: %s", dtb, code, dout.String(), derr.String())
	}

	// The JSON report, to a file.
	out := filepath.Join(dir, "audit.json")
	var stdout, stderr bytes.Buffer
	if code := runWith([]string{"audit", "--dts-root", root, "--format=json", "-o", out}, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Counts   map[string]int `json:"counts"`
		Boards   []struct{ Board, Family string }
		Findings []struct {
			Class, Severity, Board, Path, Source, Suggest string
		}
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Counts["coherency"] != 1 || len(rep.Boards) != 1 || rep.Boards[0].Family != "armada-37xx" || len(rep.Findings) != 1 ||
		rep.Findings[0].Source != "arch/arm64/boot/dts/acme/board.dts:12" || rep.Findings[0].Suggest != "add `dma-coherent;` to &crypto in arch/arm64/boot/dts/acme/board.dts" {
		t.Errorf("report = %s", b)
	}
}

// TestAuditSARIF: --format=sarif prints a SARIF 2.1.0 log with the
// finding located at its node's line in the kernel tree (the log itself
// is checked against the schema in package audit).
func TestAuditSARIF(t *testing.T) {
	root := auditTree(t)
	var stdout, stderr bytes.Buffer
	if code := runWith([]string{"audit", "--dts-root", root, "--format=sarif"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if err := sariftest.Validate(stdout.Bytes()); err != nil {
		t.Fatalf("the SARIF 2.1.0 schema rejects the log: %v\n%s", err, stdout.String())
	}
	var log sarif.Log
	if err := json.Unmarshal(stdout.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if len(run.Tool.Driver.Rules) != len(audit.Classes()) || len(run.Results) != 1 {
		t.Fatalf("%d rules, %d results; want %d and 1", len(run.Tool.Driver.Rules), len(run.Results), len(audit.Classes()))
	}
	pl := run.Results[0].Locations[0].PhysicalLocation
	if pl.ArtifactLocation.URI != "arch/arm64/boot/dts/acme/board.dts" || pl.Region == nil || pl.Region.StartLine != 12 || run.Tool.Driver.Name != "boardc" {
		t.Errorf("result = %+v", run.Results[0])
	}
}
