#!/usr/bin/env python3
"""bench/edtlib_driver.py: what a Zephyr build asks of edtlib, nothing written.

    PYTHONPATH=EDTLIB_SRC/src python3 bench/edtlib_driver.py [--phases] DTS BINDINGS_DIR

Builds edtlib.EDT(DTS, [BINDINGS_DIR]) (dtlib parses the tree, edtlib
matches every node to a binding, computes and type-checks its properties,
regs, ranges and interrupts, and orders the dependency graph), then reads
what Zephyr's scripts/dts/gen_defines.py reads of every node to write
devicetree_generated.h: identity, labels, status, compatibles, binding,
dependency ordinals, regs, ranges, interrupts and every property's value.
Prints the node count, the master count and a count of the values read;
with --phases, also the CPU time (user + system) of the import, of EDT()
and of the reads, to stderr. Exits 1 when edtlib reports an error or a
master lacks its binding.
"""
import sys
import time

T0 = time.process_time()
from devicetree import edtlib  # noqa: E402 (timed)


def touch(node):
    """Reads what gen_defines reads of node; returns a count of values."""
    n = 0
    vals = [node.path, node.name, node.unit_addr, node.labels, node.status,
            node.compats, node.matching_compat, node.binding_path,
            node.dep_ordinal, node.bus_node, node.on_bus, node.aliases]
    n += len(vals)
    n += len(node.depends_on) + len(node.required_by)
    for reg in node.regs:
        vals = (reg.addr, reg.size, reg.name)
        n += len(vals)
    for rng in node.ranges:
        vals = (rng.child_bus_addr, rng.parent_bus_addr, rng.length)
        n += len(vals)
    for irq in node.interrupts:
        n += 1 + len(irq.data) + (irq.controller.dep_ordinal >= 0) + (irq.name is not None)
    for name, prop in node.props.items():
        val = prop.val
        n += 1 + (len(val) if isinstance(val, (list, bytes, str)) else 1)
        if prop.type == "phandle-array":
            for entry in val:
                if entry is not None:
                    n += len(entry.data)
    return n


def main():
    args = sys.argv[1:]
    phases = args[:1] == ["--phases"]
    if phases:
        args = args[1:]
    if len(args) != 2:
        print("usage: edtlib_driver.py [--phases] DTS BINDINGS_DIR", file=sys.stderr)
        sys.exit(2)
    t1 = time.process_time()
    try:
        edt = edtlib.EDT(args[0], [args[1]], werror=True)
    except edtlib.EDTError as e:
        print(f"edtlib: {e}", file=sys.stderr)
        sys.exit(1)
    t2 = time.process_time()
    total = sum(touch(node) for node in edt.nodes)
    if phases:
        print(f"cpu_s import {t1 - T0:.3f} EDT {t2 - t1:.3f} read {time.process_time() - t2:.3f}",
              file=sys.stderr)
    masters = edt.compat2nodes.get("boardc,synth-dma", [])
    unbound = [m.path for m in masters if m.binding_path is None or "dma-coherent" not in m.props]
    if unbound:
        print(f"edtlib: {len(unbound)} masters without their binding, first {unbound[0]}", file=sys.stderr)
        sys.exit(1)
    # The node and master counts, so that a caller can check the tree.
    print(len(edt.nodes), len(masters), total)


if __name__ == "__main__":
    main()
