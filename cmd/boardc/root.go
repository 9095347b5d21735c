package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
)

// Exit codes.
const (
	exitOK    = 0 // success
	exitDiags = 1 // the description has errors
	exitUsage = 2 // usage or internal error
	exitIO    = 3 // writing (or, for a drift check, reading) the outputs failed; a failed write leaves the previous outputs
)

// exitError carries an exit code out of a command.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// run executes the CLI with args and returns the process exit code.
func run(args []string) int {
	return runWith(args, os.Stdout, os.Stderr)
}

func runWith(args []string, stdout, stderr io.Writer) int {
	root := newRoot(stdout, stderr)
	root.SetArgs(args)
	err := root.Execute()
	var ee exitError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ee):
		return ee.code
	default:
		fmt.Fprintf(stderr, "boardc: %v\n", err)
		return exitUsage
	}
}

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "boardc",
		Short: "Compile board descriptions into device-tree fragments, kernel C and runtime tuning",
		Long: `boardc compiles a declarative board description, written in CUE and checked
against an embedded schema, into the files that otherwise drift apart:
a device-tree fragment, the DMA capabilities and a verifier module in
kernel C, a DPAA2 data-path layout and runtime tuning.

A BOARD argument is a directory holding the board's CUE package, or a
single .cue file.

boardc does not fetch the CUE modules a cue.mod/module.cue lists under
deps: importing one is an error, unless BOARDC_CUE_REGISTRY=1 lets CUE
fetch it (CUE_REGISTRY, CUE_CACHE_DIR and cue login then apply).

Exit status, the same for every command:
  0  success
  1  an input has errors: a description or tree that is missing, cannot be
     read or does not check, a pattern that finds no board; for diff and
     build --check an output differs; for explain nothing matches
  2  usage (a bad flag or argument, a file import would overwrite without
     --force) or an internal error
  3  I/O: writing the outputs failed (the previous outputs are left as they
     were) or, for diff and build --check, reading them`,
		Version:       currentVersion().Boardc,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetVersionTemplate(currentVersion().text())
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(newBuild(), newVet(), newDiff(), newList(), newExplain(), newReport(), newSchema(), newChecks(), newVersion(), newMigrate(), newImport(), newAudit())
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError(c, err)
	})
	return root
}

// ioError prints err, an I/O error writing outputs, and exits 3.
func ioError(c *cobra.Command, err error) error {
	fmt.Fprintf(c.ErrOrStderr(), "boardc %s: %v\n", c.Name(), err)
	return exitError{exitIO}
}

// usageError prints err with the command's usage line and exits 2.
func usageError(c *cobra.Command, err error) error {
	fmt.Fprintf(c.ErrOrStderr(), "boardc %s: %v\nRun '%s --help' for usage.\n", c.Name(), err, c.CommandPath())
	return exitError{exitUsage}
}
