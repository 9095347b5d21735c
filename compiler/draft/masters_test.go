package draft

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/internal/testtool"
)

// ls1043a is upstream's fsl-ls1043a.dtsi (Linux v7.1) cut down to the
// nodes that matter here, as written there: dma-coherent on /soc (line
// 308) and on some masters, aux_bus below it, eDMA, eSDHC, the PCIe
// host bridge, an I2C and a SPI controller; with a board's crypto@60 on
// the I2C bus (imx8mm-venice-gw7901.dts: atmel,atecc508a) and mmc@0 on
// the SPI bus (tmpv7708-visrobo-vrc.dtsi: mmc-spi-slot).
const ls1043a = `/dts-v1/;
/ {
	compatible = "fsl,ls1043a-rdb", "fsl,ls1043a";
	#address-cells = <2>;
	#size-cells = <2>;
	soc: soc {
		compatible = "simple-bus";
		#address-cells = <2>;
		#size-cells = <2>;
		ranges;
		dma-ranges = <0x0 0x0 0x0 0x0 0x10000 0x00000000>;
		dma-coherent;
		crypto: crypto@1700000 {
			compatible = "fsl,sec-v5.4", "fsl,sec-v5.0", "fsl,sec-v4.0";
			#address-cells = <1>;
			#size-cells = <1>;
			ranges = <0x0 0x00 0x1700000 0x100000>;
			reg = <0x00 0x1700000 0x0 0x100000>;
			dma-coherent;
			sec_jr0: jr@10000 {
				compatible = "fsl,sec-v5.4-job-ring", "fsl,sec-v5.0-job-ring", "fsl,sec-v4.0-job-ring";
				reg = <0x10000 0x10000>;
			};
		};
		esdhc: mmc@1560000 {
			compatible = "fsl,ls1043a-esdhc", "fsl,esdhc";
			reg = <0x0 0x1560000 0x0 0x10000>;
		};
		dspi0: spi@2100000 {
			compatible = "fsl,ls1043a-dspi", "fsl,ls1021a-v1.0-dspi";
			#address-cells = <1>;
			#size-cells = <0>;
			reg = <0x0 0x2100000 0x0 0x10000>;
			mmc@0 {
				compatible = "mmc-spi-slot";
				reg = <0>;
				voltage-ranges = <3200 3400>;
			};
		};
		i2c0: i2c@2180000 {
			compatible = "fsl,vf610-i2c";
			#address-cells = <1>;
			#size-cells = <0>;
			reg = <0x0 0x2180000 0x0 0x10000>;
			crypto@60 {
				compatible = "atmel,atecc508a";
				reg = <0x60>;
			};
		};
		edma0: dma-controller@2c00000 {
			#dma-cells = <2>;
			compatible = "fsl,vf610-edma";
			reg = <0x0 0x2c00000 0x0 0x10000>;
		};
		aux_bus: bus {
			#address-cells = <2>;
			#size-cells = <2>;
			compatible = "simple-bus";
			ranges;
			dma-ranges = <0x0 0x0 0x0 0x0 0x100 0x00000000>;
			usb0: usb@2f00000 {
				compatible = "snps,dwc3";
				reg = <0x0 0x2f00000 0x0 0x10000>;
				dma-coherent;
			};
			sata: sata@3200000 {
				compatible = "fsl,ls1043a-ahci";
				reg = <0x0 0x3200000 0x0 0x10000>;
				dma-coherent;
			};
		};
		pcie1: pcie@3400000 {
			compatible = "fsl,ls1043a-pcie";
			reg = <0x00 0x03400000 0x0 0x00100000>, <0x40 0x00000000 0x0 0x00002000>;
			#address-cells = <3>;
			#size-cells = <2>;
			device_type = "pci";
		};
	};
};
`

// tegra234 is upstream's tegra234.dtsi (Linux v7.1) host1x@13e00000 with
// two of its clients, each with its own iommus and dma-coherent, and a
// non-coherent PCIe host bridge (pcie@14100000) with an endpoint below.
const tegra234 = `/dts-v1/;
/ {
	compatible = "nvidia,p3737-0000+p3701-0000", "nvidia,p3701-0000", "nvidia,tegra234";
	#address-cells = <2>;
	#size-cells = <2>;
	bus@0 {
		compatible = "simple-bus";
		#address-cells = <2>;
		#size-cells = <2>;
		ranges = <0x0 0x0 0x0 0x0 0x100 0x0>;
		smmu_niso1: iommu@8000000 {
			compatible = "nvidia,tegra234-smmu", "nvidia,smmu-500";
			reg = <0x0 0x8000000 0x0 0x1000000>;
			#iommu-cells = <1>;
		};
		host1x@13e00000 {
			compatible = "nvidia,tegra234-host1x";
			reg = <0x0 0x13e00000 0x0 0x10000>;
			#address-cells = <2>;
			#size-cells = <2>;
			ranges = <0x0 0x14800000 0x0 0x14800000 0x0 0x02000000>;
			iommus = <&smmu_niso1 0x27>;
			dma-coherent;
			vic@15340000 {
				compatible = "nvidia,tegra234-vic";
				reg = <0x0 0x15340000 0x0 0x00040000>;
				iommus = <&smmu_niso1 0x34>;
				dma-coherent;
			};
			nvdec@15480000 {
				compatible = "nvidia,tegra234-nvdec";
				reg = <0x0 0x15480000 0x0 0x00040000>;
				iommus = <&smmu_niso1 0x29>;
				dma-coherent;
			};
		};
	};
	pcie@14100000 {
		compatible = "nvidia,tegra234-pcie";
		device_type = "pci";
		reg = <0x00 0x14100000 0x0 0x00020000>;
		#address-cells = <3>;
		#size-cells = <2>;
		/* An endpoint as apple/t600x-j314-j316.dtsi describes its SD reader. */
		pci@0,0 {
			device_type = "pci";
			reg = <0x0 0x0 0x0 0x0 0x0>;
			#address-cells = <3>;
			#size-cells = <2>;
			mmc@0,0 {
				compatible = "pci17a0,9755";
				reg = <0x20000 0x0 0x0 0x0 0x0>;
			};
		};
	};
};
`

// elba is upstream's elba.dtsi (Linux v7.1, amd/): dma-coherent on the
// root itself, a master directly below the root, and soc below it.
const elba = `/dts-v1/;
/ {
	model = "Elba ASIC Board";
	compatible = "amd,pensando-elba-ortano", "amd,pensando-elba";
	#address-cells = <2>;
	#size-cells = <2>;
	dma-coherent;
	soc: soc {
		compatible = "simple-bus";
		#address-cells = <2>;
		#size-cells = <2>;
		ranges;
		emmc: mmc@30440000 {
			compatible = "amd,pensando-elba-sd4hc", "cdns,sd4hc";
			reg = <0x0 0x30440000 0x0 0x10000>;
		};
	};
};
`

// hamoa is upstream's qcom/hamoa.dtsi (Linux v7.1) ADSP remoteproc cut
// down to its fastrpc session nodes: compute-cb@3 and @4 sit on the
// sizeless fastrpc node (reg = <N>), each with its own iommus and
// dma-coherent.
const hamoa = `/dts-v1/;
/ {
	compatible = "qcom,x1e80100-crd", "qcom,x1e80100";
	#address-cells = <2>;
	#size-cells = <2>;
	soc@0 {
		compatible = "simple-bus";
		#address-cells = <2>;
		#size-cells = <2>;
		ranges = <0 0 0 0 0x10 0>;
		apps_smmu: iommu@15000000 {
			compatible = "qcom,x1e80100-smmu-500", "qcom,smmu-500", "arm,mmu-500";
			reg = <0 0x15000000 0 0x100000>;
			#iommu-cells = <2>;
			dma-coherent;
		};
		remoteproc_adsp: remoteproc@6800000 {
			compatible = "qcom,x1e80100-adsp-pas";
			reg = <0x0 0x06800000 0x0 0x10000>;
			glink-edge {
				label = "lpass";
				fastrpc {
					compatible = "qcom,fastrpc";
					label = "adsp";
					#address-cells = <1>;
					#size-cells = <0>;
					compute-cb@3 {
						compatible = "qcom,fastrpc-compute-cb";
						reg = <3>;
						iommus = <&apps_smmu 0x1003 0x80>, <&apps_smmu 0x1063 0x0>;
						dma-coherent;
					};
					compute-cb@4 {
						compatible = "qcom,fastrpc-compute-cb";
						reg = <4>;
						iommus = <&apps_smmu 0x1004 0x80>, <&apps_smmu 0x1064 0x0>;
						dma-coherent;
					};
				};
			};
		};
	};
};
`

// compileDTS compiles DTS source with dtc -@ and reads it.
func compileDTS(t *testing.T, src string) *basetree.Tree {
	t.Helper()
	testtool.Look(t, "dtc", "device-tree-compiler")
	cmd := exec.Command("dtc", "-q", "-I", "dts", "-O", "dtb", "-@", "-o", "-", "-")
	cmd.Stdin = strings.NewReader(src)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	tree, err := basetree.Read(out, "test.dts")
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

func paths(ns []*basetree.Node) []string {
	var out []string
	for _, n := range ns {
		out = append(out, n.Path)
	}
	return out
}

// TestMasters: a dma-coherent on a bus is the bus's, and the masters
// below it stay masters; host1x's clients with their own iommus are
// masters and host1x is their bus; devices on I2C and SPI are never
// masters, nor devices named as masters on a sizeless bus, unless they
// carry their own iommus or dma-coherent (fastrpc's sessions); a
// PCIe host bridge on a memory-mapped bus is one, coherent or not, and a
// bridge, and nothing below it is (its root port, its endpoint's SD
// reader).
func TestMasters(t *testing.T) {
	for _, tc := range []struct {
		name, dts  string
		want, pcie []string
	}{
		{"ls1043a", ls1043a, []string{
			"/soc/bus/sata@3200000", "/soc/bus/usb@2f00000", "/soc/crypto@1700000",
			"/soc/dma-controller@2c00000", "/soc/mmc@1560000", "/soc/pcie@3400000",
		}, []string{"/soc/pcie@3400000"}},
		{"tegra234", tegra234, []string{
			"/bus@0/host1x@13e00000/nvdec@15480000", "/bus@0/host1x@13e00000/vic@15340000",
			"/pcie@14100000",
		}, []string{"/pcie@14100000"}},
		{"elba", elba, []string{"/soc/mmc@30440000"}, nil},
		// Sizeless, but each with its own IOMMU stream and coherency.
		{"hamoa", hamoa, []string{
			"/soc@0/iommu@15000000",
			"/soc@0/remoteproc@6800000/glink-edge/fastrpc/compute-cb@3",
			"/soc@0/remoteproc@6800000/glink-edge/fastrpc/compute-cb@4",
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ms, pcie := masters(compileDTS(t, tc.dts))
			if diff := cmp.Diff(tc.want, paths(ms)); diff != "" {
				t.Errorf("masters (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.pcie, paths(pcie)); diff != "" {
				t.Errorf("PCIe host bridges (-want +got):\n%s", diff)
			}
		})
	}
}

// TestBusCoherentAll: upstream's dma-coherent on a bus node or on the
// root becomes that bus's fact, coherent for all its masters, sourced to
// the node that carries it; a master without its own fact gets none.
// ac5 is the bus of ac5-98dx25xx.dtsi that carries dma-coherent, cut
// down: its UART is no DMA master.
const ac5 = `/dts-v1/;
/ {
	compatible = "marvell,rd-ac5x", "marvell,ac5";
	#address-cells = <2>;
	#size-cells = <2>;
	soc {
		compatible = "simple-bus";
		#address-cells = <2>;
		#size-cells = <2>;
		ranges;
		bus@7f000000 {
			#address-cells = <1>;
			#size-cells = <1>;
			compatible = "simple-bus";
			ranges = <0x0 0x0 0x7f000000 0x1000000>;
			dma-coherent;
			uart0: serial@12000 {
				compatible = "snps,dw-apb-uart";
				reg = <0x12000 0x100>;
			};
		};
	};
};
`

func TestBusCoherentAll(t *testing.T) {
	for _, tc := range []struct {
		name, dts string
		want      []string // lines of the SoC file, in order
	}{
		{"ls1043a", ls1043a, []string{
			"soc: {", "Upstream sets dma-coherent on the bus node:", "coherent: true", `source: "test.dts: dma-coherent on /soc"`, `masters: "all"`, `flagAt: "/soc"`,
			"aux_bus: {", "Upstream sets dma-coherent on /soc, above it:", "coherent: true", `source: "test.dts: dma-coherent on /soc"`, `masters: "all"`,
			"edma0: {", `bus: "soc"`, "irqs: {}",
		}},
		// ac5-98dx25xx.dtsi (Linux v7.1): dma-coherent on an internal
		// register bus that holds no master of the draft.
		{"ac5", ac5, []string{
			"bus_7f000000: {", "Upstream sets dma-coherent on the bus node:", "coherent: true", `masters: "all"`, `flagAt: "/soc/bus@7f000000"`,
		}},
		{"elba", elba, []string{
			"soc: {", "Upstream sets dma-coherent on /, above it:", "coherent: true", `source: "test.dts: dma-coherent on /"`, `masters: "all"`,
		}},
		// No upstream tree has a dma-noncoherent below a coherent bus
		// (rk356x-base.dtsi's are on a non-coherent one): /soc of
		// fsl-ls1043a.dtsi with its eSDHC opting out.
		{"opt-out", strings.Replace(ls1043a, `reg = <0x0 0x1560000 0x0 0x10000>;`, `reg = <0x0 0x1560000 0x0 0x10000>; dma-noncoherent;`, 1), []string{
			"esdhc: {", `coherency: {coherent: false, source: "test.dts: dma-noncoherent", reason: "upstream sets dma-noncoherent on /soc/mmc@1560000"}`,
		}},
		{"tegra234", tegra234, []string{
			"host1x_13e00000: {", "parent: \"bus_0\"", "coherent: true",
			`source: "test.dts: dma-coherent on /bus@0/host1x@13e00000"`, `masters: "all"`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := &gen{t: compileDTS(t, tc.dts), o: Options{Source: "test.dts"}, board: "b", keys: newKeys()}
			g.scan()
			text := string(g.socFile("s", "s", nil))
			rest := text
			for _, l := range tc.want {
				i := strings.Index(rest, l)
				if i < 0 {
					t.Fatalf("no %q after the lines before it in:\n%s", l, text)
				}
				rest = rest[i+len(l):]
			}
			if strings.Contains(text, "edma0: {") && strings.Contains(between(text, "edma0: {", "irqs"), "coherency") {
				t.Errorf("edma0 has a coherency fact of its own; it inherits the bus's:\n%s", text)
			}
		})
	}
}

func between(s, from, to string) string {
	_, after, _ := strings.Cut(s, from)
	before, _, _ := strings.Cut(after, to)
	return before
}

// TestSoCCompatibles: the SoC's compatibles are the root's after the
// board's, as upstream's trees spell them.
func TestSoCCompatibles(t *testing.T) {
	for _, tc := range []struct {
		board  string
		compat []string
		want   []string
	}{
		// armada-8040-mcbin.dts
		{"armada-8040-mcbin", []string{"marvell,armada8040-mcbin", "marvell,armada8040", "marvell,armada-ap806-quad", "marvell,armada-ap806"},
			[]string{"marvell,armada8040", "marvell,armada-ap806-quad", "marvell,armada-ap806"}},
		// armada-8040-mcbin-singleshot.dts
		{"armada-8040-mcbin-singleshot", []string{"marvell,armada8040-mcbin-singleshot", "marvell,armada8040-mcbin", "marvell,armada8040", "marvell,armada-ap806-quad", "marvell,armada-ap806"},
			[]string{"marvell,armada8040", "marvell,armada-ap806-quad", "marvell,armada-ap806"}},
		// tegra234-p3737-0000+p3701-0000.dts: the module's entry is the
		// board's, whose name ends with it.
		{"tegra234-p3737-0000+p3701-0000", []string{"nvidia,p3737-0000+p3701-0000", "nvidia,p3701-0000", "nvidia,tegra234"},
			[]string{"nvidia,tegra234"}},
		// rk3588-rock-5b.dts
		{"rk3588-rock-5b", []string{"radxa,rock-5b", "rockchip,rk3588"}, []string{"rockchip,rk3588"}},
		// cn9130-cf-pro.dts
		{"cn9130-cf-pro", []string{"solidrun,cn9130-clearfog-pro", "solidrun,cn9130-sr-som", "marvell,cn9130"}, []string{"marvell,cn9130"}},
		// imx8mp-evk.dts
		{"imx8mp-evk", []string{"fsl,imx8mp-evk", "fsl,imx8mp"}, []string{"fsl,imx8mp"}},
		// elba-asic.dts: the root's only compatible is the board's.
		{"elba-asic", []string{"amd,pensando-elba-ortano"}, []string{}},
	} {
		got := socCompatibles(tc.compat, tc.board)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.board, got, tc.want)
		}
	}
	if got := SoCName([]string{"marvell,armada8040-mcbin", "marvell,armada8040", "marvell,armada-ap806-quad", "marvell,armada-ap806"}, "armada-8040-mcbin"); got != "armada8040" {
		t.Errorf("SoCName: got %q, want armada8040", got)
	}
}

// TestCommentWrap: comments wrap at commentWidth whatever their depth,
// each line taking as many words as fit, and a comment line that ends in
// "{" or starts with "}" does not move the indentation of the lines after
// it (which made long drafts' comments shrink to a word per line).
func TestCommentWrap(t *testing.T) {
	var w w
	w.p("a: {")
	w.p("b: {")
	// A bus comment as bus() writes it, wrapped right after the "{".
	w.comment(strings.Repeat("x", 66) + " { #address-cells = <2>; }")
	w.comment("} closing " + strings.Repeat("word ", 30))
	w.p("c: 1")
	w.p("}")
	w.p("}")
	lines := strings.Split(strings.TrimSuffix(w.b.String(), "\n"), "\n")
	if lines[0] != "a: {" || lines[len(lines)-1] != "}" || lines[len(lines)-2] != "\t}" || lines[len(lines)-3] != "\t\tc: 1" {
		t.Errorf("indentation moved:\n%s", w.b.String())
	}
	var words []string
	for _, l := range lines[2 : len(lines)-3] {
		text, ok := strings.CutPrefix(l, "\t\t//")
		if !ok {
			t.Fatalf("comment line %q not at the depth of its field", l)
		}
		words = append(words, strings.Fields(text)...)
	}
	// Greedy: no line could have taken the next line's first word.
	for i, l := range lines[2 : len(lines)-4] {
		next := strings.Fields(lines[2+i+1])[1]
		if next == "}" {
			continue // the second comment
		}
		if n := len(strings.TrimLeft(l, "\t")) + 1 + len(next); n <= commentWidth {
			t.Errorf("line %q wrapped before %q (%d <= %d columns)", l, next, n, commentWidth)
		}
	}
	if len(words) != 6+2+30 {
		t.Errorf("got %d words, want %d:\n%s", len(words), 38, w.b.String())
	}

	// A whole draft, many buses deep: every comment line is greedy.
	g := &gen{t: compileDTS(t, tegra234), o: Options{Source: strings.Repeat("arch/arm64/boot/dts/", 3) + "x.dts"}, board: "b", keys: newKeys()}
	g.scan()
	text := strings.Split(string(g.socFile("s", "s", nil)), "\n")
	for i := 0; i+1 < len(text); i++ {
		l, n := strings.TrimLeft(text[i], "\t"), strings.TrimLeft(text[i+1], "\t")
		if !strings.HasPrefix(l, "//") || !strings.HasPrefix(n, "// ") {
			continue
		}
		if len(l)+1+len(strings.Fields(n)[1]) <= commentWidth && !strings.HasSuffix(l, ".") && !strings.HasSuffix(l, ")") {
			t.Errorf("line %d wraps early: %q", i+1, l)
		}
	}
}
