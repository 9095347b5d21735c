// Command boardc compiles declarative board descriptions (CUE) into
// device-tree fragments, driver init snippets and runtime tuning.
package main

import "os"

func main() {
	startHeap(32 << 20)
	os.Exit(run(os.Args[1:]))
}
