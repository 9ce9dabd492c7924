/* A backend's device opened on a background thread (early_open.h). */
#include <stdlib.h>

#include "early_open.h"

int pf_early_start(pf_early_open *e, void *(*body)(void *), void *block)
{
    e->joined = 0;
    e->block = block;
    pf_status_ok(&e->st);
    int err = pthread_create(&e->thread, NULL, body, block);
    if (err)
        free(block);
    return err;
}

void pf_early_open_device(pf_early_open *e, const pf_device_ops *ops,
                          const pf_open_params *params)
{
    e->ops = ops;
    e->rc = ops->open(params, &e->dev, &e->desc, &e->st);
    if (e->rc)
        e->dev = NULL;
}

void pf_early_join(pf_early_open *e)
{
    if (!e->joined) {
        pthread_join(e->thread, NULL);
        e->joined = 1;
    }
}

int pf_early_take(pf_early_open *e, const pf_device_ops *ops, pf_dev **dev,
                  pf_device_desc *desc, pf_status *st)
{
    pf_early_join(e);
    if (e->ops != ops)
        return PF_OK;
    if (e->rc) {
        *st = e->st;
        return e->rc;
    }
    *dev = e->dev;
    *desc = e->desc;
    e->dev = NULL;
    return PF_OK;
}

void pf_early_free(pf_early_open *e)
{
    pf_early_join(e);
    if (e->dev)
        e->ops->close(e->dev);
    free(e->block);
}
