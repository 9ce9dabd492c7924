/* The status line on stderr (see progress.h): one process-wide state under
 * a mutex, drawn by whoever says something when a redraw is due and, in a
 * CLI session, by a ticker thread between those. */
#include "progress.h"

#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "timer.h"

/* Redraws per second on a terminal; elsewhere one line a second. */
enum { TERMINAL_REDRAWS_PER_S = 4 };
#define TICK_NS 250000000L

static struct {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    int depth, mode, tty, drawn, stop;
    int ticking;
    int columns; /* the terminal's width */
    pthread_t ticker;
    double start, last_draw;
    double last_text; /* when the text was last set */
    char label[64], text[200];
    char opener[64]; /* the label the session opened with, for its last line */
} P = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER};

static double redraw_interval(void) { return P.tty ? 1.0 / TERMINAL_REDRAWS_PER_S : 1.0; }

static int due_locked(double now)
{
    if (P.depth == 0 || P.mode == PF_PROGRESS_OFF || !P.text[0])
        return 0;
    double delay = P.mode == PF_PROGRESS_AFTER_A_SECOND ? 1.0 : 0.0;
    return now - P.start >= delay && (P.last_draw < 0 || now - P.last_draw >= redraw_interval());
}

static void draw_locked(double now)
{
    P.last_draw = now;
    if (P.tty) { /* cut to the terminal's width: a wrapped line cannot be redrawn */
        char line[sizeof P.label + sizeof P.text + 32];
        int len = snprintf(line, sizeof line, "%s: %.1f s, %s", P.label, now - P.start, P.text);
        int fit = len < P.columns - 1 ? len : P.columns - 1;
        fprintf(stderr, "\r\033[K%.*s", fit > 0 ? fit : 0, line);
    } else
        fprintf(stderr, "%s: %s, %.1f s\n", P.label, P.text, now - P.start);
    P.drawn = P.tty;
    fflush(stderr);
}

static void *tick(void *unused)
{
    (void)unused;
    sigset_t all; /* signals go to the threads that do the work, not here */
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    pthread_mutex_lock(&P.lock);
    while (!P.stop) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += TICK_NS;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&P.wake, &P.lock, &until);
        double now = pf_now();
        if (!P.stop && due_locked(now))
            draw_locked(now);
    }
    pthread_mutex_unlock(&P.lock);
    return NULL;
}

void pf_progress_open(int mode, int ticker, const char *label)
{
    pthread_mutex_lock(&P.lock);
    if (P.depth++ > 0 || mode == PF_PROGRESS_OFF) {
        if (P.depth == 1)
            P.mode = PF_PROGRESS_OFF;
        pthread_mutex_unlock(&P.lock);
        return;
    }
    P.mode = mode;
    P.tty = isatty(STDERR_FILENO);
    struct winsize size;
    P.columns = P.tty && ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0
                    ? size.ws_col
                    : 80;
    P.start = pf_now();
    P.last_draw = -1;
    P.drawn = 0;
    P.stop = 0;
    P.text[0] = '\0';
    if (label)
        snprintf(P.label, sizeof P.label, "%s", label);
    else if (!P.label[0])
        snprintf(P.label, sizeof P.label, "portaflow");
    memcpy(P.opener, P.label, sizeof P.opener);
    P.ticking = ticker && pthread_create(&P.ticker, NULL, tick, NULL) == 0;
    pthread_mutex_unlock(&P.lock);
}

void pf_progress_close(void)
{
    pthread_mutex_lock(&P.lock);
    if (P.depth == 0 || --P.depth > 0) {
        pthread_mutex_unlock(&P.lock);
        return;
    }
    int ticking = P.ticking;
    P.stop = 1;
    P.ticking = 0;
    pthread_cond_signal(&P.wake);
    pthread_mutex_unlock(&P.lock);
    if (ticking)
        pthread_join(P.ticker, NULL);
    pthread_mutex_lock(&P.lock);
    if (P.mode != PF_PROGRESS_OFF) {
        if (P.drawn)
            fputs("\r\033[K", stderr);
        else if (!P.tty && P.mode == PF_PROGRESS_AT_ONCE)
            fprintf(stderr, "%s: finished, %.1f s\n", P.opener, pf_now() - P.start);
        fflush(stderr);
    }
    P.drawn = 0;
    P.mode = PF_PROGRESS_OFF;
    pthread_mutex_unlock(&P.lock);
}

void pf_progress_label(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&P.lock);
    vsnprintf(P.label, sizeof P.label, fmt, ap);
    pthread_mutex_unlock(&P.lock);
    va_end(ap);
}

static void set_text(int step, const char *fmt, va_list ap)
{
    pthread_mutex_lock(&P.lock);
    vsnprintf(P.text, sizeof P.text, fmt, ap);
    double now = pf_now();
    P.last_text = now;
    if (step && P.mode == PF_PROGRESS_AT_ONCE && P.depth > 0)
        P.last_draw = -1; /* a new step is shown at once */
    if (due_locked(now))
        draw_locked(now);
    pthread_mutex_unlock(&P.lock);
}

void pf_progress_say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_text(0, fmt, ap);
    va_end(ap);
}

void pf_progress_step(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_text(1, fmt, ap);
    va_end(ap);
}

/* New numbers are wanted a few times a second whatever the drawing does:
 * the ticker draws between, and must not starve an engine's updates. */
int pf_progress_wanted(void)
{
    pthread_mutex_lock(&P.lock);
    double now = pf_now();
    int wanted = P.depth > 0 && P.mode != PF_PROGRESS_OFF &&
                 now - P.last_text >= 1.0 / TERMINAL_REDRAWS_PER_S;
    pthread_mutex_unlock(&P.lock);
    return wanted;
}

void pf_progress_clear_line(void)
{
    pthread_mutex_lock(&P.lock);
    if (P.drawn) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        P.drawn = 0;
    }
    pthread_mutex_unlock(&P.lock);
}

/* ---- the parallel driver's interface ------------------------------------ */

void pf_progress_begin(pf_progress *p, int mode)
{
    pthread_mutex_lock(&P.lock);
    int nested = P.depth > 0;
    pthread_mutex_unlock(&P.lock);
    p->owner = !nested && mode != PF_PROGRESS_OFF;
    if (p->owner)
        pf_progress_open(mode, 0, NULL);
}

int pf_progress_due(pf_progress *p)
{
    (void)p;
    return pf_progress_wanted();
}

void pf_progress_draw(pf_progress *p, const char *phase, int64_t active, int64_t at_target,
                      int64_t global_relabels)
{
    (void)p;
    int to_sink = !strcmp(phase, "phase 1");
    pf_progress_say("%s (%s), %lld active vertices, %lld units of flow %s, %lld global relabels",
                    phase, to_sink ? "pushing flow to the sink" : "returning excess to the source",
                    (long long)active, (long long)at_target,
                    to_sink ? "at the sink" : "back at the source", (long long)global_relabels);
}

void pf_progress_end(pf_progress *p)
{
    if (p->owner)
        pf_progress_close();
    p->owner = 0;
}
