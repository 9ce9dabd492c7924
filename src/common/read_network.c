/* pf_network_read_with: chooses the max-flow reader by content (the parts
 * every reader shares are in read_shared.c, which calls no reader).
 *
 * Detection looks only at the first line that carries something (after
 * blank lines; for the letter-led formats after 'c' comments too), so it
 * costs nothing on big files; the chosen parser then reports any line that
 * does not fit its format with FILE:LINE. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "formats.h"
#include "realcap.h"
#include "status.h"

void pf_read_options_init(pf_read_options *opt)
{
    memset(opt, 0, sizeof *opt);
}

/* ---- detection ------------------------------------------------------- */

enum net_format { NET_DIMACS, NET_MATRIX, NET_EDGELIST, NET_MM };

static enum net_format detect_format(const char *text)
{
    const char *p = text;
    while (is_eol(*(p = skip_blanks(p))) && *p)
        p++;
    if (strncasecmp(p, "%%MatrixMarket", 14) == 0)
        return NET_MM;
    if (*p == '#' || *p == '%')
        return NET_EDGELIST;
    for (; *p; p = next_line(p)) {
        const char *q = skip_blanks(p);
        if (*q == 'c' || is_eol(*q))
            continue;
        if (!is_digit(*q) && !(*q == '-' && is_digit(q[1])))
            return NET_DIMACS;
        return count_line_fields(q) == 3 ? NET_EDGELIST : NET_MATRIX;
    }
    return NET_DIMACS; /* empty: DIMACS says what is missing best */
}

/* Formats that name no terminals need them from the options. */
static int check_terminals_given(enum net_format format, const pf_read_options *opt,
                                 const char *name, pf_status *st)
{
    if (format != NET_EDGELIST && format != NET_MM)
        return PF_OK;
    if (opt && opt->source_count && opt->sink_count)
        return PF_OK;
    return pf_fail(st, PF_E_INPUT,
                   "%s: %s files name no source and sink: give them (--source S --sink T)", name,
                   format == NET_MM ? "Matrix Market" : "edge-list");
}

/* Edge lists: the terminals count as vertices even past the last arc. */
static int64_t terminal_vertices(const pf_read_options *opt)
{
    int64_t top = 0;
    for (int64_t i = 0; opt && i < opt->source_count; i++)
        top = opt->sources[i] + 1 > top ? opt->sources[i] + 1 : top;
    for (int64_t i = 0; opt && i < opt->sink_count; i++)
        top = opt->sinks[i] + 1 > top ? opt->sinks[i] + 1 : top;
    return top;
}

pf_network *pf_network_read_with(const char *path, const pf_read_options *opt, pf_status *st)
{
    pf_io_input in;
    if (!pf_io_load(path, &in, st))
        return NULL;
    const char *text = in.text, *name = in.name;
    size_t len = in.len;
    enum net_format format = detect_format(text);
    pf_network *net = NULL;
    if (check_terminals_given(format, opt, name, st) == PF_OK) {
        if (format == NET_MM)
            net = pf_parse_mm_network(text, len, name, st);
        else if (format == NET_EDGELIST)
            net = pf_parse_edgelist(text, name, opt && opt->zero_based, terminal_vertices(opt), st);
        else if (format == NET_MATRIX)
            net = pf_parse_matrix(text, name, st);
        else
            net = pf_parse_dimacs(text, len, name, st);
    }
    pf_io_unload(&in);
    return pf_read_finish(net, opt, name, st);
}

pf_network *pf_network_read(const char *path, pf_status *st)
{
    return pf_network_read_with(path, NULL, st);
}
