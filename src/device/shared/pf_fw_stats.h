/* The body of fw_stats (device.h), written once for the CUDA and OpenCL
 * kernels: one work-item's share of a row's statistics, folded entry by
 * entry. The caller defines pf_fw_i64 and pf_fw_u64 (64-bit types) and
 * reduces the work-items' partials over its work-group. Sums wrap modulo
 * 2^64 like the host's (cli_apsp.c), so the result is exact in any order. */

/* d(i, j), already known finite (at most the host's PF_FW_INF_* / 2),
 * into (count, sum, most); the diagonal adds to the sum only. */
#define PF_FW_STATS_FOLD(d, i, j, count, sum, most)             \
    do {                                                        \
        (sum) += (pf_fw_u64)(d);                                \
        if ((i) != (j)) {                                       \
            (count)++;                                          \
            (most) = (d) > (most) ? (d) : (most);               \
        }                                                       \
    } while (0)

/* Columns lid, lid + items, ... below n of row i (its first entry at
 * row[0], elements of type elem_t): "no path" is an entry above inf_half,
 * compared in the element type (the host's test, apsp_matrix.c). */
#define PF_FW_STATS_ROW(elem_t, row, i, n, lid, items, inf_half, count, sum, most) \
    do {                                                                           \
        for (int j_ = (lid); j_ < (n); j_ += (items)) {                            \
            const elem_t e_ = (row)[j_];                                           \
            if (e_ <= (elem_t)(inf_half)) {                                        \
                const pf_fw_i64 d_ = (pf_fw_i64)e_;                                \
                PF_FW_STATS_FOLD(d_, (i), j_, (count), (sum), (most));             \
            }                                                                      \
        }                                                                          \
    } while (0)
