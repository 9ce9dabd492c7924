/* A backend's device opened on a background thread, so that its start-up
 * (driver, context, programs) overlaps the caller's own work: the thread
 * is started and joined once here, the solve takes the device it opened,
 * and what nobody took is closed when the caller lets go. The max-flow
 * driver (driver.c) and the APSP solve (apsp_open.c) each wrap one, with
 * what their thread does besides opening. */
#ifndef PF_EARLY_OPEN_H
#define PF_EARLY_OPEN_H

#include <pthread.h>

#include "../common/status.h"
#include "../device/device.h"

/* Every field but thread, joined and block is the thread's until
 * pf_early_join. */
typedef struct pf_early_open {
    pthread_t thread;
    int joined;
    void *block;              /* the caller's allocation that holds this */
    const pf_device_ops *ops; /* whose device the thread opened (or tried
                                 to); NULL: none */
    pf_dev *dev;              /* NULL once taken, or when the open failed */
    pf_device_desc desc;
    int rc;                   /* the open's status, its reason in st */
    pf_status st;
} pf_early_open;

/* Starts body(block) on a new thread, which fills e (pf_early_open_device,
 * or the fields themselves). block is the caller's malloc'ed struct that
 * holds e, freed with it by pf_early_free. 0 when the thread started;
 * else pthread_create's error, and block is freed already. */
int pf_early_start(pf_early_open *e, void *(*body)(void *), void *block);

/* On the thread: opens ops's device with params into e. */
void pf_early_open_device(pf_early_open *e, const pf_device_ops *ops,
                          const pf_open_params *params);

/* Waits for the thread; once, later calls return at once. */
void pf_early_join(pf_early_open *e);

/* Joins, then hands over the device the thread opened for ops into *dev
 * and *desc (e keeps nothing of it). The thread's failure to open ops's
 * device is this call's (its status and reason). PF_OK with *dev
 * untouched when the thread opened nothing for ops. */
int pf_early_take(pf_early_open *e, const pf_device_ops *ops, pf_dev **dev,
                  pf_device_desc *desc, pf_status *st);

/* Joins, closes the device unless it was taken, and frees the block that
 * holds e. */
void pf_early_free(pf_early_open *e);

#endif
