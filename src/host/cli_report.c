/* The helpers every portaflow command shares (cli.h): exit statuses,
 * error and usage messages, JSON strings, the backend-name check. Commands
 * call these; nothing here calls a command. */
#include "cli.h"
#include "../common/progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int pf_cli_exit_code(int code)
{
    switch (code) {
    case PF_OK:
        return PF_EXIT_OK;
    case PF_E_USAGE:
        return PF_EXIT_USAGE;
    case PF_E_INPUT:
        return PF_EXIT_INPUT;
    case PF_E_OUTPUT:
        return PF_EXIT_OUTPUT;
    default:
        return PF_EXIT_DEVICE;
    }
}

int pf_cli_error(const pf_status *st)
{
    pf_progress_clear_line();
    fprintf(stderr, "portaflow: %s\n", st->message);
    return pf_cli_exit_code(st->code);
}

int pf_cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("portaflow: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputs("\n(see portaflow --help)\n", stderr);
    va_end(ap);
    return PF_EXIT_USAGE;
}

void pf_cli_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20 || c == 0x7f)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

int pf_cli_check_backend(const char *backend)
{
    static const char *const names[] = {"auto", "seq", "omp", "opencl", "cuda"};
    if (!backend)
        return 0;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(backend, names[i]))
            return 0;
    pf_cli_usage_error("unknown backend '%s' (auto, seq, omp, opencl, cuda)", backend);
    return -1;
}

void pf_cli_log(void *data, int level, const char *message)
{
    (void)data, (void)level;
    pf_progress_clear_line();
    fprintf(stderr, "portaflow: %s\n", message);
}
