/* Multi-pass scan and stream compaction (reduce, then scan).
 *
 * No kernel waits for another work-group: the host runs the passes in
 * order on an in-order queue (cl_steps.c):
 *   1. reduce: each work-group sums its tile into sums[group];
 *   2. the tile sums are scanned in place, recursively by the same passes;
 *   3. scan (or scatter): each work-group scans its tile again, starting
 *      from its scanned tile sum.
 * A tile is `rows` rows of get_local_size(0) elements; work-item l handles
 * element l of every row, so neighbouring work-items read neighbouring
 * elements. Indices are int64: counts go up to 2^31 - 1 and beyond.
 *
 * The last work-group of a scan writes the grand total to total[0]: the
 * outermost pass runs last on the queue, so its total is the one read.
 * Parameters: pf_kernel_table.h (PF_SCAN_KERNELS). */
#include "pf_vendor.h"
#include "pf_kernel_table.h"

PF_FN long pf_tile_base(int rows)
{
    return (long)get_group_id(0) * (long)get_local_size(0) * rows;
}

PF_KERNEL(reduce_i32)
{
    long size = (long)get_local_size(0);
    long i = pf_tile_base(rows) + (long)get_local_id(0);
    long partial = 0;
    for (int r = 0; r < rows && i < count; r++, i += size) {
        int v = in[i];
        partial += predicate ? (v != 0) : v;
    }
    long tile_sum = pf_group_sum(partial, scratch);
    if (get_local_id(0) == 0)
        sums[get_group_id(0)] = tile_sum;
}

PF_KERNEL(reduce_i64)
{
    long size = (long)get_local_size(0);
    long i = pf_tile_base(rows) + (long)get_local_id(0);
    long partial = 0;
    for (int r = 0; r < rows && i < count; r++, i += size)
        partial += in[i];
    long tile_sum = pf_group_sum(partial, scratch);
    if (get_local_id(0) == 0)
        sums[get_group_id(0)] = tile_sum;
}

/* The loops below stop at the first row that starts past count; that test
 * is the same for the whole group, so all work-items meet the same
 * barriers. */

PF_KERNEL(scan_i32)
{
    long size = (long)get_local_size(0);
    long row_start = pf_tile_base(rows);
    long carry = use_offsets ? offsets[get_group_id(0)] : 0;
    for (int r = 0; r < rows && row_start < count; r++, row_start += size) {
        long i = row_start + (long)get_local_id(0);
        long v = i < count ? in[i] : 0;
        long row_total;
        long before = pf_group_exclusive_scan(v, scratch, &row_total);
        if (i < count)
            out[i] = (int)(carry + before);
        carry += row_total;
    }
    if (get_group_id(0) == get_num_groups(0) - 1 && get_local_id(0) == 0)
        total[0] = carry;
}

/* In place: each element is read and written by the same work-item. */
PF_KERNEL(scan_i64_inplace)
{
    long size = (long)get_local_size(0);
    long row_start = pf_tile_base(rows);
    long carry = use_offsets ? offsets[get_group_id(0)] : 0;
    for (int r = 0; r < rows && row_start < count; r++, row_start += size) {
        long i = row_start + (long)get_local_id(0);
        long v = i < count ? data[i] : 0;
        long row_total;
        long before = pf_group_exclusive_scan(v, scratch, &row_total);
        if (i < count)
            data[i] = carry + before;
        carry += row_total;
    }
    if (get_group_id(0) == get_num_groups(0) - 1 && get_local_id(0) == 0)
        total[0] = carry;
}

/* Stream compaction: index i goes to out[number of flagged indices < i],
 * so the output is in increasing order (stable). Writes at or past out_cap
 * are dropped; the host sees the total and reports the overflow. */
PF_KERNEL(scatter_i32)
{
    long size = (long)get_local_size(0);
    long row_start = pf_tile_base(rows);
    long carry = use_offsets ? offsets[get_group_id(0)] : 0;
    for (int r = 0; r < rows && row_start < count; r++, row_start += size) {
        long i = row_start + (long)get_local_id(0);
        long keep = (i < count && flags[i] != 0) ? 1 : 0;
        long row_total;
        long before = pf_group_exclusive_scan(keep, scratch, &row_total);
        if (keep && carry + before < out_cap)
            out[carry + before] = (int)i;
        carry += row_total;
    }
    if (get_group_id(0) == get_num_groups(0) - 1 && get_local_id(0) == 0)
        total[0] = carry;
}
