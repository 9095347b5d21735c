package kextract

import (
	"testing"

	"boardc.dev/boardc/compiler/kernel"
	"github.com/google/go-cmp/cmp"
)

// A width set under a condition on the match data is resolved per
// compatible (mvpp2_probe(), drivers/net/ethernet/marvell/mvpp2/
// mvpp2_main.c): the enum constants are read, a compatible whose data
// fails the condition keeps the default, a later assignment to the
// variable does not change what the sets before it saw, and the
// coherent mask set apart is named in the reason.
func TestMatchDataCondition(t *testing.T) {
	src := `
struct foo { enum { FOO21, FOO22, FOO23 } hw_version; };
static int foo_probe(struct platform_device *pdev)
{
	struct foo *priv = devm_kzalloc(&pdev->dev, sizeof(*priv), GFP_KERNEL);

	priv->hw_version = (unsigned long)device_get_match_data(&pdev->dev);
	if (priv->hw_version >= FOO22) {
		dma_set_mask(&pdev->dev, DMA_BIT_MASK(40));
		dma_set_coherent_mask(&pdev->dev, DMA_BIT_MASK(32));
	}
	if (priv->hw_version == FOO22 && foo_read(priv))
		priv->hw_version = FOO23;
	if (priv->hw_version == FOO21)
		dma_set_coherent_mask(&pdev->dev, DMA_BIT_MASK(30));
	return 0;
}

static const struct of_device_id foo_match[] = {
	{ .compatible = "v,foo21", .data = (void *)FOO21, },
	{ .compatible = "v,foo22", .data = (void *)FOO22, },
	{ }
};

static struct platform_driver foo_driver = {
	.probe = foo_probe,
	.driver = { .name = "foo", .of_match_table = foo_match },
};
`
	d := only(t, map[string]string{f: src})
	want := kernel.DMA{Kind: kernel.DMAMatchData, Widths: []int{32, 40},
		PerCompatible: map[string]int{"v,foo21": 32, "v,foo22": 40},
		Reason: "the compatible that matched decides: v,foo21: no set runs, the default of 32; v,foo22: 40; " +
			"the coherent mask is set apart: 32 if priv->hw_version >= FOO22 (drivers/x/foo.c:10 foo_probe()); " +
			"30 if priv->hw_version == FOO21 (drivers/x/foo.c:15 foo_probe())",
		Sets: []kernel.MaskSet{
			{Call: "dma_set_mask", Arg: "DMA_BIT_MASK(40)", Width: 40, Cond: "priv->hw_version >= FOO22", Site: site(f, 9, "foo_probe")},
			{Call: "dma_set_coherent_mask", Arg: "DMA_BIT_MASK(32)", Width: 32, Cond: "priv->hw_version >= FOO22", Site: site(f, 10, "foo_probe")},
			{Call: "dma_set_coherent_mask", Arg: "DMA_BIT_MASK(30)", Width: 30, Cond: "priv->hw_version == FOO21", Site: site(f, 15, "foo_probe")},
		}}
	if diff := cmp.Diff(want, d.DMA); diff != "" {
		t.Errorf("DMA (-want +got):\n%s", diff)
	}
}

// A member of the match data's structure in a condition: an initializer
// that leaves it out gives 0, and a condition that also reads something
// else stays a condition (a choice, not resolved).
func TestMatchDataMember(t *testing.T) {
	src := func(cond string) string {
		return `
struct foo_data { bool wide; };
static const struct foo_data foo_a = { .wide = true };
static const struct foo_data foo_b = { };
static int foo_probe(struct platform_device *pdev)
{
	const struct foo_data *data = of_device_get_match_data(&pdev->dev);

	if (` + cond + `)
		dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(36));
	return 0;
}

static const struct of_device_id foo_match[] = {
	{ .compatible = "v,a", .data = &foo_a },
	{ .compatible = "v,b", .data = &foo_b },
	{ }
};

static struct platform_driver foo_driver = {
	.probe = foo_probe,
	.driver = { .name = "foo", .of_match_table = foo_match },
};
`
	}
	d := only(t, map[string]string{f: src("data->wide")})
	if d.DMA.Kind != kernel.DMAMatchData || !cmp.Equal(d.DMA.PerCompatible, map[string]int{"v,a": 36, "v,b": 32}) {
		t.Errorf("data->wide: %+v, want match-data v,a 36, v,b 32", d.DMA)
	}
	d = only(t, map[string]string{f: src("!data->wide")})
	if d.DMA.Kind != kernel.DMAMatchData || !cmp.Equal(d.DMA.PerCompatible, map[string]int{"v,a": 32, "v,b": 36}) {
		t.Errorf("!data->wide: %+v, want match-data v,a 32, v,b 36", d.DMA)
	}
	d = only(t, map[string]string{f: src("data->wide && foo_probe_hw(pdev)")})
	if d.DMA.Kind != kernel.DMAChoice || !cmp.Equal(d.DMA.Widths, []int{32, 36}) {
		t.Errorf("data->wide && hw: %+v, want choice 32, 36", d.DMA)
	}
}

// "dev->dma_mask = &dev->coherent_dma_mask" makes the coherent mask the
// streaming one (owl_mmc_probe(), drivers/mmc/host/owl-mmc.c); a mask
// set on a DMA channel's device is not the bound device's.
func TestAliasAndChannel(t *testing.T) {
	d := only(t, map[string]string{f: driverC("v,foo", "", `	pdev->dev.coherent_dma_mask = DMA_BIT_MASK(32);
	pdev->dev.dma_mask = &pdev->dev.coherent_dma_mask;`)})
	want := kernel.DMA{Kind: kernel.DMAFixed, Widths: []int{32},
		Reason: "dma_mask points at coherent_dma_mask (drivers/x/foo.c:6 foo_probe()): the coherent mask's sets set both",
		Sets:   []kernel.MaskSet{{Call: "coherent_dma_mask =", Arg: "DMA_BIT_MASK(32)", Width: 32, Site: site(f, 5, "foo_probe")}}}
	if diff := cmp.Diff(want, d.DMA); diff != "" {
		t.Errorf("alias (-want +got):\n%s", diff)
	}
	d = only(t, map[string]string{f: driverC("v,foo", "", `	if (!pdev->dev.dma_mask)
		pdev->dev.dma_mask = &pdev->dev.coherent_dma_mask;
	dma_set_coherent_mask(dev, DMA_BIT_MASK(32));`)})
	if d.DMA.Kind != kernel.DMANone {
		t.Errorf("conditional alias: %+v, want none", d.DMA)
	}
	d = only(t, map[string]string{f: driverC("v,foo", "", `	struct dma_chan *chan = dma_request_chan(dev, "rx");
	struct device *cdev = chan->device->dev;

	dma_set_mask(chan->device->dev, DMA_BIT_MASK(40));
	dma_set_mask_and_coherent(cdev, DMA_BIT_MASK(48));`)})
	if d.DMA.Kind != kernel.DMANone || len(d.DMA.Sets) != 0 {
		t.Errorf("channel: %+v, want none without sets", d.DMA)
	}
}

// A mask set on the device of an object a subsystem allocates (an IIO
// device, drivers/iio/adc/at91-sama5d2_adc.c) is not the bound device's,
// and one in the member that backs a device the function set up
// (drivers/gpu/host1x/context.c) is a child's.
func TestSubsystemChild(t *testing.T) {
	d := only(t, map[string]string{f: driverC("v,foo", "", `	struct iio_dev *indio_dev = devm_iio_device_alloc(&pdev->dev, 8);

	dma_coerce_mask_and_coherent(&indio_dev->dev, DMA_BIT_MASK(32));`)})
	if d.DMA.Kind != kernel.DMANone || len(d.DMA.Sets) != 0 {
		t.Errorf("iio: %+v, want none without sets", d.DMA)
	}
	d = only(t, map[string]string{f: driverC("v,foo", "", `	struct foo_ctx *ctx = &foo->ctx;

	device_initialize(&ctx->dev);
	ctx->dma_mask = DMA_BIT_MASK(38);
	ctx->dev.dma_mask = &ctx->dma_mask;`)})
	if d.DMA.Kind != kernel.DMAChildren || !cmp.Equal(d.DMA.Widths, []int{38}) {
		t.Errorf("ctx: %+v, want children 38", d.DMA)
	}
}

// of_device_is_compatible() on the bound device's node is decided by
// the compatible that matched (cqspi_probe(),
// drivers/spi/spi-cadence-quadspi.c): a node matched by one of the
// table's compatibles is taken not to list another of them.
func TestIsCompatible(t *testing.T) {
	src := `
static const struct foo_data foo_v = { .quirks = 1 };
static const struct foo_data foo_c = { .quirks = 2 };
static int foo_probe(struct platform_device *pdev)
{
	const struct foo_data *ddata = of_device_get_match_data(&pdev->dev);

	if (ddata && of_device_is_compatible(pdev->dev.of_node, "v,versal"))
		dma_set_mask(&pdev->dev, DMA_BIT_MASK(64));
	return 0;
}

static const struct of_device_id foo_match[] = {
	{ .compatible = "v,versal", .data = &foo_v },
	{ .compatible = "v,qspi", .data = &foo_c },
	{ }
};

static struct platform_driver foo_driver = {
	.probe = foo_probe,
	.driver = { .name = "foo", .of_match_table = foo_match },
};
`
	d := only(t, map[string]string{f: src})
	if d.DMA.Kind != kernel.DMAMatchData || !cmp.Equal(d.DMA.PerCompatible, map[string]int{"v,versal": 64, "v,qspi": 32}) {
		t.Errorf("%+v, want match-data v,versal 64, v,qspi 32", d.DMA)
	}
}

// A width read from a member the set's function assigns a constant, and
// no other reached code assigns, is that constant (xhci_gen_setup(),
// drivers/usb/host/xhci.c); a member another reached function assigns
// too stays a runtime width.
func TestMemberWidth(t *testing.T) {
	src := func(quirk string) string {
		return driverC("v,foo", `
static void foo_quirks(struct foo *xhci)
{
	`+quirk+`
}

static int foo_setup(struct device *dev, struct foo *xhci)
{
	xhci->dma_mask_bits = 64;
	foo_quirks(xhci);
	if (xhci->hcc & 1 && !dma_set_mask(dev, DMA_BIT_MASK(xhci->dma_mask_bits)))
		return 0;
	return dma_set_mask(dev, DMA_BIT_MASK(32));
}`, `	foo_setup(dev, devm_kzalloc(dev, 64, GFP_KERNEL));`)
	}
	d := only(t, map[string]string{f: src("xhci->hcc = 0;")})
	if d.DMA.Kind != kernel.DMAChoice || !cmp.Equal(d.DMA.Widths, []int{32, 64}) {
		t.Errorf("member: %+v, want choice 32, 64", d.DMA)
	}
	d = only(t, map[string]string{f: src("xhci->dma_mask_bits = 36;")})
	if d.DMA.Kind != kernel.DMARuntime {
		t.Errorf("member assigned elsewhere: %+v, want runtime", d.DMA)
	}
}

// A variable assigned again holds the match data only before that
// assignment: a set after it keeps its condition.
func TestMatchDataUntil(t *testing.T) {
	src := `
static int foo_probe(struct platform_device *pdev)
{
	struct foo *priv = devm_kzalloc(&pdev->dev, sizeof(*priv), GFP_KERNEL);

	priv->ver = (unsigned long)device_get_match_data(&pdev->dev);
	if (priv->ver == 1 && foo_read(priv))
		priv->ver = 2;
	if (priv->ver == 2)
		dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(44));
	return 0;
}

static const struct of_device_id foo_match[] = {
	{ .compatible = "v,one", .data = (void *)1 },
	{ .compatible = "v,two", .data = (void *)2 },
	{ }
};

static struct platform_driver foo_driver = {
	.probe = foo_probe,
	.driver = { .name = "foo", .of_match_table = foo_match },
};
`
	d := only(t, map[string]string{f: src})
	if d.DMA.Kind != kernel.DMAChoice || !cmp.Equal(d.DMA.Widths, []int{32, 44}) {
		t.Errorf("%+v, want choice 32, 44 (v,one can become 2)", d.DMA)
	}
}
