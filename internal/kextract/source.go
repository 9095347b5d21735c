package kextract

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"boardc.dev/boardc/compiler/kernel"
)

// Provenance returns the Source of a catalogue read from a Debian source
// archive (/usr/src/linux-source-6.12.tar.xz): its name, its sha256, and
// the package and version dpkg-query gives for linux-source-SERIES, ""
// when the package is not installed.
func Provenance(tarball string) (kernel.Source, error) {
	f, err := os.Open(tarball)
	if err != nil {
		return kernel.Source{}, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return kernel.Source{}, fmt.Errorf("%s: %v", tarball, err)
	}
	base := filepath.Base(tarball)
	src := kernel.Source{Tarball: base, SHA256: hex.EncodeToString(h.Sum(nil)), Extractor: Version}
	pkg, _, _ := strings.Cut(base, ".tar")
	if out, err := exec.Command("dpkg-query", "-W", "-f", "${Package} ${Version}", pkg).Output(); err == nil {
		src.Package = strings.TrimSpace(string(out))
	}
	return src, nil
}

// Unpack extracts the Makefile, drivers/ and sound/ of a kernel source
// archive whose sha256 is sum into cache (once: a tree already there is
// reused) and returns the tree's directory.
func Unpack(tarball, sum, cache string) (string, error) {
	top, _, _ := strings.Cut(filepath.Base(tarball), ".tar")
	if len(sum) < 16 {
		return "", fmt.Errorf("unpacking %s: no sha256", tarball)
	}
	dir := filepath.Join(cache, top+"-"+sum[:16])
	if _, err := os.Stat(filepath.Join(dir, ".complete")); err == nil {
		return dir, nil
	}
	tmp := dir + ".tmp"
	if err := os.RemoveAll(tmp); err != nil {
		return "", err
	}
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return "", err
	}
	cmd := exec.Command("tar", "-xJf", tarball, "-C", tmp, "--strip-components=1",
		top+"/Makefile", top+"/drivers", top+"/sound")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("unpacking %s: %v: %s", tarball, err, strings.TrimSpace(string(out)))
	}
	if err := os.WriteFile(filepath.Join(tmp, ".complete"), nil, 0o644); err != nil {
		return "", err
	}
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	return dir, os.Rename(tmp, dir)
}

// CacheDir is where Unpack keeps kernel trees by default:
// $BOARDC_KSRC_CACHE, else the user's cache directory's boardc/ksrc.
func CacheDir() (string, error) {
	if d := os.Getenv("BOARDC_KSRC_CACHE"); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "boardc", "ksrc"), nil
}
