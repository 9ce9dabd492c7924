/* One row of one Floyd-Warshall step on a row-major matrix, written once
 * for the engines that run it on the host: the sequential engine's triple
 * loop and the OpenMP backend's plain variant (the study's "Normal" and
 * "OpenMP" code). PF_FW_PLAIN_ROW(SUFFIX, TYPE, ATTR) defines
 *
 *     static ATTR void pf_fw_plain_row_SUFFIX(TYPE *dist, int32_t *next,
 *                                             int64_t n, int64_t i, int64_t k)
 *
 * which relaxes row i through vertex k: d(i,j) = min(d(i,j), d(i,k) + d(k,j)),
 * and with next hops (next != NULL) takes next(i,k) where a path through k
 * is strictly shorter. ATTR lets a caller keep the compiler's vectoriser
 * out (the study's scalar columns). */
#ifndef PF_FW_ROW_H
#define PF_FW_ROW_H

#include <stdint.h>

#define PF_FW_PLAIN_ROW(SUFFIX, TYPE, ATTR)                                                 \
    static ATTR void pf_fw_plain_row_##SUFFIX(TYPE *dist, int32_t *next, int64_t n,        \
                                              int64_t i, int64_t k)                        \
    {                                                                                      \
        TYPE *row_i = dist + i * n, d_ik = row_i[k];                                       \
        const TYPE *row_k = dist + k * n;                                                  \
        if (next) {                                                                        \
            int32_t *next_i = next + i * n, hop = next_i[k];                               \
            for (int64_t j = 0; j < n; j++)                                                \
                if (d_ik + row_k[j] < row_i[j]) {                                          \
                    row_i[j] = d_ik + row_k[j];                                            \
                    next_i[j] = hop;                                                       \
                }                                                                          \
        } else {                                                                           \
            for (int64_t j = 0; j < n; j++) {                                              \
                TYPE via = d_ik + row_k[j];                                                \
                row_i[j] = via < row_i[j] ? via : row_i[j];                                \
            }                                                                              \
        }                                                                                  \
    }

#endif
