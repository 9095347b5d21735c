package diag

// Code is a diagnostic code as data: the stable ID printed in brackets, a
// short kebab-case name, the severity of its findings and a one-paragraph
// doc (what it finds, what it costs), which boardc checks prints and SARIF
// lists as a rule. A check embeds its Code (compiler/check); the codes
// the loader and the waivers report are plain Codes.
type Code struct {
	// ID is the stable code printed in diagnostics, e.g. "BC0101".
	ID string
	// Name is a short kebab-case name.
	Name string
	// Severity is the severity of the code's findings.
	Severity Severity
	// Doc is one paragraph: what the code finds and what it costs.
	Doc string
}

// Loader returns the codes of the loader and the base tree (the plain
// codes of this package), sorted by ID.
func Loader() []Code {
	return []Code{Parse, Schema, Unknown, Missing, Reference, Conflict, NotInSoC, BaseTree}
}

// The loader's codes, and the base tree's. The loader reports them while
// it reads, evaluates and lowers a description, before any check runs;
// BaseTree is reported when the base tree the checks compare with cannot
// be read. They are codes, not checks: nothing runs them.
var (
	// Parse is a file or package that cannot be read or parsed.
	Parse = Code{
		ID: "BC0001", Name: "parse", Severity: Error,
		Doc: "A file or package of the description could not be read or parsed: a syntax error, a " +
			"file without a package clause, two packages in one directory, an import that cannot be " +
			"found or made outside a CUE module (no cue.mod/module.cue above the board), a directory " +
			"with no .cue file, an unreadable file or a path that does not exist.",
	}
	// Schema is a value the schema does not accept.
	Schema = Code{
		ID: "BC0002", Name: "schema", Severity: Error,
		Doc: "A value violates the schema: a wrong type, a number out of range, a string that does not " +
			"match the pattern its field requires, or a value outside an enumeration. The notes name " +
			"the schema's constraint (boardc schema prints it).",
	}
	// Unknown is a field the schema does not define.
	Unknown = Code{
		ID: "BC0003", Name: "unknown-field", Severity: Error,
		Doc: "A field the schema does not define, often a misspelling: the diagnostic names the " +
			"schema's field nearest to it there, if one is near. The schema is closed so that a typo " +
			"cannot silently drop a fact.",
	}
	// Missing is a required field that is missing or not concrete.
	Missing = Code{
		ID: "BC0004", Name: "missing-field", Severity: Error,
		Doc: "A required field is missing, or its value is not concrete (a type or a constraint where " +
			"a value is needed). A package that gives soc and none of a board's own fields is an SoC's, " +
			"given where a board was expected: one error says so.",
	}
	// Reference is a reference to something the description does not
	// declare.
	Reference = Code{
		ID: "BC0005", Name: "undeclared-reference", Severity: Error,
		Doc: "A reference names something the description does not declare: a master's bus or a bus's " +
			"parent that is not a key of soc.buses, or a bus that is its own ancestor.",
	}
	// Conflict is one field given two different values.
	Conflict = Code{
		ID: "BC0006", Name: "conflict", Severity: Error,
		Doc: "One field is given two different values, usually one by the SoC package and one by the " +
			"board that imports it: CUE unifies the two, and they must agree. The diagnostic points at " +
			"one value and a note at the other; change the one that is wrong, or move the fact to the " +
			"board alone if boards differ.",
	}
	// NotInSoC is a board's master or bus that its SoC does not declare.
	NotInSoC = Code{
		ID: "BC0007", Name: "not-in-soc", Severity: Error,
		Doc: "A board adds facts to a master or bus key that its SoC does not declare, so the element " +
			"has no node, compatible or bus of its own: most often a misspelt key. The diagnostic " +
			"names the closest key the SoC declares.",
	}
	// BaseTree is a base tree that could not be built or read.
	BaseTree = Code{
		ID: "BC0600", Name: "base-tree", Severity: Error,
		Doc: "The base tree given with --dts-root (or BOARDC_DTS_ROOT) or --dtb could not be built or " +
			"read: the description's dts: is not in the kernel tree, cpp or dtc failed on it (their " +
			"first lines are quoted), or the .dtb is not a flattened device tree. Nothing is " +
			"checked against the tree then.",
	}
)
