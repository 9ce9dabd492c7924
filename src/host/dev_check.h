/* The argument checks at the device interface: one place that validates
 * what the host hands a backend (buffer ranges and element counts, vertex
 * ids, BFS levels, Floyd-Warshall rounds, phases, tiles and steps) and
 * fails with PF_E_USAGE and a message naming the step, before the backend
 * sees the call. Backends assume valid arguments and fail only for device
 * failures (PF_E_DEVICE with the API's own text).
 *
 * The layer is itself an ops table (pf_dev_checked) that forwards each
 * call to the backend's own table after its checks, so the host's calls do
 * not change: the driver, pf_apsp and the analytics engine (graph_run.c)
 * take pf_dev_check_ops(ops), which is
 * the checked table where checking is on and ops itself where it is off
 * (no cost in release builds). On: builds without NDEBUG (debug builds,
 * -Db_ndebug=false), and wherever PORTAFLOW_CHECK_ARGS=1 (the test suites
 * set it); PORTAFLOW_CHECK_ARGS=0 turns it off. */
#ifndef PF_DEV_CHECK_H
#define PF_DEV_CHECK_H

#include "../device/device.h"

/* Whether calls are checked in this process. */
int pf_dev_check_enabled(void);
/* The checked table for ops (always; NULL when no slot is left). Devices
 * and buffers of a checked table are the checking layer's: they go only
 * to the same checked table. */
const pf_device_ops *pf_dev_checked(const pf_device_ops *ops);
/* pf_dev_checked(ops) where checking is on, else ops. */
const pf_device_ops *pf_dev_check_ops(const pf_device_ops *ops);
/* A device opened through the backend's own table, taken over by its
 * checked table (*dev replaced; on failure it is closed and NULL). */
int pf_dev_check_adopt(const pf_device_ops *checked, pf_dev **dev, pf_status *st);

#endif
