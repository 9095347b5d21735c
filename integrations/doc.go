// Package integrations holds no code: its tests check the build-system
// integrations in this directory (the Buildroot br2-external tree, the
// Yocto layer) against the real tools where they are available, and
// against the repository (licence checksums, Go module pins) always.
package integrations
