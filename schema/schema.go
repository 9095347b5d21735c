// Package schema embeds the boardc CUE schema.
//
// The schema is the contract between a board description and the compiler:
// boardc unifies every description with #Board before it lowers it, and
// `boardc schema` prints it so that it can be used on its own with `cue vet`.
package schema

import _ "embed"

// Source is the text of the schema, boardc.cue.
//
//go:embed boardc.cue
var Source []byte

// Filename is the name positions in the schema are reported under.
const Filename = "schema/boardc.cue"

// Version is the schema version a description declares in its schema field.
const Version = 2
