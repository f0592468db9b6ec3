// smemtile/smemtile.cuh: the umbrella header; include this to get all of smemtile.
//
// The folders show the levels, as in CUB:
//   core/    layouts, tiles and views, the bank model, carving dynamic shared memory, global views
//   arch/    what one GPU generation adds (cp.async, TMA, mbarrier), used by the block level
//   block/   helpers every thread of a block (or warp) calls together: copies between global
//            memory and tiles, transposed copies, TMA loads, stencil neighbourhoods
//   device/  host functions: launch preparation (device limits cached per device), device_transpose,
//            device_stencil; each an entry (API, argument checks) -> dispatch/ (limits -> policy ->
//            launch) -> kernels/, with every tuning number and path choice in tuning/
#pragma once

#include "config.cuh"                   // version, SMEMTILE_HOST_DEVICE, SMEMTILE_CHECK

#include "core/coord.cuh"               // Coord (+, -, ==), row_major_coord, col_major_coord
#include "core/layout.cuh"              // PaddedLayout, LinearLayout, SwappedAxesLayout, WindowLayout
#include "core/swizzled_layout.cuh"     // SwizzledLayout
#include "core/tile_ref.cuh"            // TileAccess (shared accessors), TileRef (the view type), tile_ref
#include "core/static_tile.cuh"         // StaticTile, StaticTile1D, BasicStaticTile
#include "core/runtime_tile.cuh"        // RuntimeTile, RuntimeTile1D (run-time shape), make_runtime_tile
#include "core/thread_map.cuh"          // thread_coord, thread_rank, thread_coord_in_swapped_block
#include "core/banks.cuh"               // bank model: bank_cost, traversal_cost, block_cost
#include "core/transpose_layout.cuh"    // TransposeLayout, WordTransposeLayout (swizzles for transposes)
#include "core/halo_layout.cuh"         // HaloLayout (interior + halo; StaticHaloTile)
#include "core/conflict_free_tiles.cuh" // AutoPaddedTile, SwizzledTile, TransposeTile, auto_pad
#include "core/shared_address.cuh"      // shared_window_address: the address bank and PTX rules speak of
#include "core/arena.cuh"               // Arena, plan_shared_memory, carve_dynamic_shared_memory, align_to
#include "core/global_view.cuh"         // GlobalMatrix & co. (cuda::std::mdspan), AlignedMatrix, make_global_matrix, plane
#include "core/boundary.cuh"            // boundary::zero, constant, clamp, periodic, reflect, inside
#include "core/vector_type.cuh"         // detail::VectorOf: the register type of an N-byte access
#include "core/record_layout.cuh"       // record_pitch, FastDivmod (the de-interleave's shared layout)
#include "core/batch_layout.cuh"        // BatchTileGeometry, batch_stage_slot (small batches staged for register tiles)
#include "core/transposed_run.cuh"      // TransposedRunGeometry, TransposedRunCursor (a run of matrices and its transpose)
#include "core/realigned_layout.cuh"    // RealignedRowsShape, realigned_chunk_row (tiles of rows at any 16-byte phase)
#include "core/row_class_layout.cuh"    // RowClassHaloLayout (halo tiles of rows off 16 bytes, loaded by row classes)

#include "arch/global_load.cuh"         // load_global_fetch_256: a load with an L2 fetch-size hint (sm_80+)
#include "arch/global_store.cuh"        // store_global_16: one 16-byte store, however the words were assembled
#include "arch/cp_async.cuh"            // cp.async wrappers, async_copy_commit, async_copy_wait (sm_80+; fallback)
#include "arch/mbarrier.cuh"            // mbarrier wrappers (sm_90+)
#include "arch/tma.cuh"                 // TMA 2D load, tma_map_error, make_tma_map_2d (sm_90+)

#include "block/thread_group.cuh"       // ThreadBlock, FixedThreadBlock<N>, Warp
#include "block/copy.cuh"               // copy_global_to_tile, copy_tile_to_global
#include "block/transpose.cuh"          // copy_tile_to_global_transposed, copy_global_to_tile_transposed
#include "block/stencil.cuh"            // StencilShape, neighborhood (what a stencil point reads)
#include "block/async_copy.cuh"         // copy_global_to_tile_async (cp.async)
#include "block/tma_copy.cuh"           // TmaTile, make_tma_map(_2d/_3d), copy_global_to_tile_tma (sm_90+)
#include "block/tile_copy.cuh"          // TileCopy, make_tile_copy: a copy planned once for a loop
#include "block/fragment.cuh"           // Fragment, load_fragment, store_fragment: registers <-> rows
#include "block/copy_with.cuh"          // copy_global_to_tile_with<Mover> (the loads' mover named)
#include "block/runs.cuh"               // load_runs, store_runs, load_run_chunks, store_run_chunks: runs moved 16 bytes at a time
#include "block/interleave.cuh"         // RecordTile, load_records, store_channels, ...: de-interleave / interleave runs of records
#include "block/record_registers.cuh"   // split_records, merge_records: 16 bytes' worth of records regrouped in registers
#include "block/batch_tiles.cuh"        // stage_matrix_batch_async, read_batch_tiles, ...: small matrices in register tiles
#include "block/staged_batch.cuh"       // stage_run_async, store_transposed_run: small matrices of any shape, staged flat
#include "block/realign.cuh"            // load_shifted_words, chunk_from_next_lane: rows at any 16-byte phase realigned

#include "device/launch.cuh"            // device_limits, prepare_launch, launch_with_plan (cached per device)
#include "device/tuning/transpose_policy.cuh"  // TransposePolicy, DefaultTransposePolicy
#include "device/tuning/transpose_selection.cuh"  // select_transpose_algorithm
#include "device/tuning/stencil_policy.cuh"    // Stencil1DPolicy, StencilTiledPolicy, stencil_candidates
#include "device/transpose.cuh"         // device_transpose
#include "device/stencil.cuh"           // device_stencil
#include "device/tuning/stencil_steps_policy.cuh"  // StencilStepsPolicy, StencilSweepPolicy, stencil_steps_choice
#include "device/stencil_steps.cuh"     // device_stencil_steps, StencilBuffers: many steps per trip through memory
