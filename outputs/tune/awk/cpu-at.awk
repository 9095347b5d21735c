{ print $(k % NF + 1) }
