#!/usr/bin/env python3
"""bench/edtlib_driver.py: what a Zephyr build asks of edtlib, nothing written.

    PYTHONPATH=EDTLIB_SRC/src python3 bench/edtlib_driver.py DTS BINDINGS_DIR

Builds edtlib.EDT(DTS, [BINDINGS_DIR]) (dtlib parses the tree, edtlib
matches every node to a binding, computes and type-checks its properties,
regs, ranges and interrupts, and orders the dependency graph), then reads
what Zephyr's scripts/dts/gen_defines.py reads of every node to write
devicetree_generated.h: identity, labels, status, compatibles, binding,
dependency ordinals, regs, ranges, interrupts and every property's value.
Exits 1 when edtlib reports an error or a master lacks its binding.
"""
import sys

from devicetree import edtlib


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
    if len(sys.argv) != 3:
        print("usage: edtlib_driver.py DTS BINDINGS_DIR", file=sys.stderr)
        sys.exit(2)
    try:
        edt = edtlib.EDT(sys.argv[1], [sys.argv[2]], werror=True)
    except edtlib.EDTError as e:
        print(f"edtlib: {e}", file=sys.stderr)
        sys.exit(1)
    total = sum(touch(node) for node in edt.nodes)
    masters = edt.compat2nodes.get("boardc,synth-dma", [])
    unbound = [m.path for m in masters if m.binding_path is None or "dma-coherent" not in m.props]
    if unbound:
        print(f"edtlib: {len(unbound)} masters without their binding, first {unbound[0]}", file=sys.stderr)
        sys.exit(1)
    # The node and master counts, so that a caller can check the tree.
    print(len(edt.nodes), len(masters), total)


if __name__ == "__main__":
    main()
