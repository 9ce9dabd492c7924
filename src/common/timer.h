/* The monotonic wall clock (timer.c). */
#ifndef PF_TIMER_H
#define PF_TIMER_H

/* Monotonic wall clock in seconds. */
double pf_now(void);
#endif
