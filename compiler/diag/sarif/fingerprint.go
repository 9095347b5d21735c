package sarif

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strconv"
)

// FingerprintKey is the partialFingerprints key of a result. Its value
// is the first 16 bytes, in hex, of the SHA-256 of the result's rule,
// the URI of its file (relative to the source root), the description
// element it is about and its message with every file's line and column
// numbers left out (file.cue:12:3 and file.c:509 read file.cue and
// file.c), then a colon and the occurrence of that hash in the log, 1
// for the first. Lines added or removed above a finding, and a run from
// another directory, leave it as it was; a changed message or a moved
// element do not. The suffix tells apart findings that differ only in
// their line, as GitHub's primaryLocationLineHash does.
const FingerprintKey = "boardcFinding/v1"

// filePositionRE matches a file name followed by :line or :line:col.
var filePositionRE = regexp.MustCompile(`([\w.-]+\.[A-Za-z]+):\d+(?::\d+)?`)

// fingerprint sets the partial fingerprint of every result.
func fingerprint(rs []Result) {
	seen := map[string]int{}
	for i := range rs {
		r := &rs[i]
		uri, ref := "", ""
		if len(r.Locations) > 0 {
			l := r.Locations[0]
			if l.PhysicalLocation != nil {
				uri = l.PhysicalLocation.ArtifactLocation.URI
			}
			if len(l.LogicalLocations) > 0 {
				ref = l.LogicalLocations[0].FullyQualifiedName
			}
		}
		h := sha256.New()
		for _, s := range []string{r.RuleID, uri, ref, filePositionRE.ReplaceAllString(r.Message.Text, "$1")} {
			h.Write([]byte(s))
			h.Write([]byte{0})
		}
		sum := hex.EncodeToString(h.Sum(nil)[:16])
		seen[sum]++
		r.PartialFingerprints = map[string]string{FingerprintKey: sum + ":" + strconv.Itoa(seen[sum])}
	}
}
