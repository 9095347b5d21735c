package main

// The SARIF 2.1.0 objects boardc writes, as JSON. Only the properties
// boardc sets vary; the others are written with the values the SARIF
// 2.1.0 schema gives as defaults (-1 for an index or rank, an empty
// array, "en-US"), in the order and with the spelling of the logs boardc
// has always written, so that a consumer that compared them sees the
// same bytes. Fields are in the order the properties are printed.

// none is an array property boardc never fills: it prints as [].
type none [0]struct{}

// sarifLog is a SARIF log file (sarifLog in the schema).
type sarifLog struct {
	Schema     string     `json:"$schema"`
	Version    string     `json:"version"`
	Runs       []sarifRun `json:"runs"`
	Properties struct{}   `json:"properties"`
}

// sarifRun is one run of one tool.
type sarifRun struct {
	Addresses                none          `json:"addresses"`
	Graphs                   none          `json:"graphs"`
	Invocations              none          `json:"invocations"`
	Language                 string        `json:"language"`
	LogicalLocations         none          `json:"logicalLocations"`
	NewlineSequences         []string      `json:"newlineSequences"`
	Policies                 none          `json:"policies"`
	RedactionTokens          none          `json:"redactionTokens"`
	Results                  []sarifResult `json:"results"`
	RunAggregates            none          `json:"runAggregates"`
	Taxonomies               none          `json:"taxonomies"`
	ThreadFlowLocations      none          `json:"threadFlowLocations"`
	Tool                     sarifTool     `json:"tool"`
	Translations             none          `json:"translations"`
	VersionControlProvenance none          `json:"versionControlProvenance"`
	WebRequests              none          `json:"webRequests"`
	WebResponses             none          `json:"webResponses"`
}

// newSARIFRun returns a run of boardc with no rules and no results.
func newSARIFRun() sarifRun {
	return sarifRun{
		Language:         "en-US",
		NewlineSequences: []string{"\r\n", "\n"},
		Results:          []sarifResult{},
		Tool: sarifTool{Driver: sarifToolComponent{
			Contents: []string{"localizedData", "nonLocalizedData"},
			Language: "en-US",
			Name:     "boardc",
			Rules:    []sarifRule{},
		}},
	}
}

// sarifTool is the tool of a run: its driver, boardc.
type sarifTool struct {
	Driver     sarifToolComponent `json:"driver"`
	Extensions none               `json:"extensions"`
}

// sarifToolComponent is the driver, with its rules.
type sarifToolComponent struct {
	Contents            []string    `json:"contents"`
	IsComprehensive     bool        `json:"isComprehensive"`
	Language            string      `json:"language"`
	Locations           none        `json:"locations"`
	Name                string      `json:"name"`
	Notifications       none        `json:"notifications"`
	Rules               []sarifRule `json:"rules"`
	SupportedTaxonomies none        `json:"supportedTaxonomies"`
	Taxa                none        `json:"taxa"`
}

// sarifRule is a rule (reportingDescriptor in the schema): one code.
type sarifRule struct {
	DefaultConfiguration sarifConfiguration `json:"defaultConfiguration"`
	FullDescription      *sarifText         `json:"fullDescription,omitempty"`
	ID                   string             `json:"id"`
	Name                 string             `json:"name,omitempty"`
	Relationships        none               `json:"relationships"`
	ShortDescription     *sarifText         `json:"shortDescription,omitempty"`
}

// newSARIFRule returns the rule of r: its level, and its name and doc
// where it has them.
func newSARIFRule(r rule) sarifRule {
	out := sarifRule{
		DefaultConfiguration: sarifConfiguration{Enabled: true, Level: sarifLevel(r.severity), Rank: -1},
		ID:                   r.code,
	}
	if r.name != "" {
		out.Name = r.name
		out.ShortDescription = &sarifText{Text: r.name}
	}
	if r.doc != "" {
		out.FullDescription = &sarifText{Text: r.doc}
	}
	return out
}

// sarifConfiguration is a rule's default configuration
// (reportingConfiguration in the schema).
type sarifConfiguration struct {
	Enabled bool   `json:"enabled"`
	Level   string `json:"level"`
	Rank    int    `json:"rank"`
}

// sarifText is a plain-text message string (multiformatMessageString).
type sarifText struct {
	Text string `json:"text"`
}

// sarifMessage is a result's or a location's message.
type sarifMessage struct {
	Arguments none   `json:"arguments"`
	Text      string `json:"text"`
}

// sarifResult is one diagnostic.
type sarifResult struct {
	Attachments      none            `json:"attachments"`
	CodeFlows        none            `json:"codeFlows"`
	Fixes            none            `json:"fixes"`
	GraphTraversals  none            `json:"graphTraversals"`
	Graphs           none            `json:"graphs"`
	Kind             string          `json:"kind"`
	Level            string          `json:"level"`
	Locations        []sarifLocation `json:"locations"`
	Message          sarifMessage    `json:"message"`
	Rank             int             `json:"rank"`
	RelatedLocations []sarifLocation `json:"relatedLocations"`
	RuleID           string          `json:"ruleId"`
	RuleIndex        int             `json:"ruleIndex"`
	Stacks           none            `json:"stacks"`
	Taxa             none            `json:"taxa"`
}

// sarifLocation is a result's location, or a related one (with an ID
// and a message).
type sarifLocation struct {
	Annotations      none                   `json:"annotations"`
	ID               int                    `json:"id"`
	LogicalLocations []sarifLogicalLocation `json:"logicalLocations"`
	Message          *sarifMessage          `json:"message,omitempty"`
	PhysicalLocation sarifPhysicalLocation  `json:"physicalLocation"`
	Relationships    none                   `json:"relationships"`
}

// sarifLogicalLocation names the description element of a result.
type sarifLogicalLocation struct {
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Index              int    `json:"index"`
	ParentIndex        int    `json:"parentIndex"`
}

// sarifPhysicalLocation is a file and, where known, a region of it.
type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

// sarifArtifactLocation is a file, as a URI.
type sarifArtifactLocation struct {
	Index int    `json:"index"`
	URI   string `json:"uri"`
}

// sarifRegion is a line, and a column where known.
type sarifRegion struct {
	ByteOffset  int `json:"byteOffset"`
	CharOffset  int `json:"charOffset"`
	StartColumn int `json:"startColumn,omitempty"`
	StartLine   int `json:"startLine"`
}
