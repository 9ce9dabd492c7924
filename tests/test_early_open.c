/* Check suite for a device opened on a background thread
 * (src/host/early_open.[ch]), on a counting stand-in backend: the device
 * it opened is handed over once and then not closed by it, one nobody
 * took is closed when it is freed, a failed open is the taker's failure
 * (its status and message), and a taker for another backend gets nothing
 * (the device is then closed when it is freed). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "host/early_open.h"
#include "support.h"

static int opens, closes, open_fails;
static char token; /* the stand-in's one device */

static int stand_in_open(const pf_open_params *params, pf_dev **dev, pf_device_desc *desc,
                         pf_status *st)
{
    opens++;
    if (open_fails)
        return pf_fail(st, PF_E_DEVICE, "stand-in open: no device %d", params->device_index);
    *dev = (pf_dev *)&token;
    memset(desc, 0, sizeof *desc);
    strcpy(desc->name, "stand-in");
    return PF_OK;
}

static void stand_in_close(pf_dev *dev)
{
    ck_assert_ptr_eq(dev, &token);
    closes++;
}

static const pf_device_ops stand_in = {.name = "stand-in", .open = stand_in_open,
                                       .close = stand_in_close};
static const pf_device_ops other = {.name = "other"};

/* What a caller wraps: the opener and what its thread opens for. */
typedef struct wrapper {
    pf_open_params params;
    pf_early_open open;
} wrapper;

static void *open_stand_in(void *block)
{
    wrapper *w = block;
    pf_early_open_device(&w->open, &stand_in, &w->params);
    return NULL;
}

static wrapper *start(int fail)
{
    opens = closes = 0;
    open_fails = fail;
    wrapper *w = calloc(1, sizeof *w);
    ck_assert_ptr_nonnull(w);
    w->params = (pf_open_params){.device_index = 3};
    ck_assert_int_eq(pf_early_start(&w->open, open_stand_in, w), 0);
    return w;
}

/* What a taker for `ops` got: the status code, the device, its status. */
typedef struct taken {
    int rc;
    pf_dev *dev;
    pf_device_desc desc;
    pf_status st;
} taken;

static taken take(wrapper *w, const pf_device_ops *ops)
{
    taken t = {.dev = NULL};
    pf_status_ok(&t.st);
    t.rc = pf_early_take(&w->open, ops, &t.dev, &t.desc, &t.st);
    return t;
}

START_TEST(taken_device_is_not_closed)
{
    wrapper *w = start(0);
    taken t = take(w, &stand_in);
    ck_assert_int_eq(t.rc, PF_OK);
    ck_assert_ptr_eq(t.dev, &token);
    ck_assert_str_eq(t.desc.name, "stand-in");
    pf_early_join(&w->open); /* again: returns at once */
    pf_early_free(&w->open);
    ck_assert_int_eq(opens, 1);
    ck_assert_int_eq(closes, 0);
}
END_TEST

START_TEST(untaken_device_is_closed_once)
{
    wrapper *w = start(0);
    pf_early_join(&w->open);
    pf_early_free(&w->open);
    ck_assert_int_eq(opens, 1);
    ck_assert_int_eq(closes, 1);
}
END_TEST

START_TEST(failed_open_is_the_takers_failure)
{
    wrapper *w = start(1);
    taken t = take(w, &stand_in);
    ck_assert_int_eq(t.rc, PF_E_DEVICE);
    ck_assert_int_eq(t.st.code, PF_E_DEVICE);
    ck_assert_str_eq(t.st.message, "stand-in open: no device 3");
    ck_assert_ptr_null(t.dev);
    pf_early_free(&w->open);
    ck_assert_int_eq(closes, 0);
}
END_TEST

START_TEST(another_backend_takes_nothing)
{
    wrapper *w = start(0);
    taken t = take(w, &other);
    ck_assert_int_eq(t.rc, PF_OK);
    ck_assert_ptr_null(t.dev);
    ck_assert_int_eq(t.st.code, PF_OK);
    pf_early_free(&w->open);
    ck_assert_int_eq(closes, 1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("early_open");
    TCase *tc = tcase_create("early_open");
    tcase_add_test(tc, taken_device_is_not_closed);
    tcase_add_test(tc, untaken_device_is_closed_once);
    tcase_add_test(tc, failed_open_is_the_takers_failure);
    tcase_add_test(tc, another_backend_takes_nothing);
    suite_add_tcase(s, tc);
    return pf_test_run(s);
}
