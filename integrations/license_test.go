package integrations

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestLicenseFile checks that LICENSE is the Apache License 2.0, whole:
// the terms, their end and the appendix on how to apply them.
func TestLicenseFile(t *testing.T) {
	text := readFile(t, filepath.Join(root, "LICENSE"))
	for _, s := range []string{
		"Apache License\n                           Version 2.0, January 2004\n",
		"TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION",
		"9. Accepting Warranty or Additional Liability.",
		"END OF TERMS AND CONDITIONS",
		"APPENDIX: How to apply the Apache License to your work.",
		`http://www.apache.org/licenses/LICENSE-2.0`,
	} {
		if !strings.Contains(text, s) {
			t.Errorf("LICENSE lacks %q", s)
		}
	}
}

// TestLicenseChecksums checks every checksum of LICENSE the recipes and
// packages carry against the file: Yocto's LIC_FILES_CHKSUM (md5) and
// the sha256 in the Buildroot package's .hash, which legal-info checks.
func TestLicenseChecksums(t *testing.T) {
	lic := []byte(readFile(t, filepath.Join(root, "LICENSE")))
	md5sum, shasum := md5Hex(lic), sha256Hex(lic)

	recipe := filepath.Join("meta-boardc", "recipes-devtools", "boardc", "boardc_0.1.0.bb")
	m := regexp.MustCompile(`(?m)^LIC_FILES_CHKSUM = "file://src/\$\{GO_IMPORT\}/LICENSE;md5=([0-9a-f]{32})"$`).
		FindStringSubmatch(readFile(t, recipe))
	if m == nil {
		t.Errorf("%s: no LIC_FILES_CHKSUM for the LICENSE file", recipe)
	} else if m[1] != md5sum {
		t.Errorf("%s: LICENSE md5 %s, the file's is %s", recipe, m[1], md5sum)
	}
	if !regexp.MustCompile(`(?m)^LICENSE = "Apache-2.0"$`).MatchString(readFile(t, recipe)) {
		t.Errorf(`%s: want LICENSE = "Apache-2.0"`, recipe)
	}

	mk := filepath.Join("buildroot", "package", "boardc", "boardc.mk")
	for _, want := range []string{"BOARDC_LICENSE = Apache-2.0\n", "BOARDC_LICENSE_FILES = LICENSE\n"} {
		if !strings.Contains(readFile(t, mk), want) {
			t.Errorf("%s lacks %q", mk, want)
		}
	}
	hash := filepath.Join("buildroot", "package", "boardc", "boardc.hash")
	found := false
	for _, l := range strings.Split(readFile(t, hash), "\n") {
		f := strings.Fields(l)
		if len(f) == 3 && f[0] == "sha256" && f[2] == "LICENSE" {
			found = true
			if f[1] != shasum {
				t.Errorf("%s: LICENSE sha256 %s, the file's is %s", hash, f[1], shasum)
			}
		}
	}
	if !found {
		t.Errorf("%s: no sha256 for LICENSE", hash)
	}
}
