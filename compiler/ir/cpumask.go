package ir

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// SortedCPUs returns cpus sorted, without duplicates or negative numbers.
func SortedCPUs(cpus []int) []int {
	out := make([]int, 0, len(cpus))
	for _, c := range cpus {
		if c >= 0 {
			out = append(out, c)
		}
	}
	sort.Ints(out)
	n := 0
	for i, c := range out {
		if i == 0 || c != out[n-1] {
			out[n] = c
			n++
		}
	}
	return out[:n]
}

// CPUList formats cpus as the kernel prints a CPU list (the %*pbl format of
// /proc/irq/N/smp_affinity_list): sorted, runs of two or more CPUs as
// "first-last", e.g. "0-1,4". An empty set is "".
func CPUList(cpus []int) string {
	s := SortedCPUs(cpus)
	var parts []string
	for i := 0; i < len(s); {
		j := i
		for j+1 < len(s) && s[j+1] == s[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, strconv.Itoa(s[i])+"-"+strconv.Itoa(s[j]))
		} else {
			parts = append(parts, strconv.Itoa(s[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// CPUMask formats cpus as a hexadecimal CPU mask in the kernel's bitmap
// format (%*pb, as rps_cpus and xps_cpus print it): 32-bit words, most
// significant first, separated by commas, every word but the first padded
// to eight digits, e.g. "3" or "1,00000001". An empty set is "0".
func CPUMask(cpus []int) string {
	s := SortedCPUs(cpus)
	if len(s) == 0 {
		return "0"
	}
	words := make([]uint32, s[len(s)-1]/32+1)
	for _, c := range s {
		words[c/32] |= 1 << uint(c%32)
	}
	var b strings.Builder
	for i := len(words) - 1; i >= 0; i-- {
		if i == len(words)-1 {
			fmt.Fprintf(&b, "%x", words[i])
		} else {
			fmt.Fprintf(&b, ",%08x", words[i])
		}
	}
	return b.String()
}

// CPUText names a CPU set in prose: "CPU 3", "CPUs 0-1", "no CPU".
func CPUText(cpus []int) string {
	switch s := SortedCPUs(cpus); len(s) {
	case 0:
		return "no CPU"
	case 1:
		return "CPU " + CPUList(s)
	default:
		return "CPUs " + CPUList(s)
	}
}
