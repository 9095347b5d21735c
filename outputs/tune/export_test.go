package tune

// Exported for the tests of package tune_test, which import the compiler
// (and so this package) to compile the in-tree boards.
var (
	RxQueues  = rxQueues
	RoundPow2 = roundPow2
)
