/* The body of fw_stats (device.h), written once for the CUDA and OpenCL
 * kernels: one work-item's share of a row's statistics, folded entry by
 * entry. The caller defines pf_fw_i64 and pf_fw_u64 (64-bit types) and
 * reduces the work-items' partials over its work-group. Sums wrap modulo
 * 2^64 like the host's (cli_apsp.c), so the result is exact in any order. */

/* d(i, j) into (count, sum, most): finite means at most inf_half (the
 * host's "no path" test is d > PF_FW_INF_* / 2); the diagonal adds to the
 * sum only. */
#define PF_FW_STATS_FOLD(d, i, j, inf_half, count, sum, most)   \
    do {                                                        \
        if ((d) <= (inf_half)) {                                \
            (sum) += (pf_fw_u64)(pf_fw_i64)(d);                 \
            if ((i) != (j)) {                                   \
                (count)++;                                      \
                (most) = (d) > (most) ? (d) : (most);           \
            }                                                   \
        }                                                       \
    } while (0)

/* Columns lid, lid + items, ... below n of row i (its first entry at
 * row[0]). */
#define PF_FW_STATS_ROW(row, i, n, lid, items, inf_half, count, sum, most) \
    do {                                                                   \
        for (int j_ = (lid); j_ < (n); j_ += (items)) {                    \
            const pf_fw_i64 d_ = (pf_fw_i64)(row)[j_];                     \
            PF_FW_STATS_FOLD(d_, (i), j_, (inf_half), (count), (sum), (most)); \
        }                                                                  \
    } while (0)
