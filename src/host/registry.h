/* The backend registry and runtime probe. */
#ifndef PF_REGISTRY_H
#define PF_REGISTRY_H

#include <stddef.h>

#include "../device/device.h"

/* The compiled-in device backends, best first (CUDA > OpenCL > OpenMP). */
int pf_backend_count(void);
const pf_device_ops *pf_backend_at(int i);
/* NULL if `name` is not compiled in (or is "seq", which has no ops). */
const pf_device_ops *pf_backend_find(const char *name);
/* pf_backend_find, or NULL with PF_E_DEVICE saying whether `name` is not
 * compiled in or not a backend at all. */
const pf_device_ops *pf_backend_require(const char *name, pf_status *st);
/* Whether a backend name is known to portaflow at all. */
int pf_backend_name_known(const char *name);

/* Candidates for `auto`, best first: backends with a usable GPU (CUDA,
 * then OpenCL), then "seq", which beats the CPU backends as measured so
 * far. Returns the count. */
/* ops->probe, one at a time in the whole process (see registry.c). */
int pf_backend_probe(const pf_device_ops *ops, pf_device_desc *out, int max, char *why,
                     size_t why_len);
int pf_backend_auto_order(const char **names, int max, char *why, size_t why_len);

/* Whether the backend's device (device_index, -1 = its best) is a GPU:
 * where `--hybrid auto` pairs it with the host engine. */
int pf_backend_on_gpu(const pf_device_ops *ops, int device_index);
/* The CPU backend a hybrid pairs with seq where there is no GPU, or NULL. */
const char *pf_backend_cpu_partner(void);

#endif
