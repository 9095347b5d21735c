package tune

import _ "embed" // for the script library

// library is the fixed part of tune.sh, after the board's actions. It
// must stay POSIX sh (dash, busybox ash) and shellcheck-clean. It calls
// the board's part (actions, board_matches) and reads its variables
// (board, pins_irqs), so shellcheck checks it inside each generated
// tune.sh rather than alone. Its awk programs are single-quoted and hold
// no single quote.
//
//go:embed lib.sh
var library string
