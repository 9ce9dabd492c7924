/* Shared pieces of the libFuzzer targets: the readers take a path, so each
 * input is written to an in-memory file (memfd) and named by its
 * /proc/self/fd path; a failed property aborts, which libFuzzer reports as
 * a crash and saves the input. */
#ifndef PF_FUZZ_SUPPORT_H
#define PF_FUZZ_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

#include "portaflow.h"

/* In-memory files a target may use at once (graph, solution, rewrite). */
enum { FUZZ_FILES = 3 };

/* Replaces in-memory file `slot` with the `size` bytes at `data` and returns
 * a path that opens it (valid until the next call for the same slot).
 * Aborts if the system refuses: that is a harness failure, not a finding. */
const char *fuzz_file(int slot, const void *data, size_t size);

/* Aborts with "fuzz: WHAT: MESSAGE" on stderr. */
_Noreturn void fuzz_fail(const char *what, const char *message);

/* Aborts unless rc is PF_OK, naming the call and its status message. */
void fuzz_expect_ok(int rc, const char *call, const pf_status *st);

/* The first character of the text that is not blank (' ', '\t', '\r') and
 * not on an empty line or a line starting with skip_comment (0 = none):
 * the readers choose a format by it. '\0' at the end of the text. */
char fuzz_first_char(const uint8_t *data, size_t size, char skip_comment);

/* Splits data at the first FUZZ_SEPARATOR: the text before it in *first,
 * the text after in *second. Without a separator *second is empty. */
#define FUZZ_SEPARATOR "\n----\n"
void fuzz_split(const uint8_t *data, size_t size, const uint8_t **first, size_t *first_len,
                const uint8_t **second, size_t *second_len);

#endif
