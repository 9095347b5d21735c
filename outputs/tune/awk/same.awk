function cpulist(s,    n, i, p, r, c, max, set, out, first) {
	gsub(/[ \t\n]/, "", s)
	n = split(s, p, ",")
	max = -1
	for (i = 1; i <= n; i++) {
		if (p[i] == "")
			continue
		if (p[i] ~ /^[0-9]+$/) {
			r[1] = p[i]
			r[2] = p[i]
		} else if (p[i] ~ /^[0-9]+-[0-9]+$/) {
			split(p[i], r, "-")
		} else {
			return s
		}
		for (c = r[1] + 0; c <= r[2] + 0; c++)
			set[c] = 1
		if (r[2] + 0 > max)
			max = r[2] + 0
	}
	out = ""
	for (c = 0; c <= max; c++) {
		if (!(c in set))
			continue
		first = c
		while ((c + 1) in set)
			c++
		out = out (out == "" ? "" : ",") (first == c ? c : first "-" c)
	}
	return out
}
function norm(v) {
	if (kind == "mask") {
		gsub(/[, \t\n]/, "", v)
		v = tolower(v)
		sub(/^0+/, "", v)
		if (v == "")
			v = "0"
	} else if (kind == "list") {
		v = cpulist(v)
	} else {
		gsub(/[ \t\n]+/, " ", v)
		sub(/^ /, "", v)
		sub(/ $/, "", v)
	}
	return v
}
function expand(s, set,    n, i, p, r, c) {
	gsub(/[ \t\n]/, "", s)
	n = split(s, p, ",")
	for (i = 1; i <= n; i++) {
		if (p[i] ~ /^[0-9]+$/)
			set[p[i] + 0] = 1
		else if (p[i] ~ /^[0-9]+-[0-9]+$/) {
			split(p[i], r, "-")
			for (c = r[1] + 0; c <= r[2] + 0; c++)
				set[c] = 1
		}
	}
}
BEGIN {
	if (kind == "within") {
		expand(ENVIRON["BOARDC_WANT"], want)
		expand(ENVIRON["BOARDC_HAVE"], have)
		for (c in have)
			if (!(c in want))
				exit 1
		exit 0
	}
	exit norm(ENVIRON["BOARDC_WANT"]) != norm(ENVIRON["BOARDC_HAVE"])
}
