package synth

// Tiny is the smallest kind of valid description, for tests: one bus, one
// master, two CPUs, no policy. It has no package clause, so that a test can
// use it with or without one and in the package of its choice.
const Tiny = `
name: "tiny"
compatible: ["vendor,tiny"]
memory: [{base: 0, size: 0x4000_0000}]
policy: {irqs: [], net: {}, sysctls: {}, isolatedCPUs: []}
soc: {
	name: "tiny-soc"
	compatible: []
	root: {"#address-cells": 1, "#size-cells": 1}
	cpus: clusters: [{core: "arm,cortex-a53", cpus: [0, 1]}]
	buses: soc: {
		node: path:       "/soc"
		"#address-cells": 1
		"#size-cells":    1
		coherency: {coherent: true, source: "vendor datasheet 4.2", masters: "all"}
	}
	masters: dma0: {
		node: {label: "dma0", path: "/soc/dma@1000"}
		compatible: ["vendor,dma"]
		bus:     "soc"
		dmaBits: 32
		irqs: {}
	}
}
`
