/* reduce_order.h: the fixed order in which a reduction combines its elements, shared by
 * the reference runtime (lib/runtime/ops.c) and the codegen (lib/codegen/codegen_row.c),
 * which must agree bit for bit (docs/design.md, "Reduction order").
 *
 * The R reduced elements of one output, in row-major order e_0..e_{R-1}, are dealt to
 * REMAT_REDUCE_LANES lanes (lane t: init op e_t op e_{t+256} op ...), then combined as a
 * block of REMAT_REDUCE_LANES / REMAT_REDUCE_WARP warps does with shuffles: within each
 * warp p[l] op= p[l+off] for off 16,8,4,2,1 (l < off), then across the warps' first lanes
 * W[l] op= W[l+off] for off 4,2,1.
 *
 * Why a header of its own: the reference runtime must not include the codegen (the
 * layers, docs/design.md "Code organisation"), yet the two share this number. */
#ifndef REMAT_REDUCE_ORDER_H
#define REMAT_REDUCE_ORDER_H

#define REMAT_REDUCE_LANES 256
#define REMAT_REDUCE_WARP 32

#endif
