/* libFuzzer target: the update-stream reader of `portaflow session`
 * (updates.h), 1-based and 0-based, batch by batch to the end of the
 * input. Any input must give batches or a clean PF_E_INPUT / PF_E_NOMEM
 * that names FILE:LINE (and stays on later calls). Every change read must
 * be in range (arcs and vertices 0-based and >= 0, addv >= 1, capacities
 * finite and >= 0), and a batch written back as text must read back as
 * the same changes. */
#define _GNU_SOURCE
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_support.h"
#include "updates.h"

/* At most this many batches per input: an input of `solve` lines only
 * is a batch per line, and that is all covered after a few. */
enum { MAX_BATCHES = 4096 };

static void check_change(const pf_update *u)
{
    int ok = 1;
    switch (u->kind) {
    case PF_UPDATE_CAP:
        ok = u->arc >= 0;
        break;
    case PF_UPDATE_ADD:
        ok = u->tail >= 0 && u->head >= 0;
        break;
    case PF_UPDATE_DEL:
        ok = u->arc >= 0;
        break;
    case PF_UPDATE_ADDV:
        ok = u->count >= 1;
        break;
    case PF_UPDATE_SOURCE:
    case PF_UPDATE_SINK:
        ok = u->tail >= 0;
        break;
    default:
        ok = 0;
    }
    if (u->kind == PF_UPDATE_CAP || u->kind == PF_UPDATE_ADD)
        ok = ok && (u->is_real ? isfinite(u->real_capacity) && u->real_capacity >= 0
                               : u->capacity >= 0);
    if (!ok)
        fuzz_fail("pf_update_reader_next", "a change out of range was accepted");
}

/* One change as the stream writes it (ids from base). */
static void write_change(FILE *out, const pf_update *u, int base)
{
    static const char *const words[] = {[PF_UPDATE_CAP] = "cap", [PF_UPDATE_ADD] = "add",
                                        [PF_UPDATE_DEL] = "del", [PF_UPDATE_ADDV] = "addv",
                                        [PF_UPDATE_SOURCE] = "source", [PF_UPDATE_SINK] = "sink"};
    fprintf(out, "%s", words[u->kind]);
    if (u->kind == PF_UPDATE_CAP || u->kind == PF_UPDATE_DEL)
        fprintf(out, " %lld", (long long)u->arc + 1);
    if (u->kind == PF_UPDATE_ADD || u->kind == PF_UPDATE_SOURCE || u->kind == PF_UPDATE_SINK)
        fprintf(out, " %lld", (long long)u->tail + base);
    if (u->kind == PF_UPDATE_ADD)
        fprintf(out, " %lld", (long long)u->head + base);
    if (u->kind == PF_UPDATE_ADDV)
        fprintf(out, " %lld", (long long)u->count);
    if (u->kind == PF_UPDATE_CAP || u->kind == PF_UPDATE_ADD) {
        if (u->is_real)
            fprintf(out, " %.17e", u->real_capacity);
        else
            fprintf(out, " %lld", (long long)u->capacity);
    }
    fputc('\n', out);
}

/* The batch written back and read again: the same changes. */
static void check_round_trip(const pf_update_batch *b, int zero_based)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out)
        fuzz_fail("open_memstream", "failed");
    for (int64_t k = 0; k < b->count; k++)
        write_change(out, &b->items[k], zero_based ? 0 : 1);
    fputs("solve\n", out);
    fclose(out);
    pf_update_reader *r = NULL;
    pf_status st;
    fuzz_expect_ok(pf_update_reader_open(fuzz_file(1, text, len), zero_based, &r, &st),
                   "pf_update_reader_open (round trip)", &st);
    pf_update_batch again = {0};
    if (pf_update_reader_next(r, &again, &st) != 1 || again.count != b->count)
        fuzz_fail("round trip", st.message);
    for (int64_t k = 0; k < b->count; k++) {
        const pf_update *x = &b->items[k], *y = &again.items[k];
        if (x->kind != y->kind || x->arc != y->arc || x->tail != y->tail || x->head != y->head ||
            x->count != y->count || x->capacity != y->capacity || x->is_real != y->is_real ||
            x->real_capacity != y->real_capacity)
            fuzz_fail("round trip", "a change read back differently");
    }
    pf_update_batch_free(&again);
    pf_update_reader_close(r);
    free(text);
}

static void read_all(const char *path, int zero_based)
{
    pf_update_reader *r = NULL;
    pf_status st;
    int rc = pf_update_reader_open(path, zero_based, &r, &st);
    if (rc) {
        if (rc != PF_E_INPUT && rc != PF_E_NOMEM)
            fuzz_fail("pf_update_reader_open", st.message);
        return;
    }
    pf_update_batch b = {0};
    int batches = 0;
    while ((rc = pf_update_reader_next(r, &b, &st)) == 1 && batches++ < MAX_BATCHES) {
        for (int64_t k = 0; k < b.count; k++)
            check_change(&b.items[k]);
        char where[600];
        pf_update_reader_where(r, &b, 0, where, sizeof where);
        if (strncmp(where, path, strlen(path)) != 0)
            fuzz_fail("pf_update_reader_where", where);
        check_round_trip(&b, zero_based);
    }
    if (rc != 0 && rc != 1) {
        if (rc != PF_E_INPUT && rc != PF_E_NOMEM)
            fuzz_fail("pf_update_reader_next", st.message);
        if (rc == PF_E_INPUT && strncmp(st.message, path, strlen(path)) != 0)
            fuzz_fail("pf_update_reader_next: the message names no file", st.message);
        pf_status again;
        if (pf_update_reader_next(r, &b, &again) != rc || strcmp(again.message, st.message))
            fuzz_fail("pf_update_reader_next: the failure did not stay", again.message);
    }
    pf_update_batch_free(&b);
    pf_update_reader_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(0, data, size);
    read_all(path, 0);
    read_all(path, 1);
    return 0;
}
