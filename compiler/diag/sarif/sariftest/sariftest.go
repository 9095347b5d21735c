// Package sariftest validates SARIF logs against the SARIF 2.1.0 JSON
// schema of the OASIS standard (Errata 01), for tests: the schema's
// origin is in testdata/README.md.
package sariftest

import (
	"bytes"
	_ "embed"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed testdata/sarif-schema-2.1.0.json
var schemaJSON []byte

// schemaURL is the schema's own id.
const schemaURL = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

var compiled = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	// Formats (uri, uri-reference, date-time) are checked, not only
	// annotated.
	c.AssertFormat()
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, err
	}
	return c.Compile(schemaURL)
})

// Validate returns an error saying where log, the bytes of a SARIF log,
// breaks the SARIF 2.1.0 schema, or nil.
func Validate(log []byte) error {
	sch, err := compiled()
	if err != nil {
		return fmt.Errorf("compiling the SARIF schema: %w", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(log))
	if err != nil {
		return fmt.Errorf("the log is not JSON: %w", err)
	}
	return sch.Validate(inst)
}
