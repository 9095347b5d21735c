// Command gen writes a synthetic board description (a CUE module with an SoC
// package and a board package importing it) for benchmarks, and prints the
// board package's directory. With -dts it also writes the equivalent
// devicetree and its YAML bindings (synth.DTS), for Zephyr's edtlib, and
// prints the .dts and the bindings directory after it.
//
//	go run ./bench/gen -n 1000 -o /tmp/synth
//	go run ./bench/gen -n 1000 -o /tmp/synth -dts /tmp/synth-dts
package main

import (
	"flag"
	"fmt"
	"os"

	"boardc.dev/boardc/internal/synth"
)

func main() {
	n := flag.Int("n", 100, "DMA masters")
	buses := flag.Int("buses", 0, "buses (0: one per 25 masters, at least 6)")
	cpus := flag.Int("cpus", 16, "CPUs")
	cluster := flag.Int("cluster", 2, "CPUs per cluster")
	netEvery := flag.Int("net-every", 20, "a network interface with RPS on every n-th master (0: none)")
	out := flag.String("o", "", "output directory (the module root)")
	dtsDir := flag.String("dts", "", "also write the equivalent devicetree and bindings in this directory")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: gen -n N -o DIR [-buses M] [-cpus K] [-cluster C] [-net-every E] [-dts DIR]")
		os.Exit(2)
	}
	p := synth.Default(*n)
	if *buses > 0 {
		p.Buses = *buses
	}
	p.CPUs, p.ClusterSize, p.NetEvery = *cpus, *cluster, *netEvery
	dir, err := synth.Write(*out, p)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	fmt.Println(dir)
	if *dtsDir != "" {
		dts, bindings, err := synth.WriteDTS(*dtsDir, p)
		if err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
		fmt.Println(dts)
		fmt.Println(bindings)
	}
}
