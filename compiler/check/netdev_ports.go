package check

import (
	"fmt"

	"boardc.dev/boardc/compiler/diag"
)

// NetdevIndistinct finds tuned interfaces that tune.sh cannot tell apart
// from the other interfaces of their master.
var NetdevIndistinct = &Check{
	Needs: FactMasters | FactPolicy | FactDPAA2,
	Code: diag.Code{ID: "BC0416", Name: "netdev-indistinct", Severity: diag.Warning,
		Doc: "tune.sh finds an interface by hardware: the netdev whose own of_node " +
			"(/sys/class/net/IF/of_node), or nearest parent device's, is a device-tree node or below it. " +
			"Without port or alias that node is the master's, and every netdev of a master with one " +
			"node per port (mvpp2's ethernet-port@N children, " +
			"Documentation/devicetree/bindings/net/marvell,pp2.yaml) lies below it: on a master that " +
			"declares several interfaces, each such interface matches all their netdevs, and tune.sh " +
			"tunes none of them (a missing item, exit 4). Two interfaces naming the same port node match " +
			"each other's netdev the same way. Name each interface's own node " +
			"(port: {label: \"cp1_eth0\", path: \"/cp1-bus/bus@f4000000/ethernet@0/ethernet-port@0\"}) " +
			"or its DT alias; an interface found by DPAA2 object or by name is left out."},
	Run: func(p *Pass) {
		for _, np := range p.Board.Policy.Net {
			nd, m := np.Dev, np.Master
			if nd == nil || m == nil || !nd.FoundByNode() {
				continue
			}
			var others []string
			for _, o := range m.NetDevs {
				if o.Name != nd.Name && !o.HasDPNI {
					others = append(others, o.Name)
				}
			}
			if len(others) == 0 {
				continue
			}
			switch {
			case !nd.HasPort() && nd.Alias == "":
				p.Report(np.Ref(), nd.Pos,
					fmt.Sprintf("interface %s is found by the node of master %s, which the netdevs of %s lie below too: tune.sh cannot tell them apart and leaves %s untuned; name its port node (port: {label, path})", nd.Name, m.Key, joinNames(others), nd.Name),
					Note(m.Node.Pos, "node of master %s: %s", m.Key, m.Node.Path),
					Note(np.Pos, "the policy tunes %s", nd.Name))
			case nd.HasPort():
				for _, o := range m.NetDevs {
					if o.Name != nd.Name && o.FoundByNode() && o.Port.Path == nd.Port.Path {
						p.Report(np.Ref(), nd.Port.Pos,
							fmt.Sprintf("interface %s names the port node %s, as interface %s does: tune.sh cannot tell them apart and leaves %s untuned", nd.Name, nd.Port.Path, o.Name, nd.Name),
							Note(o.Port.Pos, "port of %s", o.Name))
					}
				}
			}
		}
	},
}

// joinNames lists names as "a, b and c".
func joinNames(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	s := names[0]
	for _, n := range names[1 : len(names)-1] {
		s += ", " + n
	}
	return s + " and " + names[len(names)-1]
}
