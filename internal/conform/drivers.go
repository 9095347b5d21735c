package conform

import (
	"fmt"
	"sort"

	"boardc.dev/boardc/compiler/kernel"
)

// DriverCount is how the driver-facts catalogue of one kernel series
// covers the masters of a run's drafts.
type DriverCount struct {
	// Masters is how many masters the drafts have, every board's
	// counted (a master on two boards twice).
	Masters int `json:"masters"`
	// Matched is how many of them a driver of the catalogue binds (by
	// their compatibles, as kernel.Catalog.Lookup matches), Known how
	// many of those have a known DMA behaviour (kernel.DMAKind.Known).
	Matched int `json:"matched"`
	Known   int `json:"known"`
}

// Share returns Known as a percentage of Masters.
func (c DriverCount) Share() float64 {
	if c.Masters == 0 {
		return 0
	}
	return 100 * float64(c.Known) / float64(c.Masters)
}

// Coverage is DriverCount with the masters it does not cover.
type Coverage struct {
	DriverCount
	// Unmatched counts the masters no driver binds, by their most
	// specific compatible ("(none)" for a node without one); Unknown the
	// masters whose driver's DMA behaviour is unknown, by the compatible
	// it binds, its driver and the catalogue's reason.
	Unmatched, Unknown map[string]int
}

// CoverageOf returns how catalogue c covers the masters of results.
func CoverageOf(results []Result, c *kernel.Catalog) Coverage {
	cv := Coverage{Unmatched: map[string]int{}, Unknown: map[string]int{}}
	for _, r := range results {
		for _, compat := range r.Masters {
			cv.Masters++
			d, matched := c.Lookup(compat)
			switch {
			case d == nil:
				key := "(none)"
				if len(compat) > 0 {
					key = compat[0]
				}
				cv.Unmatched[key]++
			case !d.DMA.Kind.Known():
				cv.Matched++
				cv.Unknown[fmt.Sprintf("%s (%s: %s)", matched, d.Name, d.DMA.Reason)]++
			default:
				cv.Matched++
				cv.Known++
			}
		}
	}
	return cv
}

// driverCounts returns, per series boardc ships a catalogue of, the
// coverage of results' masters; nil when it ships none.
func driverCounts(results []Result) map[string]DriverCount {
	var out map[string]DriverCount
	for _, s := range kernel.Series() {
		c, err := kernel.Load(s)
		if err != nil {
			continue
		}
		if out == nil {
			out = map[string]DriverCount{}
		}
		out[s] = CoverageOf(results, c).DriverCount
	}
	return out
}

// countRow is one key of a count map with its count.
type countRow struct {
	key string
	n   int
}

// top returns the n largest counts of m, most first, then by key.
func top(m map[string]int, n int) []countRow {
	rows := make([]countRow, 0, len(m))
	for k, v := range m {
		rows = append(rows, countRow{k, v})
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].n != rows[j].n {
			return rows[i].n > rows[j].n
		}
		return rows[i].key < rows[j].key
	})
	if len(rows) > n {
		rows = rows[:n]
	}
	return rows
}

// topUncovered is how many unmatched and unknown compatibles CORPUS.md
// lists per series.
const topUncovered = 20

// driversReport writes CORPUS.md's section on the driver-facts
// catalogues through p.
func driversReport(p func(string, ...any), results []Result) {
	p("")
	p("## Driver facts")
	p("")
	series := kernel.Series()
	if len(series) == 0 {
		p("boardc ships no driver-facts catalogue: the drafts are not filled from one.")
		return
	}
	p("The share of the drafts' DMA masters (every board's, %d boards with a draft) whose", countDrafts(results))
	p("compatible a driver of the catalogue binds (`kernel.Catalog.Lookup`) with a known DMA")
	p("behaviour (`kernel.DMAKind.Known`: none, fixed, choice, match-data, runtime or children),")
	p("per kernel series; the drafts are filled from %s's.", kernel.Default())
	p("")
	p("| kernel | masters | a driver binds | known DMA behaviour | share |")
	p("|---|---:|---:|---:|---:|")
	covs := map[string]Coverage{}
	for _, s := range series {
		c, err := kernel.Load(s)
		if err != nil {
			p("| %s | %s | | | |", s, cell(err.Error()))
			continue
		}
		cv := CoverageOf(results, c)
		covs[s] = cv
		p("| %s (%s) | %d | %d | %d | %.1f %% |", s, c.Kernel, cv.Masters, cv.Matched, cv.Known, cv.Share())
	}
	for _, s := range series {
		cv, ok := covs[s]
		if !ok {
			continue
		}
		p("")
		p("### %s: the %d most frequent compatibles no driver binds", s, topUncovered)
		p("")
		p("| masters | compatible |")
		p("|---:|---|")
		for _, r := range top(cv.Unmatched, topUncovered) {
			p("| %d | %s |", r.n, cell(r.key))
		}
		if len(cv.Unknown) > 0 {
			p("")
			p("### %s: the %d most frequent compatibles whose driver's DMA behaviour is unknown", s, topUncovered)
			p("")
			p("| masters | compatible (driver: reason) |")
			p("|---:|---|")
			for _, r := range top(cv.Unknown, topUncovered) {
				p("| %d | %s |", r.n, cell(r.key))
			}
		}
	}
}

// countDrafts returns how many of results have a draft.
func countDrafts(results []Result) int {
	n := 0
	for _, r := range results {
		if r.Stages[Import].Pass {
			n++
		}
	}
	return n
}
