package main

import (
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"boardc.dev/boardc/compiler/diag"
)

// writeGitHub writes l as GitHub Actions workflow commands, one line per
// diagnostic: ::error file=F,line=L,col=C,title=CODE::message. Notes
// follow the message on lines of their own.
func writeGitHub(w io.Writer, l diag.List) error {
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
			props = append(props, "file="+ghProperty(filepath.ToSlash(d.Pos.File)))
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
