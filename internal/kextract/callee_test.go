package kextract

import (
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/kernel"
	"github.com/google/go-cmp/cmp"
)

// calleeCore is a library core in the shape of stmmac_dvr_probe()
// (drivers/net/ethernet/stmicro/stmmac/stmmac_main.c): the mask width
// is the platform data's or the one a feature-register callback
// decodes, which the probe reaches only through an ops table.
const calleeCore = `
int core_probe(struct device *device, struct plat_data *plat)
{
	struct core_priv *priv = devm_kzalloc(device, sizeof(*priv), GFP_KERNEL);
	int ret;

	priv->plat = plat;
	core_hwif_init(priv);
	if (priv->plat->host_dma_width)
		priv->dma_cap.host_dma_width = priv->plat->host_dma_width;
	else
		priv->dma_cap.host_dma_width = priv->dma_cap.addr64;
	if (priv->dma_cap.host_dma_width) {
		ret = dma_set_mask_and_coherent(device, DMA_BIT_MASK(priv->dma_cap.host_dma_width));
		if (ret) {
			ret = dma_set_mask_and_coherent(device, DMA_BIT_MASK(32));
			priv->dma_cap.host_dma_width = 32;
		}
	}
	return ret;
}
`

// calleeFeature decodes the width field the way dwmac4_get_hw_feature()
// does (dwmac4_dma.c).
const calleeFeature = `
static int core4_get_hw_feature(void __iomem *ioaddr, struct dma_features *dma_cap)
{
	u32 hw_cap = readl(ioaddr);

	dma_cap->addr64 = (hw_cap & 0xc000) >> 14;
	switch (dma_cap->addr64) {
	case 0:
		dma_cap->addr64 = 32;
		break;
	case 1:
		dma_cap->addr64 = 40;
		break;
	default:
		dma_cap->addr64 = 32;
		break;
	}
	return 0;
}

const struct dma_ops core4_dma_ops = {
	.get_hw_feature = core4_get_hw_feature,
};
`

// glueC is a glue driver named name whose probe runs body and then the
// core's probe.
func glueC(name, before, body string) string {
	return before + `
static int ` + name + `_probe(struct platform_device *pdev)
{
	struct plat_data *plat = devm_kzalloc(&pdev->dev, 64, GFP_KERNEL);
` + body + `
	return core_probe(&pdev->dev, plat);
}

static const struct of_device_id ` + name + `_of_match[] = {
	{ .compatible = "v,` + name + `", .data = &` + name + `_data },
	{ }
};

static struct platform_driver ` + name + `_driver = {
	.probe = ` + name + `_probe,
	.driver = {
		.name = "` + name + `",
		.of_match_table = ` + name + `_of_match,
	},
};
module_platform_driver(` + name + `_driver);
`
}

// A width that only callbacks the probe does not follow assign, each a
// constant, is a choice of those constants and the default; a glue
// that sets the platform width itself stays runtime; a member a
// callback assigns something else stays runtime too.
func TestCalleeWidths(t *testing.T) {
	data := func(name string) string {
		return "static const struct glue_data " + name + "_data = { .w = 34 };\n"
	}
	files := map[string]string{
		"drivers/x/core.c":  calleeCore,
		"drivers/x/core4.c": calleeFeature,
		"drivers/x/plain.c": glueC("plain", data("plain"), ""),
		"drivers/x/own.c": glueC("own", data("own"),
			"\tconst struct glue_data *d = of_device_get_match_data(&pdev->dev);\n\tplat->host_dma_width = d->w;"),
	}
	c := FromSources("6.12.1", files)
	got := map[string]kernel.DMA{}
	for _, d := range c.Drivers {
		got[d.Name] = d.DMA
	}
	p := got["plain"]
	if p.Kind != kernel.DMAChoice || !cmp.Equal(p.Widths, []int{32, 40}) {
		t.Errorf("plain: %+v, want choice 32, 40", p)
	}
	for _, want := range []string{
		"priv->plat->host_dma_width is assigned by no code the probe reaches (0)",
		"priv->dma_cap.addr64 is 32 or 40 as drivers/x/core4.c:2 core4_get_hw_feature() assign it",
		"else the default of 32",
	} {
		if !strings.Contains(p.Reason, want) {
			t.Errorf("plain: reason %q lacks %q", p.Reason, want)
		}
	}
	if o := got["own"]; o.Kind != kernel.DMARuntime {
		t.Errorf("own: %+v, want runtime", o)
	}

	files["drivers/x/core4.c"] = strings.Replace(calleeFeature, "\tdefault:\n", "\tcase 3:\n", 1)
	c = FromSources("6.12.1", files)
	for _, d := range c.Drivers {
		if d.Name == "plain" && d.DMA.Kind != kernel.DMARuntime {
			t.Errorf("raw field left standing: %+v, want runtime", d.DMA)
		}
	}
}

// A glue whose own ops table of the callback's type lacks the
// operation keeps the default: the callback never runs for it.
func TestCalleeOwnTable(t *testing.T) {
	own := `static const struct glue_data ownops_data = { .w = 34 };

static int ownops_dma_init(void __iomem *ioaddr)
{
	return 0;
}

static const struct dma_ops ownops_dma_ops = {
	.init = ownops_dma_init,
};

static struct mac_device_info *ownops_setup(void *ppriv)
{
	struct mac_device_info *mac = devm_kzalloc(ppriv, 64, GFP_KERNEL);

	mac->dma = &ownops_dma_ops;
	return mac;
}
`
	c := FromSources("6.12.1", map[string]string{
		"drivers/x/core.c":    calleeCore,
		"drivers/x/core4.c":   calleeFeature,
		"drivers/x/ownops.c":  glueC("ownops", own, "\tplat->setup = ownops_setup;"),
		"drivers/x/withops.c": glueC("withops", strings.ReplaceAll(strings.Replace(own, ".init = ownops_dma_init,", ".init = ownops_dma_init,\n\t.get_hw_feature = core4_get_hw_feature,", 1), "ownops", "withops"), "\tplat->setup = withops_setup;"),
	})
	got := map[string]kernel.DMA{}
	for _, d := range c.Drivers {
		got[d.Name] = d.DMA
	}
	o := got["ownops"]
	if o.Kind != kernel.DMANone || len(o.Widths) != 0 || !strings.HasSuffix(o.Reason, "so no set runs: the default of 32 stands") {
		t.Errorf("ownops: %+v, want none, no set running", o)
	}
	if want := "priv->dma_cap.addr64 is assigned only by drivers/x/core4.c:2 core4_get_hw_feature() (the driver's own struct dma_ops ownops_dma_ops (drivers/x/ownops.c:8) has no .get_hw_feature): 0"; !strings.Contains(o.Reason, want) {
		t.Errorf("ownops: reason %q lacks %q", o.Reason, want)
	}
	if w := got["withops"]; w.Kind != kernel.DMAChoice || !cmp.Equal(w.Widths, []int{32, 40}) {
		t.Errorf("withops: %+v, want choice 32, 40", w)
	}
}
