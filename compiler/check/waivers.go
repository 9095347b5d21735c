package check

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// legacy maps the spellings of waiver targets that schema version 1 first
// documented ("masters.x", "buses.x", "cpus", "dpaa2", "policy.net.eth0")
// to the element's ref, among a board's refs (ir.Board.Refs).
// "policy.irqs" and "policy.sysctls" named a whole list and are not in
// it: a waiver silences one element.
func legacy(refs []ir.Ref) map[string]ir.Ref {
	m := map[string]ir.Ref{}
	for _, r := range refs {
		if old, ok := oldSpelling(r); ok {
			m[old] = r
		}
	}
	return m
}

// oldSpelling returns the schema version 1 spelling of ref, if it had
// one: without "soc." and with the key unquoted.
func oldSpelling(ref ir.Ref) (string, bool) {
	s := string(ref)
	if s == string(ir.RefCPUs) || s == string(ir.RefDPAA2) {
		return strings.TrimPrefix(s, "soc."), true
	}
	for _, list := range []string{"soc.buses.", "soc.masters.", "policy.net."} {
		if key, ok := strings.CutPrefix(s, list); ok {
			if k, err := strconv.Unquote(key); err == nil {
				key = k
			}
			return strings.TrimPrefix(list, "soc.") + key, true
		}
	}
	return "", false
}

// resolveWaivers sets each waiver's Target and reports the waivers whose
// target is spelled the old way (a warning saying what to write) or names
// no element (an error naming the closest refs).
func resolveWaivers(b *ir.Board) diag.List {
	if len(b.Waivers) == 0 {
		return nil
	}
	refs := b.Refs()
	sort.Slice(refs, func(i, j int) bool { return refs[i] < refs[j] })
	known := make(map[ir.Ref]bool, len(refs))
	for _, r := range refs {
		known[r] = true
	}
	old := legacy(refs)
	var out diag.List
	for i := range b.Waivers {
		w := &b.Waivers[i]
		w.Target = ""
		switch r, isOld := old[w.On]; {
		case known[ir.Ref(w.On)]:
			w.Target = ir.Ref(w.On)
		case isOld && known[r]:
			w.Target = r
			out = append(out, diag.Diagnostic{
				Pos: w.OnPos, Severity: diag.Warning, Code: WaiverTarget.ID, Ref: ir.WaiverRef(i),
				Message: fmt.Sprintf("waiver target %q is the old spelling of %s: write on: %q", w.On, r, string(r)),
			})
		default:
			out = append(out, diag.Diagnostic{
				Pos: w.OnPos, Severity: diag.Error, Code: WaiverTarget.ID, Ref: ir.WaiverRef(i),
				Message: fmt.Sprintf("waiver target %q names no element of the description", w.On),
				Notes:   []diag.Note{{Message: targetHint(w.On, refs)}},
			})
		}
	}
	return out
}

// targetHint says what a waiver naming nothing could have meant: the
// elements below it when it names a list or a struct, or the forms.
func targetHint(on string, refs []ir.Ref) string {
	var below []string
	for _, r := range refs {
		if ir.Ref(on).Contains(r) || ir.Ref("soc."+on).Contains(r) {
			below = append(below, string(r))
		}
	}
	switch {
	case len(below) > 0 && len(below) <= 6:
		return "a waiver silences one element; name one of: " + strings.Join(below, ", ")
	case len(below) > 0:
		return fmt.Sprintf("a waiver silences one element; name one of the %d below it, e.g. %s", len(below), below[0])
	}
	return "name an element by its path: soc.masters.KEY, soc.buses.KEY, soc.cpus, soc.cpus.clusters[N], " +
		"soc.dpaa2, soc.dpaa2.dpios[N], memory[N], policy.irqs[N], policy.net.IF, policy.sysctls.\"KEY\", " +
		"policy.isolatedCPUs, policy.irqbalanceBan"
}

// applyWaivers drops the findings a waiver silences: one check on exactly
// the element it names. A waiver without a reason is an error; one that
// silences nothing is a warning.
//
// On a partial board (missing not empty), what is wrong with a waiver
// that lacks a fact, or whose target does, is not reported (the loader
// reported what it lacks), and a waiver of a check that did not run is
// not unused.
func applyWaivers(b *ir.Board, ran []*Check, missing []ir.Ref, found []finding) diag.List {
	var out diag.List
	for _, d := range resolveWaivers(b) {
		if !touches(missing, d.Ref) && !touches(missing, ir.Ref(b.Waivers[waiverIndex(d.Ref)].On)) {
			out = append(out, d)
		}
	}
	didRun := map[string]bool{}
	for _, c := range ran {
		didRun[c.ID], didRun[c.Name] = true, true
	}
	used := make([]bool, len(b.Waivers))
	for _, f := range found {
		waived := false
		for i, w := range b.Waivers {
			if silences(w, touches(missing, ir.WaiverRef(i)), f.d) {
				used[i], waived = true, true
			}
		}
		if !waived {
			out = append(out, f.d)
		}
	}
	for i, w := range b.Waivers {
		ref := ir.WaiverRef(i)
		if touches(missing, ref) || touches(missing, w.Target) {
			continue
		}
		switch {
		case w.Reason == "":
			out = append(out, diag.Diagnostic{
				Pos: w.Pos, Severity: diag.Error, Code: WaiverReason.ID, Ref: ref,
				Message: fmt.Sprintf("waiver of %s on %s has no reason", w.Check, w.On),
				Notes:   []diag.Note{{Message: "a waiver must say why the finding does not apply to this element"}},
			})
		case !known(w.Check):
			out = append(out, diag.Diagnostic{
				Pos: w.Pos, Severity: diag.Error, Code: WaiverUnused.ID, Ref: ref,
				Message: fmt.Sprintf("waiver names unknown check %s", w.Check),
				Notes:   []diag.Note{{Message: "boardc checks lists the codes"}},
			})
		case w.Target != "" && !used[i] && couldUse(w.Check, didRun):
			// A waiver of a check that did not run (a base-tree check
			// without a base tree, a check skipped on a partial
			// board) cannot be used.
			out = append(out, diag.Diagnostic{
				Pos: w.Pos, Severity: diag.Warning, Code: WaiverUnused.ID, Ref: ref,
				Message: fmt.Sprintf("waiver of %s on %s silences nothing", w.Check, w.On),
			})
		}
	}
	return out
}

// silences reports whether the waiver w silences the finding d. A waiver
// that lacks a field or whose field is wrong (incomplete: the loader
// reported which) silences the findings of the check it names on the
// element it names, whichever of the two can be read (every finding when
// neither can: a value of the wrong type leaves the whole waiver
// unreadable), so that a partial board reports no finding the whole one
// would not: it fails on the waiver's own error anyway.
func silences(w ir.Waiver, incomplete bool, d diag.Diagnostic) bool {
	if incomplete {
		return (w.Check == "" || w.Check == d.Code) &&
			(w.On == "" || w.Target != "" && w.Target == d.Ref)
	}
	return w.Check == d.Code && w.Target != "" && w.Target == d.Ref && w.Reason != ""
}

// touches reports whether r is an element that lacks a fact, below one,
// or above one.
func touches(missing []ir.Ref, r ir.Ref) bool {
	if r == "" {
		return false
	}
	for _, m := range missing {
		if r.Contains(m) || m.Contains(r) {
			return true
		}
	}
	return false
}

// waiverIndex returns i of the ref waivers[i].
func waiverIndex(r ir.Ref) int {
	s := strings.TrimSuffix(strings.TrimPrefix(string(r), "waivers["), "]")
	i, _ := strconv.Atoi(s)
	return i
}

// WaiverReason is the code of waivers without a written reason.
var WaiverReason = diag.Code{
	ID: "BC0010", Name: "waiver-reason", Severity: diag.Error,
	Doc: "A waiver silences one check on one element of the description and must say why, in its " +
		"reason field. A waiver without a reason is an error: an unexplained silence is how a " +
		"missing dma-coherent or a wrong DMA mask survives review.",
}

// WaiverUnused is the code of waivers that silence nothing.
var WaiverUnused = diag.Code{
	ID: "BC0011", Name: "waiver-unused", Severity: diag.Warning,
	Doc: "A waiver that silences no finding, or names a check that does not exist, is reported so " +
		"that stale waivers are removed once the description is fixed.",
}

// WaiverTarget is the code of what a waiver names.
var WaiverTarget = diag.Code{
	ID: "BC0012", Name: "waiver-target", Severity: diag.Error,
	Doc: "A waiver names the one element it silences by its path in the description, the spelling " +
		"diagnostics print: soc.masters.KEY, soc.buses.KEY, soc.cpus.clusters[N], soc.dpaa2.dpios[N], " +
		"policy.irqs[N], policy.net.IF, policy.sysctls.\"KEY\" and the like. A target that names no " +
		"element is an error, with the elements it could have meant: \"policy.irqs\" once silenced " +
		"every pinned IRQ, and now must name one. The first spellings of schema version 1 " +
		"(masters.KEY, buses.KEY, cpus, dpaa2, policy.net.IF) still work, with a warning saying what " +
		"to write instead.",
}

// known reports whether a waiver's check names a code (Lookup).
func known(idOrName string) bool {
	_, ok := Lookup(idOrName)
	return ok
}

// couldUse reports whether a waiver of the code idOrName could have
// silenced a finding: the check it names ran (ran holds their IDs and
// names), or it names a code no check reports.
func couldUse(idOrName string, ran map[string]bool) bool {
	for _, c := range All() {
		if c.ID == idOrName || c.Name == idOrName {
			return ran[idOrName]
		}
	}
	return true
}
