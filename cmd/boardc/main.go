// Command boardc compiles declarative board descriptions (CUE) into
// device-tree fragments, the DMA capabilities and verifier module in kernel C,
// DPAA2 data-path layouts and runtime tuning.
package main

import "os"

func main() {
	heapHeadroom(32 << 20)
	os.Exit(run(os.Args[1:]))
}
