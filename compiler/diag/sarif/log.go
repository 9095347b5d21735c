package sarif

// The SARIF 2.1.0 objects a log holds, as JSON: only the properties
// boardc sets, each left out where it has nothing to say (the schema's
// defaults apply then). Names follow the schema's definitions.

// Log is a SARIF log file (sarifLog).
type Log struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []Run  `json:"runs"`
}

// Run is one run of one tool (run).
type Run struct {
	Tool Tool `json:"tool"`
	// OriginalURIBaseIDs says where %SRCROOT% was on the machine that
	// wrote the log.
	OriginalURIBaseIDs map[string]ArtifactLocation `json:"originalUriBaseIds,omitempty"`
	// ColumnKind is "utf16CodeUnits" when the sources were read to
	// count columns so; left out otherwise, the columns are then the
	// byte columns the diagnostics carry (the same on ASCII lines).
	ColumnKind string     `json:"columnKind,omitempty"`
	Results    []Result   `json:"results"`
	Properties Properties `json:"properties"`
}

// Properties is the run's property bag: how many diagnostics the run
// found of each severity, whether the log lists them or not.
type Properties struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Infos    int `json:"infos"`
	// HiddenInfos is how many of the infos are not listed as results
	// (the text output hides them too; -v shows them).
	HiddenInfos int `json:"hiddenInfos"`
}

// Tool is the tool of a run (tool).
type Tool struct {
	Driver ToolComponent `json:"driver"`
}

// ToolComponent is the driver, with its rules (toolComponent).
type ToolComponent struct {
	Name           string `json:"name"`
	Version        string `json:"version,omitempty"`
	InformationURI string `json:"informationUri,omitempty"`
	Rules          []Rule `json:"rules"`
}

// Rule is one diagnostic code (reportingDescriptor).
type Rule struct {
	ID                   string         `json:"id"`
	Name                 string         `json:"name,omitempty"`
	ShortDescription     *Text          `json:"shortDescription,omitempty"`
	FullDescription      *Text          `json:"fullDescription,omitempty"`
	Help                 *Text          `json:"help,omitempty"`
	HelpURI              string         `json:"helpUri,omitempty"`
	DefaultConfiguration *Configuration `json:"defaultConfiguration,omitempty"`
}

// Configuration is a rule's default configuration
// (reportingConfiguration).
type Configuration struct {
	Level string `json:"level"`
}

// Text is a message string, in plain text and, where given, Markdown
// (multiformatMessageString).
type Text struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

// Message is a result's or a location's message (message).
type Message struct {
	Text string `json:"text"`
}

// Result is one diagnostic (result).
type Result struct {
	RuleID           string     `json:"ruleId"`
	RuleIndex        int        `json:"ruleIndex"`
	Level            string     `json:"level"`
	Message          Message    `json:"message"`
	Locations        []Location `json:"locations,omitempty"`
	RelatedLocations []Location `json:"relatedLocations,omitempty"`
	// PartialFingerprints holds FingerprintKey: see fingerprint.
	PartialFingerprints map[string]string `json:"partialFingerprints,omitempty"`
}

// Location is a result's location, or a related one with a message
// (location).
type Location struct {
	PhysicalLocation *PhysicalLocation `json:"physicalLocation,omitempty"`
	LogicalLocations []LogicalLocation `json:"logicalLocations,omitempty"`
	Message          *Message          `json:"message,omitempty"`
}

// LogicalLocation names the description element a result is about, as
// a waiver names it (logicalLocation).
type LogicalLocation struct {
	FullyQualifiedName string `json:"fullyQualifiedName"`
}

// PhysicalLocation is a file and, where known, a region of it
// (physicalLocation).
type PhysicalLocation struct {
	ArtifactLocation ArtifactLocation `json:"artifactLocation"`
	Region           *Region          `json:"region,omitempty"`
}

// ArtifactLocation is a file: a URI relative to the base URIBaseID
// names, or an absolute file URI (artifactLocation).
type ArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

// Region is a line and, where known, the columns of the text a
// diagnostic is about; EndColumn is one past its last character
// (region).
type Region struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}
