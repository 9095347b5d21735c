package main

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/diag/sarif"
)

// writeGitHub writes l as GitHub Actions workflow commands, one line per
// diagnostic: ::error file=F,line=L,col=C,title=CODE::message, F
// relative to root where the file is below it (GitHub resolves it from
// the repository's root). Notes follow the message on lines of their own.
func writeGitHub(w io.Writer, l diag.List, root string) error {
	wd, _ := os.Getwd()
	var b strings.Builder
	for _, d := range l {
		cmd := "notice"
		switch d.Severity {
		case diag.Error:
			cmd = "error"
		case diag.Warning:
			cmd = "warning"
		}
		var props []string
		if d.Pos.IsValid() {
			file := d.Pos.File
			if rel, ok := sarif.RootRelative(root, wd, file); ok {
				file = rel
			}
			props = append(props, "file="+ghProperty(filepath.ToSlash(file)))
			if d.Pos.Line > 0 {
				props = append(props, "line="+strconv.Itoa(d.Pos.Line), "col="+strconv.Itoa(d.Pos.Col))
			}
		}
		props = append(props, "title="+ghProperty(d.Code))
		msg := d.Message
		for _, n := range d.Notes {
			msg += "\nnote: "
			if n.Pos.IsValid() {
				msg += n.Pos.String() + ": "
			}
			msg += n.Message
		}
		b.WriteString("::" + cmd + " " + strings.Join(props, ",") + "::" + ghData(msg) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// ghData escapes a workflow command's message.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProperty escapes a workflow command's property value.
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
