package check

import (
	"fmt"
	"slices"
	"strings"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// SerDesDPMAC checks the DPMACs the data-path layout connects against
// the board's SerDes protocols.
var SerDesDPMAC = &Check{
	Needs: FactMasters | FactDPAA2,
	Code: diag.Code{ID: "BC0309", Name: "serdes-dpmac", Severity: diag.Error,
		Doc: "Which DPMACs exist is decided by the SerDes protocols the board's reset configuration " +
			"word selects: the MC firmware creates a DPMAC only for a MAC with a SerDes lane, so a " +
			"data-path layout that declares or connects another does not apply, and no interface " +
			"comes up. The board states its protocols (dpaa2: serdes: [SerDes 1, SerDes 2, ...]) and " +
			"the SoC's SerDes protocol table (soc.dpaa2.serdesProtocols) gives each protocol's DPMACs; " +
			"for LS2088A the table is U-Boot's transcription of the SoC's protocol tables " +
			"(ls2080a_serdes.c, with XFIn and SGMIIn on DPMAC n, fsl_serdes_init()). An interface whose " +
			"dpmac no stated protocol provides is an error, as are a protocol the table does not list " +
			"(boardc does not guess its lanes), protocols stated for an SoC without a table, and more " +
			"protocols than the table has SerDes blocks."},
	Run: func(p *Pass) {
		b := p.Board
		if !b.HasSerDes {
			return
		}
		d := b.SoC.DPAA2
		if d == nil || d.SerDesTable == nil {
			p.Report(ir.RefSerDes, b.SerDesPos,
				fmt.Sprintf("the board states SerDes protocols, but SoC %s has no SerDes protocol table (soc.dpaa2.serdesProtocols) to derive its DPMACs from", b.SoC.Name))
			return
		}
		blocks := serdesBlocks(d)
		if len(b.SerDes) > blocks {
			p.Report(ir.RefSerDes, b.SerDesPos,
				fmt.Sprintf("the board states %d SerDes protocols, but SoC %s has %d SerDes blocks in its table", len(b.SerDes), b.SoC.Name, blocks),
				Note(d.SerDesTablePos, "the SoC's SerDes protocol table (source: %s)", d.SerDesSource))
			return
		}
		provided, ok := serdesDPMACs(b)
		for i, proto := range b.SerDes {
			if proto == 0 {
				continue
			}
			if _, found := d.Protocol(i+1, proto); !found {
				pos := b.SerDesPos
				if i < len(b.SerDesPositions) {
					pos = b.SerDesPositions[i]
				}
				p.Report(ir.RefSerDes.Index(i), pos,
					fmt.Sprintf("SerDes %d protocol 0x%02X is not in SoC %s's SerDes protocol table, which lists %s for SerDes %d: boardc cannot tell which DPMACs it provides", i+1, proto, b.SoC.Name, protocolList(d, i+1), i+1),
					Note(d.SerDesTablePos, "the SoC's SerDes protocol table (source: %s)", d.SerDesSource))
			}
		}
		if !ok {
			return
		}
		for _, dev := range b.SoC.DPNIDevs() {
			if dev.DPMAC == 0 || slices.Contains(provided, dev.DPMAC) {
				continue
			}
			p.Report(ir.RefDPAA2, dev.DPMACPos,
				fmt.Sprintf("interface %s connects to dpmac %d, which SerDes protocols %s do not provide: they give DPMACs %s", dev.Name, dev.DPMAC, serdesName(b.SerDes), dpmacText(provided)),
				Note(b.SerDesPos, "the board's SerDes protocols"),
				Note(d.SerDesTablePos, "the SoC's SerDes protocol table (source: %s)", d.SerDesSource))
		}
	},
}

// SerDesMissing warns of a layout that connects DPMACs on an SoC whose
// DPMACs depend on SerDes protocols the board does not state.
var SerDesMissing = &Check{
	Needs: FactMasters | FactDPAA2,
	Code: diag.Code{ID: "BC0310", Name: "serdes-missing", Severity: diag.Warning,
		Doc: "On an SoC with a SerDes protocol table (soc.dpaa2.serdesProtocols), the DPMACs that " +
			"exist follow the SerDes protocols of the board's reset configuration word. A board that " +
			"connects interfaces to DPMACs without stating its protocols gets a data-path layout no " +
			"one checked against them: should a DPMAC have no lane, the MC firmware does not apply " +
			"the layout. The warning says what to add, dpaa2: serdes: [...], and which protocols of " +
			"the table provide the DPMACs the board names."},
	Run: func(p *Pass) {
		b := p.Board
		d := b.SoC.DPAA2
		if b.HasSerDes || d == nil || d.SerDesTable == nil {
			return
		}
		var named []int
		var first ir.Pos
		for _, dev := range b.SoC.DPNIDevs() {
			if dev.DPMAC == 0 {
				continue
			}
			if len(named) == 0 {
				first = dev.DPMACPos
			}
			if !slices.Contains(named, dev.DPMAC) {
				named = append(named, dev.DPMAC)
			}
		}
		if len(named) == 0 {
			return
		}
		slices.Sort(named)
		notes := []diag.Note{Note(d.SerDesTablePos, "the SoC's SerDes protocol table (source: %s)", d.SerDesSource)}
		for _, c := range serdesCandidates(d, named) {
			notes = append(notes, Note(ir.Pos{}, "%s", c))
		}
		var fields []string
		for block := 1; block <= serdesBlocks(d); block++ {
			fields = append(fields, fmt.Sprintf("SRDS_PRTCL_S%d", block))
		}
		p.Report(ir.RefDPAA2, first,
			fmt.Sprintf("the data-path layout connects DPMACs %s, but the board states no SerDes protocols, which decide the DPMACs that exist: add dpaa2: serdes: [%s] as the board's RCW sets them", dpmacText(named), strings.Join(fields, ", ")),
			notes...)
	},
}

// serdesDPMACs returns the DPMACs the board's SerDes protocols provide,
// sorted, and false when the board states none or one the SoC's table
// does not list.
func serdesDPMACs(b *ir.Board) ([]int, bool) {
	d := b.SoC.DPAA2
	if !b.HasSerDes || d == nil || d.SerDesTable == nil {
		return nil, false
	}
	var out []int
	for i, proto := range b.SerDes {
		if proto == 0 {
			continue
		}
		r, ok := d.Protocol(i+1, proto)
		if !ok {
			return nil, false
		}
		for _, m := range r.DPMACs {
			if !slices.Contains(out, m) {
				out = append(out, m)
			}
		}
	}
	slices.Sort(out)
	return out, true
}

// serdesBlocks returns the number of SerDes blocks the SoC's table has
// protocols for.
func serdesBlocks(d *ir.DPAA2) int {
	blocks := 0
	for _, r := range d.SerDesTable {
		blocks = max(blocks, r.SerDes)
	}
	return blocks
}

// serdesName spells protocols as NXP names a configuration, 0x2A_0x41.
func serdesName(protocols []int) string {
	s := make([]string, len(protocols))
	for i, p := range protocols {
		s[i] = fmt.Sprintf("0x%02X", p)
	}
	return strings.Join(s, "_")
}

// protocolList lists the protocols of SerDes block serdes in the table.
func protocolList(d *ir.DPAA2, serdes int) string {
	var s []string
	for _, r := range d.SerDesTable {
		if r.SerDes == serdes {
			s = append(s, fmt.Sprintf("0x%02X", r.Protocol))
		}
	}
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// serdesCandidates says, for each SerDes block whose protocols give any
// of the DPMACs named, which of its protocols give all of those.
func serdesCandidates(d *ir.DPAA2, named []int) []string {
	var out []string
	for block := 1; block <= 3; block++ {
		var mine []int
		for _, r := range d.SerDesTable {
			if r.SerDes != block {
				continue
			}
			for _, m := range named {
				if slices.Contains(r.DPMACs, m) && !slices.Contains(mine, m) {
					mine = append(mine, m)
				}
			}
		}
		if len(mine) == 0 {
			continue
		}
		slices.Sort(mine)
		var fit []string
		for _, r := range d.SerDesTable {
			if r.SerDes == block && containsAll(r.DPMACs, mine) {
				fit = append(fit, fmt.Sprintf("0x%02X", r.Protocol))
			}
		}
		if len(fit) == 0 {
			out = append(out, fmt.Sprintf("no SerDes %d protocol of the table gives all of DPMACs %s", block, dpmacText(mine)))
			continue
		}
		out = append(out, fmt.Sprintf("SerDes %d protocols giving DPMACs %s: %s", block, dpmacText(mine), strings.Join(fit, ", ")))
	}
	return out
}

// containsAll reports whether every element of want is in have.
func containsAll(have, want []int) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}

// dpmacText spells sorted DPMAC ids as ranges, "1-4, 7", or "none".
func dpmacText(ids []int) string {
	if len(ids) == 0 {
		return "none"
	}
	return ir.CPUList(ids)
}
