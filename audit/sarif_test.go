package audit

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/diag/sarif"
	"boardc.dev/boardc/compiler/diag/sarif/sariftest"
)

// TestSARIF checks the log of a run against the SARIF 2.1.0 schema, and
// that a finding is located at its node's line, relative to the tree.
func TestSARIF(t *testing.T) {
	r := Board(tree(t, armada(ram8G, "", "")), "board.dts", catalog())
	rep := &Report{Boards: []BoardResult{r}, Findings: Finish([]BoardResult{r})}
	var b bytes.Buffer
	if err := rep.SARIF("boardc", "test", "/src/linux").Write(&b); err != nil {
		t.Fatal(err)
	}
	if err := sariftest.Validate(b.Bytes()); err != nil {
		t.Fatalf("the SARIF 2.1.0 schema rejects the log: %v\n%s", err, b.String())
	}
	var log sarif.Log
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if len(run.Tool.Driver.Rules) != len(Classes()) || len(run.Results) != len(rep.Findings) || run.Properties.Errors != 1 {
		t.Fatalf("%d rules, %d results, %d errors; want %d, %d, 1", len(run.Tool.Driver.Rules), len(run.Results), run.Properties.Errors, len(Classes()), len(rep.Findings))
	}
	res := run.Results[0]
	pl := res.Locations[0].PhysicalLocation
	if res.RuleID != "coherency" || res.Level != "error" || pl.ArtifactLocation.URI != "board.dts" || pl.ArtifactLocation.URIBaseID != sarif.RootBase ||
		pl.Region.StartLine != 14 || res.Locations[0].LogicalLocations[0].FullyQualifiedName != "board.dts:/soc/crypto@90000" ||
		!strings.Contains(res.Message.Text, "change: add `dma-coherent;` to &crypto") || run.OriginalURIBaseIDs[sarif.RootBase].URI != "file:///src/linux/" {
		t.Errorf("result = %+v, base %+v", res, run.OriginalURIBaseIDs)
	}
	// The validator is not vacuous: a level SARIF does not define fails.
	bad := strings.Replace(b.String(), `"level": "error"`, `"level": "fatal"`, 1)
	if sariftest.Validate([]byte(bad)) == nil {
		t.Error("the schema accepted a result of level fatal")
	}
}
