/* The status line on stderr (--progress): one line for the whole process
 * saying in plain words what portaflow is doing, as "LABEL: TEXT, T s"
 * ("solve seq: phase 1, 12 global relabels, 3.2 s"). On a terminal it is
 * "LABEL: T s, TEXT" cut to the terminal's width, redrawn in place a few
 * times a second and cleared at the end; anywhere
 * else (forced into a file or a pipe) it is a line per second at most plus
 * each new step, and a last "finished" line. Never written to stdout.
 *
 * A session is open while work runs: the CLI opens one per command, with a
 * ticker thread that keeps the seconds current while a long call runs; an
 * engine called through the library without one opens its own (no
 * thread). Engines and the CLI only say what they do; drawing is here. */
#ifndef PF_PROGRESS_H
#define PF_PROGRESS_H

#include <stdint.h>

/* Modes (pf_solve_options.progress uses the same values). */
enum {
    PF_PROGRESS_OFF = 0,
    PF_PROGRESS_AFTER_A_SECOND = 1, /* the default on a terminal */
    PF_PROGRESS_AT_ONCE = 2,        /* --progress */
};

/* Opens a session (nested opens only count). `ticker`: redraw from a
 * thread while the caller is busy. `label` may be NULL (keeps the last). */
void pf_progress_open(int mode, int ticker, const char *label);
/* Closes it: clears the terminal line, or prints the "finished" line. */
void pf_progress_close(void);
/* Who is working: "solve seq", "apsp". */
void pf_progress_label(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* What it is doing now; drawn when a redraw is due. */
void pf_progress_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A new step ("reading FILE"): as say, and drawn at once in AT_ONCE mode. */
void pf_progress_step(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* True when a say() now would be drawn: callers skip gathering numbers
 * otherwise. Cheap enough for a loop that calls it every few thousand
 * steps. */
int pf_progress_wanted(void);
/* Takes the line off the terminal before another message is printed. */
void pf_progress_clear_line(void);

/* The parallel driver's interface: a nested session per solve. */
typedef struct pf_progress {
    int owner; /* this solve opened the session */
} pf_progress;

void pf_progress_begin(pf_progress *p, int mode);
int pf_progress_due(pf_progress *p);
void pf_progress_draw(pf_progress *p, const char *phase, int64_t active, int64_t at_target,
                      int64_t global_relabels);
void pf_progress_end(pf_progress *p);

#endif
