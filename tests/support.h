/* Shared helpers for the Check suites. */
#ifndef PF_TEST_SUPPORT_H
#define PF_TEST_SUPPORT_H

#include <stdint.h>
#include <stdio.h>

#include "portaflow.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes `text` to a fresh temporary file and returns its path (static
 * buffer per call slot: copy it if you need two at once). */
const char *pf_test_tmpfile(const char *text);
/* Path of a new empty temporary file (the caller may write it). */
const char *pf_test_tmpname(void);

/* The whole file as a malloc'ed NUL-terminated string (caller frees);
 * NULL if it cannot be opened. */
char *pf_test_read_file(const char *path);

/* Runs the portaflow binary ($PF_BIN) with argv[] (NULL-terminated, without
 * argv[0]), stdin from `in_path` (NULL = /dev/null). Captures stdout and
 * stderr into malloc'ed strings (caller frees). Returns the exit status. */
int pf_test_run_cli(const char *const *args, const char *in_path,
                    char **out, char **err);

/* Reference max-flow values from the installed peers (C++, tests only).
 * Return -1 if the peer is not compiled in. */
int64_t pf_peer_boost_value(const pf_network *net);
int64_t pf_peer_lemon_value(const pf_network *net);

/* For suites run once per backend: the (backend, device) pairs to test.
 * Returns how many devices `backend` has; 0 with *why filled when it is
 * not compiled in or has none (the suite then exits 77 = SKIP). */
int pf_test_backend_devices(const char *backend, char *why, size_t why_len);
/* For a suite's main: 1, with "SKIP: why" printed, when `backend` is not
 * compiled in or has no device (the suite then returns PF_TEST_SKIP). */
int pf_test_backend_missing(const char *backend);
/* pf_device_desc.maxflow_bits of each of `backend`'s devices, in order,
 * into bits[0..max). */
void pf_test_device_widths(const char *backend, int *bits, int max);
/* Whether the 32-bit max-flow path may take net: its capacity out of the
 * source below 2^31 - 1 (driver.c: cap_bits_needed; a residual pair is an
 * input arc and its reverse, so the clamped pair sums stay within it). */
int pf_test_fits_32_bits(const pf_network *net);
/* PORTAFLOW_TEST_REDUCED=1 (the second OpenCL implementation's runs,
 * tests/meson.build): suites take fewer seeds. */
int pf_test_reduced(void);
/* splitmix64: the suites' reproducible random numbers (a seed is a test's
 * case), and one in lo..hi. */
static inline uint64_t pf_test_rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline int64_t pf_test_rng_range(uint64_t *state, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(pf_test_rng_next(state) % (uint64_t)(hi - lo + 1));
}

/* Like ck_assert_msg, but silent when it holds: Check records a location
 * for every passing assertion, which costs a write per check in loops.
 * (Expands to ck_abort_msg: include <check.h> first.) */
#define PF_EXPECT(cond, ...)           \
    do {                               \
        if (!(cond))                   \
            ck_abort_msg(__VA_ARGS__); \
    } while (0)

/* Check assertions: a PF_E_INPUT status whose message starts with
 * "NAME:LINE: " and holds `needle`; input arc i of `net` is
 * (tail, head, cap) in 0-based ids. */
void pf_test_assert_input_error(const pf_status *st, const char *name, int line,
                                const char *needle);
void pf_test_assert_arc(const pf_network *net, int64_t i, int64_t tail, int64_t head,
                        int64_t cap);

/* Exit status meson reads as "skipped". */
#define PF_TEST_SKIP 77

/* Runs suite s in this process; the exit status for main. No fork: GPU
 * runtimes do not survive fork() once initialised, and the suites' device
 * probes initialise them. */
struct Suite;
int pf_test_run_in_process(struct Suite *s);
/* Runs suite s, each test in a child process (Check's default, so a crash
 * fails one test); the exit status for main. */
int pf_test_run(struct Suite *s);

#ifdef __cplusplus
}
#endif
#endif
