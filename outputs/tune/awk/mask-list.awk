BEGIN {
	m = tolower(m)
	gsub(/[, \t\n]/, "", m)
	if (m !~ /^[0-9a-f]+$/)
		exit 0
	n = length(m)
	for (i = n; i >= 1; i--) {
		d = index("0123456789abcdef", substr(m, i, 1)) - 1
		for (b = 0; b < 4; b++) {
			if (d % 2)
				set[(n - i) * 4 + b] = 1
			d = int(d / 2)
		}
	}
	out = ""
	for (c = 0; c < n * 4; c++) {
		if (!(c in set))
			continue
		first = c
		while ((c + 1) in set)
			c++
		out = out (out == "" ? "" : ",") (first == c ? c : first "-" c)
	}
	if (out != "")
		print out
}
