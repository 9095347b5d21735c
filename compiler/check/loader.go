package check

import "boardc.dev/boardc/compiler/diag"

// The loader's codes. The loader reports them while it reads, evaluates
// and lowers a description, before any check runs; they are registered
// here so that every code a diagnostic can carry is explained by
// boardc checks and listed as a SARIF rule. Their Run does nothing.
var (
	// Parse is a file or package that cannot be read or parsed.
	Parse = &Check{
		Code: "BC0001", Name: "parse", Severity: diag.Error,
		Doc: "A file or package of the description could not be read or parsed: a syntax error, a " +
			"file without a package clause, two packages in one directory, an import that cannot be " +
			"found, an unreadable file or a path that does not exist.",
		Run: func(*Pass) {},
	}
	// Schema is a value the schema does not accept.
	Schema = &Check{
		Code: "BC0002", Name: "schema", Severity: diag.Error,
		Doc: "A value violates the schema: a wrong type, a number out of range, a string that does not " +
			"match the pattern its field requires, or a value outside an enumeration. The notes name " +
			"the schema's constraint (boardc schema prints it).",
		Run: func(*Pass) {},
	}
	// Unknown is a field the schema does not define.
	Unknown = &Check{
		Code: "BC0003", Name: "unknown-field", Severity: diag.Error,
		Doc: "A field the schema does not define, often a misspelling; the schema is closed so that a " +
			"typo cannot silently drop a fact.",
		Run: func(*Pass) {},
	}
	// Missing is a required field that is missing or not concrete.
	Missing = &Check{
		Code: "BC0004", Name: "missing-field", Severity: diag.Error,
		Doc: "A required field is missing, or its value is not concrete (a type or a constraint where " +
			"a value is needed).",
		Run: func(*Pass) {},
	}
	// Reference is a reference to something the description does not
	// declare.
	Reference = &Check{
		Code: "BC0005", Name: "undeclared-reference", Severity: diag.Error,
		Doc: "A reference names something the description does not declare: a master's bus or a bus's " +
			"parent that is not a key of soc.buses, or a bus that is its own ancestor.",
		Run: func(*Pass) {},
	}
	// Conflict is one field given two different values.
	Conflict = &Check{
		Code: "BC0006", Name: "conflict", Severity: diag.Error,
		Doc: "One field is given two different values, usually one by the SoC package and one by the " +
			"board that imports it: CUE unifies the two, and they must agree. The diagnostic points at " +
			"one value and a note at the other; change the one that is wrong, or move the fact to the " +
			"board alone if boards differ.",
		Run: func(*Pass) {},
	}
	// NotInSoC is a board's master or bus that its SoC does not declare.
	NotInSoC = &Check{
		Code: "BC0007", Name: "not-in-soc", Severity: diag.Error,
		Doc: "A board adds facts to a master or bus key that its SoC does not declare, so the element " +
			"has no node, compatible or bus of its own: most often a misspelt key. The diagnostic " +
			"names the closest key the SoC declares.",
		Run: func(*Pass) {},
	}
	// BaseTree is a base tree that could not be built or read.
	BaseTree = &Check{
		Code: "BC0600", Name: "base-tree", Severity: diag.Error,
		Doc: "The base tree given with --dts-root (or BOARDC_DTS_ROOT) or --dtb could not be built or " +
			"read: the description's dts: is not in the kernel tree, cpp or dtc failed on it (their " +
			"first lines are quoted), or the .dtb is not a flattened device tree. Nothing is " +
			"checked against the tree then.",
		Run: func(*Pass) {},
	}
)
