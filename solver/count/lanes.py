"""Vector operations on rows of :data:`~solver.count.lawparts.LANES` shoes, as numba intrinsics.

:func:`solver.count.lanelaw.lane_sums` keeps, for every node of the trie, a row of eight numbers, one
per shoe. Its inner loops are over these rows: a sum of rows picked by index, each times a path count,
and a row times a row of factors. Written as loops over the lanes, the compiler cannot prove that the
row being summed into and the rows being read are apart, and keeps them scalar. Here each loop is
written in LLVM IR with the lanes as one vector (``<8 x double>`` or ``<8 x i64>``), the running sum in a
register: one vector load and multiply-add per pair. The arithmetic is the same, element by element:
float64 products and sums (a sum in any order: see :mod:`solver.count.denselaw`), or ``uint64``
products and sums modulo 2^64.

Imported only where the lanes kernel is compiled (:func:`solver.count.lanelaw.compiled_lanes`); the
plain Python twins are :func:`solver.count.lanelaw.dot_rows` and :func:`solver.count.lanelaw.scale_rows`.
"""

from __future__ import annotations

from typing import Any

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from solver.count.lawparts import LANES


def _vector(context: Any, builder: Any, array_type: Any, array: Any) -> tuple[Any, Any, Any]:
    """The data pointer of an array argument, its element type, and the vector of :data:`LANES` of them."""
    data = context.make_array(array_type)(context, builder, array).data
    element = ir.DoubleType() if isinstance(array_type.dtype, types.Float) else ir.IntType(64)
    return data, element, ir.VectorType(element, LANES)


def _row(builder: Any, data: Any, vector: Any, index: Any) -> Any:
    """A pointer to the row of :data:`LANES` entries from ``data[index]``."""
    return builder.bitcast(builder.gep(data, [index]), vector.as_pointer())


def _wide(builder: Any, value: Any) -> Any:
    i64 = ir.IntType(64)
    return value if value.type == i64 else builder.zext(value, i64)


def _splat(builder: Any, vector: Any, value: Any) -> Any:
    undefined = ir.Constant(vector, ir.Undefined)
    first = builder.insert_element(undefined, value, ir.Constant(ir.IntType(32), 0))
    return builder.shuffle_vector(first, undefined, ir.Constant(ir.VectorType(ir.IntType(32), LANES), [0] * LANES))


@intrinsic
def _dot_rows(typingctx: Any, weights: Any, pair_node: Any, pair_count: Any, start: Any, stop: Any, out: Any) -> Any:
    sig = types.void(weights, pair_node, pair_count, start, stop, out)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        w, nodes, counts, first, last, target = args
        w_data, element, vector = _vector(context, builder, signature.args[0], w)
        node_data = context.make_array(signature.args[1])(context, builder, nodes).data
        count_data = context.make_array(signature.args[2])(context, builder, counts).data
        out_data = context.make_array(signature.args[5])(context, builder, target).data
        floats = isinstance(element, ir.DoubleType)
        acc = cgutils.alloca_once(builder, vector)
        builder.store(ir.Constant(vector, [ir.Constant(element, 0.0 if floats else 0)] * LANES), acc)
        first, last = _wide(builder, first), _wide(builder, last)
        with cgutils.for_range(builder, builder.sub(last, first)) as loop:
            p = builder.add(first, loop.index)
            row = builder.mul(_wide(builder, builder.load(builder.gep(node_data, [p]))), ir.Constant(ir.IntType(64), LANES))
            values = builder.load(_row(builder, w_data, vector, row), align=8)
            count = _splat(builder, vector, builder.load(builder.gep(count_data, [p])))
            if floats:
                total = builder.fadd(
                    builder.load(acc), builder.fmul(values, count, flags=("contract",)), flags=("reassoc", "contract")
                )
            else:
                total = builder.add(builder.load(acc), builder.mul(values, count))
            builder.store(total, acc)
        builder.store(builder.load(acc), _row(builder, out_data, vector, ir.Constant(ir.IntType(64), 0)), align=8)
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def _scale_rows(typingctx: Any, weights: Any, src: Any, dst: Any, rows: Any, table: Any, factor: Any) -> Any:
    sig = types.void(weights, src, dst, rows, table, factor)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        w, first_src, first_dst, n, tab, at = args
        w_data, element, vector = _vector(context, builder, signature.args[0], w)
        table_data = context.make_array(signature.args[4])(context, builder, tab).data
        factors = builder.load(_row(builder, table_data, vector, _wide(builder, at)), align=8)
        floats = isinstance(element, ir.DoubleType)
        step = ir.Constant(ir.IntType(64), LANES)
        first_src, first_dst = _wide(builder, first_src), _wide(builder, first_dst)
        with cgutils.for_range(builder, _wide(builder, n)) as loop:
            offset = builder.mul(loop.index, step)
            values = builder.load(_row(builder, w_data, vector, builder.add(first_src, offset)), align=8)
            product = builder.fmul(values, factors) if floats else builder.mul(values, factors)
            builder.store(product, _row(builder, w_data, vector, builder.add(first_dst, offset)), align=8)
        return context.get_dummy_value()

    return sig, codegen


dot_rows: Any = _dot_rows
"""``dot_rows(weights, pair_node, pair_count, start, stop, out)``: ``out[0:LANES] = Σ_p pair_count[p] ×
weights[LANES pair_node[p] : LANES pair_node[p] + LANES]`` over ``start <= p < stop`` (compiled code only)."""

scale_rows: Any = _scale_rows
"""``scale_rows(weights, src, dst, rows, table, factor)``: for ``i < rows``, the row of ``weights`` at
``dst + LANES i`` becomes the row at ``src + LANES i`` times ``table[factor:factor + LANES]``, lane by
lane (compiled code only; the rows read and written must not overlap)."""
