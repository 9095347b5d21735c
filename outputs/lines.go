package outputs

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"boardc.dev/boardc/compiler/ir"
)

// Lines is the origin shared by some lines of a file: one entry of
// manifest.json's map of a file. Its JSON is the manifest's
// {"at": "27-28,30", "refs": [...], "pos": ["src:line", ...]}.
type Lines struct {
	// Runs are the lines, numbered from 1, in order.
	Runs Runs
	// Refs are the description elements the lines are made from, as
	// diagnostics and waivers name them (soc.masters.crypto).
	Refs []ir.Ref
	// Pos are the positions of the facts behind the lines, as src:line
	// (ir.Pos.Short); the device-tree outputs' comments name the elements
	// instead (outputs.Cite), so that only the manifest moves when the
	// lines of the description do.
	Pos []SrcLine
}

// linesJSON is the JSON form of Lines.
type linesJSON struct {
	At   Runs      `json:"at"`
	Refs []ir.Ref  `json:"refs,omitempty"`
	Pos  []SrcLine `json:"pos,omitempty"`
}

// MarshalJSON writes l as the manifest does: compact, "at" first, refs
// and positions left out when there are none, HTML characters unescaped.
func (l Lines) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	l.encode(&b)
	return b.Bytes(), nil
}

// encode writes l as compact JSON, as MarshalJSON returns it.
func (l Lines) encode(b *bytes.Buffer) {
	b.WriteString(`{"at":`)
	writeJSONString(b, l.Runs.String())
	if len(l.Refs) > 0 {
		b.WriteString(`,"refs":[`)
		for i, r := range l.Refs {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONString(b, string(r))
		}
		b.WriteByte(']')
	}
	if len(l.Pos) > 0 {
		b.WriteString(`,"pos":[`)
		for i, p := range l.Pos {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONString(b, p.String())
		}
		b.WriteByte(']')
	}
	b.WriteByte('}')
}

// UnmarshalJSON reads l from the manifest's form of it.
func (l *Lines) UnmarshalJSON(data []byte) error {
	var j linesJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return err
	}
	*l = Lines{Runs: j.At, Refs: j.Refs, Pos: j.Pos}
	return nil
}

// Run is the lines First to Last of a file (numbered from 1, inclusive).
type Run struct{ First, Last int }

// Runs are runs of lines in order, each after the one before and not
// touching it. They print, and their JSON is, "27-28,30,34".
type Runs []Run

// add appends the lines first to last, which come after every line of
// s, joining them to the last run where they continue it.
func (s *Runs) add(first, last int) {
	if n := len(*s); n > 0 && (*s)[n-1].Last == first-1 {
		(*s)[n-1].Last = last
		return
	}
	*s = append(*s, Run{first, last})
}

// Contains reports whether line n is in one of the runs.
func (s Runs) Contains(n int) bool {
	for _, r := range s {
		if r.First <= n && n <= r.Last {
			return true
		}
	}
	return false
}

// String formats the runs as "27-28,30,34".
func (s Runs) String() string {
	var b []byte
	for i, r := range s {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(r.First), 10)
		if r.Last != r.First {
			b = append(b, '-')
			b = strconv.AppendInt(b, int64(r.Last), 10)
		}
	}
	return string(b)
}

// MarshalText returns the runs as String formats them.
func (s Runs) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads runs as String formats them: each from 1, and
// after the one before.
func (s *Runs) UnmarshalText(text []byte) error {
	r, err := ParseRuns(string(text))
	if err != nil {
		return err
	}
	*s = r
	return nil
}

// ParseRuns parses runs as Runs.String formats them.
func ParseRuns(text string) (Runs, error) {
	if text == "" {
		return nil, nil
	}
	var out Runs
	for _, run := range strings.Split(text, ",") {
		a, b, isRange := strings.Cut(run, "-")
		first, err := strconv.Atoi(a)
		if err != nil {
			return nil, errors.New("bad line runs " + strconv.Quote(text))
		}
		last := first
		if isRange {
			if last, err = strconv.Atoi(b); err != nil || last <= first {
				return nil, errors.New("bad line runs " + strconv.Quote(text))
			}
		}
		if first < 1 || len(out) > 0 && first <= out[len(out)-1].Last {
			return nil, errors.New("bad line runs " + strconv.Quote(text))
		}
		out = append(out, Run{first, last})
	}
	return out, nil
}

// SrcLine is a position as provenance gives it: a file relative to the
// description's CUE module root (ir.Pos.Src) and a line. It prints, and
// its JSON is, "src:line".
type SrcLine struct {
	Src  string
	Line int
}

// SrcLineOf returns the position p prints as (ir.Pos.Short): its Src, or
// its File when it has no Src, and its line.
func SrcLineOf(p ir.Pos) SrcLine {
	if p.Src == "" {
		return SrcLine{p.File, p.Line}
	}
	return SrcLine{p.Src, p.Line}
}

// String formats p as src:line.
func (p SrcLine) String() string { return p.Src + ":" + strconv.Itoa(p.Line) }

// MarshalText returns p as String formats it.
func (p SrcLine) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads p as String formats it.
func (p *SrcLine) UnmarshalText(text []byte) error {
	s := string(text)
	i := strings.LastIndexByte(s, ':')
	if i <= 0 {
		return errors.New("bad position " + strconv.Quote(s) + ": want src:line")
	}
	n, err := strconv.Atoi(s[i+1:])
	if err != nil || n < 0 {
		return errors.New("bad position " + strconv.Quote(s) + ": want src:line")
	}
	*p = SrcLine{s[:i], n}
	return nil
}
