package kextract

import (
	"fmt"
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/kernel"
	"github.com/google/go-cmp/cmp"
)

// driverC wraps a probe body in a platform driver matching compat.
func driverC(compat, before, probe string) string {
	return before + `
static int foo_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
` + probe + `
	return 0;
}

static const struct of_device_id foo_of_match[] = {
	{ .compatible = "` + compat + `" },
	{ }
};

static struct platform_driver foo_driver = {
	.probe = foo_probe,
	.driver = {
		.name = "foo",
		.of_match_table = of_match_ptr(foo_of_match),
	},
};
module_platform_driver(foo_driver);
`
}

// only extracts one file and returns its one driver.
func only(t *testing.T, files map[string]string) kernel.Driver {
	t.Helper()
	c := FromSources("6.12.1", files)
	if len(c.Drivers) != 1 {
		t.Fatalf("%d drivers, want 1: %+v", len(c.Drivers), c.Drivers)
	}
	return c.Drivers[0]
}

func site(file string, line int, fn string) kernel.Site {
	return kernel.Site{File: file, Line: line, Func: fn}
}

const f = "drivers/x/foo.c"

func TestDMAKinds(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  kernel.DMA
	}{{
		name:  "none",
		files: map[string]string{f: driverC("v,foo", "", `	devm_kzalloc(dev, 4, GFP_KERNEL);`)},
		want:  kernel.DMA{Kind: kernel.DMANone},
	}, {
		// A static helper in the same file is followed; Via names it.
		name: "fixed",
		files: map[string]string{f: driverC("v,foo", `
static int foo_dma(struct device *dev)
{
	return dma_set_mask_and_coherent(dev, DMA_BIT_MASK(40));
}`, `	if (foo_dma(dev))
		return -EIO;`)},
		want: kernel.DMA{Kind: kernel.DMAFixed, Widths: []int{40}, Sets: []kernel.MaskSet{{
			Call: "dma_set_mask_and_coherent", Arg: "DMA_BIT_MASK(40)", Width: 40,
			Site: site(f, 4, "foo_dma"), Via: []string{"foo_dma"}}}},
	}, {
		// if (set(64)) set(32): the second runs when the first fails.
		name: "fallback",
		files: map[string]string{f: driverC("v,foo", "", `	if (dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64)))
		dma_set_mask_and_coherent(dev, DMA_BIT_MASK(32));`)},
		want: kernel.DMA{Kind: kernel.DMAChoice, Widths: []int{32, 64},
			Reason: "32 if dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64))",
			Sets: []kernel.MaskSet{{
				Call: "dma_set_mask_and_coherent", Arg: "DMA_BIT_MASK(64)", Width: 64, Site: site(f, 5, "foo_probe"),
			}, {
				Call: "dma_set_mask_and_coherent", Arg: "DMA_BIT_MASK(32)", Width: 32, Site: site(f, 6, "foo_probe"),
				Cond: "dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64))",
			}}},
	}, {
		// Both arms of a ternary; a width from a #define.
		name:  "ternary",
		files: map[string]string{f: driverC("v,foo", "#define FOO_BITS 36\n", `	dma_set_mask(dev, priv->wide ? DMA_BIT_MASK(64) : DMA_BIT_MASK(FOO_BITS));`)},
		want: kernel.DMA{Kind: kernel.DMAChoice, Widths: []int{36, 64},
			Reason: "64 if priv->wide; 36 if !(priv->wide)",
			Sets: []kernel.MaskSet{{
				Call: "dma_set_mask", Arg: "DMA_BIT_MASK(64)", Width: 64, Cond: "priv->wide", Site: site(f, 6, "foo_probe"),
			}, {
				Call: "dma_set_mask", Arg: "DMA_BIT_MASK(FOO_BITS)", Width: 36, Cond: "!(priv->wide)", Site: site(f, 6, "foo_probe"),
			}}},
	}, {
		// A capability check: 64 bits or the OF default.
		name: "conditional",
		files: map[string]string{f: driverC("v,foo", "", `	if (readl(base) & CAP_64)
		dma_coerce_mask_and_coherent(dev, DMA_BIT_MASK(64));`)},
		want: kernel.DMA{Kind: kernel.DMAChoice, Widths: []int{32, 64},
			Reason: "64 if readl(base) & CAP_64; else the default of 32",
			Sets: []kernel.MaskSet{{Call: "dma_coerce_mask_and_coherent", Arg: "DMA_BIT_MASK(64)", Width: 64,
				Cond: "readl(base) & CAP_64", Site: site(f, 6, "foo_probe")}}},
	}, {
		name:  "runtime",
		files: map[string]string{f: driverC("v,foo", "", `	dma_set_mask(dev, DMA_BIT_MASK(readl(base) & 0x3f));`)},
		want: kernel.DMA{Kind: kernel.DMARuntime, Reason: "the width is computed at probe: DMA_BIT_MASK(readl(base) & 0x3f)",
			Sets: []kernel.MaskSet{{Call: "dma_set_mask", Arg: "DMA_BIT_MASK(readl(base) & 0x3f)", Site: site(f, 5, "foo_probe")}}},
	}, {
		// A computed width set only when there is one (stmmac's
		// host_dma_width): without it the default stands.
		name: "runtime under a condition",
		files: map[string]string{f: driverC("v,foo", "", `	if (priv->width)
		dma_set_mask(dev, DMA_BIT_MASK(priv->width));`)},
		want: kernel.DMA{Kind: kernel.DMARuntime,
			Reason: "the width is computed at probe: DMA_BIT_MASK(priv->width) if priv->width; else the default of 32",
			Sets:   []kernel.MaskSet{{Call: "dma_set_mask", Arg: "DMA_BIT_MASK(priv->width)", Cond: "priv->width", Site: site(f, 6, "foo_probe")}}},
	}, {
		// A local assigned only constants: each is a width.
		name: "local constants",
		files: map[string]string{f: driverC("v,foo", "", `	int bits = 32;

	if (readl(base) & CAP_36)
		bits = 36;
	dma_set_mask(dev, DMA_BIT_MASK(bits));`)},
		want: kernel.DMA{Kind: kernel.DMAChoice, Widths: []int{32, 36},
			Reason: "32 if bits = 32; 36 if bits = 36",
			Sets: []kernel.MaskSet{
				{Call: "dma_set_mask", Arg: "DMA_BIT_MASK(bits)", Width: 32, Cond: "bits = 32", Site: site(f, 9, "foo_probe")},
				{Call: "dma_set_mask", Arg: "DMA_BIT_MASK(bits)", Width: 36, Cond: "bits = 36", Site: site(f, 9, "foo_probe")},
			}},
	}, {
		// A local whose address is passed may hold anything.
		name: "local read from DT",
		files: map[string]string{f: driverC("v,foo", "", `	u32 bits = 32;

	of_property_read_u32(dev->of_node, "vendor,addr-width", &bits);
	dma_set_mask(dev, DMA_BIT_MASK(bits));`)},
		want: kernel.DMA{Kind: kernel.DMARuntime, Reason: "the width is computed at probe: DMA_BIT_MASK(bits) where bits = 32",
			Sets: []kernel.MaskSet{{Call: "dma_set_mask", Arg: "DMA_BIT_MASK(bits)", Site: site(f, 8, "foo_probe")}}},
	}, {
		// A global defined twice, one of which sets a mask.
		name: "unknown",
		files: map[string]string{
			f:               driverC("v,foo", "", `	foo_common_setup(dev);`),
			"drivers/x/a.c": "int foo_common_setup(struct device *dev)\n{\n\treturn dma_set_mask(dev, DMA_BIT_MASK(32));\n}\n",
			"drivers/y/b.c": "int foo_common_setup(struct device *dev)\n{\n\treturn 0;\n}\n",
		},
		want: kernel.DMA{Kind: kernel.DMAUnknown,
			Reason: "foo_common_setup() (called from foo_probe() in drivers/x/foo.c) is defined in 2 files (drivers/x/a.c, drivers/y/b.c) and one of them can set a DMA mask"},
	}, {
		// The probe registers ops whose .init sets the mask.
		name: "callback",
		files: map[string]string{f: driverC("v,foo", `
static int foo_hw_init(struct foo *priv)
{
	return dma_set_mask_and_coherent(priv->dev, DMA_BIT_MASK(48));
}

static const struct foo_ops foo_ops = {
	.init = foo_hw_init,
};`, `	priv->ops = &foo_ops;
	priv->ops->init(priv);`)},
		want: kernel.DMA{Kind: kernel.DMAFixed, Widths: []int{48}, Sets: []kernel.MaskSet{{
			Call: "dma_set_mask_and_coherent", Arg: "DMA_BIT_MASK(48)", Width: 48,
			Site: site(f, 4, "foo_hw_init"), Via: []string{"&foo_ops", "&foo_hw_init"}}}},
	}, {
		// A mask set on a device the driver creates.
		name: "children",
		files: map[string]string{f: driverC("v,foo", "", `	struct platform_device *child = platform_device_alloc("bar", 0);
	child->dev.coherent_dma_mask = DMA_BIT_MASK(32);`)},
		want: kernel.DMA{Kind: kernel.DMAChildren, Widths: nil,
			Reason: "the masks are set on the devices the driver creates, not on its own",
			Sets:   []kernel.MaskSet{{Call: "coherent_dma_mask =", Arg: "DMA_BIT_MASK(32)", Width: 32, Site: site(f, 6, "foo_probe")}}},
	}, {
		// A helper whose every return is a constant mask.
		name: "helper",
		files: map[string]string{
			f: driverC("v,foo", "", `	dma_set_mask_and_coherent(dev, foo_dma_mask(dev));`),
			"drivers/x/foo.h": `static inline u64 foo_dma_mask(struct device *dev)
{
	if (foo_wide)
		return DMA_BIT_MASK(49);
	return DMA_BIT_MASK(36);
}
`},
		want: kernel.DMA{Kind: kernel.DMAChoice, Widths: []int{36, 49},
			Reason: "49 if foo_dma_mask(dev) returns DMA_BIT_MASK(49) if foo_wide; 36 if foo_dma_mask(dev) returns DMA_BIT_MASK(36)",
			Sets: []kernel.MaskSet{{
				Call: "dma_set_mask_and_coherent", Arg: "foo_dma_mask(dev)", Width: 49,
				Cond: "foo_dma_mask(dev) returns DMA_BIT_MASK(49) if foo_wide", Site: site(f, 5, "foo_probe"),
			}, {
				Call: "dma_set_mask_and_coherent", Arg: "foo_dma_mask(dev)", Width: 36,
				Cond: "foo_dma_mask(dev) returns DMA_BIT_MASK(36)", Site: site(f, 5, "foo_probe"),
			}}},
	}, {
		// An ASoC component's .pcm_new sets the card's masks, not its
		// device's; a struct device it sets up itself is a child, given
		// its parent's masks here.
		name: "other devices",
		files: map[string]string{f: driverC("v,foo", `
static int foo_pcm_new(struct snd_soc_pcm_runtime *rtd)
{
	struct snd_card *card = rtd->card->snd_card;

	return dma_coerce_mask_and_coherent(card->dev, DMA_BIT_MASK(32));
}

static const struct snd_soc_component_driver foo_component = {
	.pcm_construct = foo_pcm_new,
};`, `	struct device *sub = &priv->sub;

	device_initialize(sub);
	sub->coherent_dma_mask = dev->coherent_dma_mask;
	devm_snd_soc_register_component(dev, &foo_component, NULL, 0);`)},
		want: kernel.DMA{Kind: kernel.DMANone},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			d := only(t, tc.files)
			if diff := cmp.Diff(tc.want, d.DMA); diff != "" {
				t.Errorf("DMA (-want +got):\n%s", diff)
			}
		})
	}
}

// The width comes from the member the match data of each compatible
// initializes.
func TestMatchData(t *testing.T) {
	src := `
struct foo_data { int dma_bits; };
static const struct foo_data foo_a = { .dma_bits = 40 };
#define FOO_B_BITS 36
static const struct foo_data foo_b = { .dma_bits = FOO_B_BITS };

static int foo_probe(struct platform_device *pdev)
{
	const struct foo_data *data = of_device_get_match_data(&pdev->dev);
	int bits = data->dma_bits;

	return dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(bits));
}

static const struct of_device_id foo_of_match[] = {
	{ .compatible = "v,a", .data = &foo_a },
	{ .compatible = "v,b", .data = &foo_b },
	{ }
};

static struct platform_driver foo_driver = {
	.probe = foo_probe,
	.driver = { .name = "foo", .of_match_table = foo_of_match },
};
`
	d := only(t, map[string]string{f: src})
	want := kernel.DMA{Kind: kernel.DMAMatchData, Widths: []int{36, 40}, PerCompatible: map[string]int{"v,a": 40, "v,b": 36},
		Sets: []kernel.MaskSet{{Call: "dma_set_mask_and_coherent", Arg: "DMA_BIT_MASK(bits)", Site: site(f, 12, "foo_probe")}}}
	if diff := cmp.Diff(want, d.DMA); diff != "" {
		t.Errorf("DMA (-want +got):\n%s", diff)
	}
	if !d.MatchData || d.Name != "foo" || d.Bus != "platform" || d.Probe != site(f, 7, "foo_probe") || d.Site != site(f, 21, "") {
		t.Errorf("driver = %+v", d)
	}
	if !cmp.Equal(d.Compatibles, []string{"v,a", "v,b"}) {
		t.Errorf("compatibles = %v", d.Compatibles)
	}
}

func TestIRQs(t *testing.T) {
	src := driverC("v,foo", "", `	struct net_device *ndev = alloc_etherdev(4);
	char *name = devm_kasprintf(dev, GFP_KERNEL, "%s-tx", dev_name(dev));
	devm_request_irq(dev, 1, foo_isr, 0, "foo-" "err", priv);
	devm_request_irq(dev, 2, foo_isr, 0, dev_name(dev), priv);
	request_irq(3, foo_isr, 0, ndev->name, ndev);
	devm_request_threaded_irq(dev, 4, NULL, foo_isr, 0, name, priv);
	request_irq(5, foo_isr, 0, priv->label, priv);
	sprintf(priv->buf, "%s:mac", dev_name(dev));
	request_irq(6, foo_isr, 0, priv->buf, priv);
	sprintf(priv->buf, "%s:wol", dev_name(dev));
	irq_set_affinity_hint(5, cpumask_of(0));`)
	d := only(t, map[string]string{f: src})
	want := []kernel.IRQ{
		{Name: "foo-err", Kind: "literal", Site: site(f, 7, "foo_probe")},
		{Name: "dev_name(dev)", Kind: "dev_name", Site: site(f, 8, "foo_probe")},
		{Name: "ndev->name", Kind: "netdev", Site: site(f, 9, "foo_probe")},
		{Name: "%s-tx", Kind: "format", Site: site(f, 10, "foo_probe")},
		{Name: "priv->label", Kind: "unknown", Site: site(f, 11, "foo_probe")},
		{Name: "%s:mac", Kind: "format", Site: site(f, 13, "foo_probe")},
	}
	if diff := cmp.Diff(want, d.IRQs); diff != "" {
		t.Errorf("IRQs (-want +got):\n%s", diff)
	}
	if !cmp.Equal(d.Affinity, []kernel.Site{site(f, 15, "foo_probe")}) {
		t.Errorf("affinity = %v", d.Affinity)
	}
	if d.Netdev == nil {
		t.Errorf("no netdev for a driver that allocates an etherdev")
	}
}

// AMBA drivers are keyed by peripheral ID, fsl-mc drivers by object type.
func TestBusKeys(t *testing.T) {
	c := FromSources("6.12.1", map[string]string{
		"drivers/dma/pl.c": `
static int pl_probe(struct amba_device *adev, const struct amba_id *id) { return 0; }
static const struct amba_id pl_ids[] = {
	{ .id = 0x00041330, .mask = 0x000fffff, },
	{ 0, 0 },
};
static struct amba_driver pl_driver = {
	.drv = { .name = "dma-pl" },
	.id_table = pl_ids,
	.probe = pl_probe,
};`,
		"drivers/net/dpaa2.c": `
static int ni_probe(struct fsl_mc_device *dev) { return 0; }
static const struct fsl_mc_device_id ni_ids[] = {
	{ .vendor = FSL_MC_VENDOR_FREESCALE, .obj_type = "dpni", },
	{ .vendor = 0x0 }
};
static struct fsl_mc_driver ni_driver = {
	.driver = { .name = KBUILD_MODNAME, },
	.probe = ni_probe,
	.match_id_table = ni_ids,
};`,
	})
	var got []string
	for _, d := range c.Drivers {
		got = append(got, d.Bus+" "+d.Name+" "+strings.Join(d.Compatibles, ","))
	}
	want := []string{"amba dma-pl amba:0x00041330/0x000fffff", "fsl-mc KBUILD_MODNAME fsl-mc:dpni"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// Comments, strings and the dropped branches of #if/#else keep braces
// balanced.
func TestLex(t *testing.T) {
	l := lex("a /* { */ \"}\" '{' // }\n#if X\nif (a) {\n#else\nif (b) {\n#endif\n}\n#if 0\n}\n#endif\n#define W 40 /* bits */\n")
	var got []string
	for _, tk := range l.toks {
		got = append(got, tk.s)
	}
	if diff := cmp.Diff([]string{"a", `"}"`, "'{'", "if", "(", "a", ")", "{", "}"}, got); diff != "" {
		t.Errorf("tokens (-want +got):\n%s", diff)
	}
	if l.defines["W"] != "40" {
		t.Errorf("defines = %v", l.defines)
	}
}

// A function reached first down a long chain and then by a short one is
// read at the short one's depth: the walk is breadth first.
func TestShallowestChain(t *testing.T) {
	var b strings.Builder
	b.WriteString("static int target(struct device *dev)\n{\n\treturn dma_set_mask(dev, DMA_BIT_MASK(44));\n}\n")
	b.WriteString("static int a11(struct device *dev) { return target(dev); }\n")
	for i := 10; i >= 1; i-- {
		fmt.Fprintf(&b, "static int a%d(struct device *dev) { return a%d(dev); }\n", i, i+1)
	}
	b.WriteString("static int short_path(struct device *dev) { return target(dev); }\n")
	d := only(t, map[string]string{f: driverC("v,foo", b.String(), "\ta1(dev);\n\tshort_path(dev);")})
	if d.DMA.Kind != kernel.DMAFixed || len(d.DMA.Sets) != 1 || !cmp.Equal(d.DMA.Sets[0].Via, []string{"short_path", "target"}) {
		t.Errorf("DMA = %+v, want fixed 44 through short_path", d.DMA)
	}
}
