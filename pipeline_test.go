package boardc_test

import (
	"os/exec"
	"strings"
	"testing"
)

// stages ranks the module's packages in the order of the pipeline, as the
// README's architecture section draws it: a package imports only packages
// of a lower rank, so the tree reads top to bottom with no arrow back up.
// The test-support and tool packages under internal/ are ranked where
// their imports put them.
var stages = map[string]int{
	"schema":               0,
	"internal/synth":       0,
	"internal/benchcpu":    0,
	"internal/testtool":    0,
	"internal/groundtruth": 0,
	"internal/plainfile":   0,
	"compiler/ir":          1,
	"compiler/kernel":      1,
	"compiler/basetree":    1,
	"compiler/diag":        2,
	"internal/kextract":    2,
	"internal/fdt":         2,
	"compiler/load":        3,
	"compiler/diag/sarif":  3,
	// sariftest validates SARIF logs in tests only.
	"compiler/diag/sarif/sariftest": 3,
	"compiler/check":                4,
	"compiler/draft":                4,
	"outputs":                       5,
	"outputs/dts":                   6,
	"outputs/dpl":                   6,
	"outputs/c":                     6,
	"outputs/tune":                  6,
	"internal/golden":               7,
	"":                              7, // boardc, the facade
	"internal/outset":               8,
	"internal/corpus":               8,
	"internal/conform":              8,
	"internal/intree":               8,
	"internal/targetplan":           8,
	"report":                        9,
	"audit":                         9,
	"explain":                       9,
	"cmd/boardc":                    10,
	"cmd/boardc-layout":             10,
	"cmd/boardc-catalog":            10,
	"bench/gen":                     10,
	"bench/proc":                    10,
	"boards":                        10,
	"integrations":                  10,
}

// TestPipelineOrder fails when a package imports one of the same or a
// later stage, or when a package has no stage yet.
func TestPipelineOrder(t *testing.T) {
	const mod = "boardc.dev/boardc"
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	rel := func(p string) (string, bool) {
		if p == mod {
			return "", true
		}
		r, ok := strings.CutPrefix(p, mod+"/")
		return r, ok
	}
	seen := 0
	for line := range strings.Lines(string(out)) {
		f := strings.Fields(line)
		pkg, _ := rel(f[0])
		rank, ok := stages[pkg]
		if !ok {
			t.Errorf("package %q has no stage: rank it in stages", f[0])
			continue
		}
		seen++
		for _, imp := range f[1:] {
			dep, ours := rel(imp)
			if !ours {
				continue
			}
			if r, ok := stages[dep]; ok && r >= rank {
				t.Errorf("%s (stage %d) imports %s (stage %d): an arrow back up the pipeline", f[0], rank, imp, r)
			}
		}
	}
	if seen < 20 {
		t.Errorf("go list named %d packages of the module, want every one", seen)
	}
}
