/* Reader for solution files as `portaflow solve --flow --cut` prints them:
 *
 *   c any comment          (anywhere, any number)
 *   s VALUE                (exactly once)
 *   f U V FLOW             (none, or exactly one per input arc, input order)
 *   n ID                   (source side of the cut, each vertex at most once)
 *
 * Values are read as signed 64-bit integers: a negative flow is a wrong
 * certificate, which pf_verify reports better than a parse error would.
 * For a network with real capacities they are amounts in its input units
 * (integer or real text), turned into its fixed point exactly as the
 * capacities were. The
 * file is loaded whole by pf_io_load (io.c) and scanned in place. */
#include <stdlib.h>
#include <string.h>

#include "io.h"
#include "scan.h"
#include "status.h"

#define FLOW_USAGE "f U V FLOW"
#define CUT_USAGE "n ID"
#define VALUE_USAGE "s VALUE"

typedef struct solution_parser {
    line_ctx lc;
    const pf_network *net;
    pf_solution_file *sol;
    int64_t value_line;  /* line of the s line, 0 = none yet */
    int64_t flows;       /* f lines read */
    int64_t first_flow_line;
} solution_parser;

/* Reads one signed decimal int64 field after blanks into *value; *pp moves
 * past it. what/usage name the field in messages. */
static int read_int(solution_parser *sp, const char **pp, const char *what,
                    const char *usage, int64_t *value)
{
    const char *p = skip_blanks(*pp), *field = p;
    if (is_eol(*p))
        return pf_io_fail(sp->lc.st, sp->lc.name, sp->lc.line, "missing %s (expected '%s')",
                          what, usage);
    int negative = *p == '-';
    if (negative)
        p++;
    /* Accumulate as a negative number: that range includes INT64_MIN. */
    int64_t v = 0;
    int overflow = 0;
    const char *digits = p;
    while (is_digit(*p)) {
        int d = *p++ - '0';
        if (v < (INT64_MIN + d) / 10)
            overflow = 1;
        else
            v = v * 10 - d;
    }
    if (p == digits || !ends_field(*p))
        return pf_io_fail(sp->lc.st, sp->lc.name, sp->lc.line, "%s '%.*s' is not a number",
                          what, field_len(field), field);
    if (overflow || (!negative && v == INT64_MIN))
        return pf_io_fail(sp->lc.st, sp->lc.name, sp->lc.line, "%s %.*s does not fit 64 bits",
                          what, field_len(field), field);
    *value = negative ? v : -v;
    *pp = p;
    return PF_OK;
}

/* A flow value or an arc's flow: read_int's integer, or for a network
 * with real capacities an amount in input units (realcap.c), read back
 * exactly as pf_amount_format printed it. */
static int read_amount(solution_parser *sp, const char **pp, const char *what,
                       const char *usage, int64_t *value)
{
    if (!sp->net->is_real)
        return read_int(sp, pp, what, usage, value);
    const char *field = skip_blanks(*pp);
    if (is_eol(*field))
        return pf_io_fail(sp->lc.st, sp->lc.name, sp->lc.line, "missing %s (expected '%s')",
                          what, usage);
    int len = real_text_len(field);
    if (len == 0)
        return pf_io_fail(sp->lc.st, sp->lc.name, sp->lc.line, "%s '%.*s' is not a number",
                          what, field_len(field), field);
    if (pf_amount_parse(sp->net, field, value) != PF_OK)
        return pf_io_fail(sp->lc.st, sp->lc.name, sp->lc.line,
                          "%s %.*s does not fit 64 bits at the network's scale", what,
                          field_len(field), field);
    *pp = field + len;
    return PF_OK;
}

/* Reads a vertex id (1..n in the file) and returns it 0-based. */
static int read_id(solution_parser *sp, const char **pp, const char *what,
                   const char *usage, int64_t *id)
{
    const char *field = skip_blanks(*pp);
    int rc = read_int(sp, pp, what, usage, id);
    if (rc)
        return rc;
    int64_t base = sp->net->zero_based_ids ? 0 : 1; /* the graph file's numbering */
    if (*id < base || *id > sp->net->n - 1 + base)
        return pf_io_fail(sp->lc.st, sp->lc.name, sp->lc.line, "%s %.*s is outside %lld..%lld",
                          what, field_len(field), field, (long long)base,
                          (long long)(sp->net->n - 1 + base));
    *id -= base;
    return PF_OK;
}

static int parse_value_line(solution_parser *sp, const char **pp)
{
    if (sp->value_line)
        return pf_io_fail(sp->lc.st, sp->lc.name, sp->lc.line,
                          "second s line (the first is on line %lld)", (long long)sp->value_line);
    int rc = read_amount(sp, pp, "flow value", VALUE_USAGE, &sp->sol->value);
    if (!rc)
        rc = finish_line(&sp->lc, pp, "flow value");
    if (!rc)
        sp->value_line = sp->lc.line;
    return rc;
}

static int parse_flow_line(solution_parser *sp, const char **pp)
{
    const pf_network *net = sp->net;
    pf_solution_file *sol = sp->sol;
    if (sp->flows == net->m)
        return pf_io_fail(sp->lc.st, sp->lc.name, sp->lc.line,
                          "more f lines than the network's %lld arcs", (long long)net->m);
    if (!sol->arc_flow) {
        sol->arc_flow = pf_alloc((size_t)net->m, sizeof *sol->arc_flow, sp->lc.st);
        if (!sol->arc_flow)
            return PF_E_NOMEM;
        sol->has_flow = 1;
        sp->first_flow_line = sp->lc.line;
    }
    int64_t tail, head, flow;
    int rc = read_id(sp, pp, "tail", FLOW_USAGE, &tail);
    if (!rc)
        rc = read_id(sp, pp, "head", FLOW_USAGE, &head);
    if (!rc)
        rc = read_amount(sp, pp, "flow", FLOW_USAGE, &flow);
    if (!rc)
        rc = finish_line(&sp->lc, pp, "flow");
    if (rc)
        return rc;
    int64_t arc = sp->flows;
    if (tail != net->tail[arc] || head != net->head[arc])
        return pf_io_fail(sp->lc.st, sp->lc.name, sp->lc.line,
                          "f line %lld names arc %lld -> %lld, but input arc %lld is %lld -> %lld",
                          (long long)arc + 1, (long long)tail + 1, (long long)head + 1,
                          (long long)arc + 1, (long long)net->tail[arc] + 1,
                          (long long)net->head[arc] + 1);
    sol->arc_flow[arc] = flow;
    sp->flows++;
    return PF_OK;
}

static int parse_cut_line(solution_parser *sp, const char **pp)
{
    pf_solution_file *sol = sp->sol;
    if (!sol->source_side) {
        sol->source_side = pf_calloc((size_t)sp->net->n, sizeof *sol->source_side, sp->lc.st);
        if (!sol->source_side)
            return PF_E_NOMEM;
        sol->has_cut = 1;
    }
    int64_t id;
    int rc = read_id(sp, pp, "vertex id", CUT_USAGE, &id);
    if (!rc)
        rc = finish_line(&sp->lc, pp, "vertex id");
    if (rc)
        return rc;
    if (sol->source_side[id])
        return pf_io_fail(sp->lc.st, sp->lc.name, sp->lc.line,
                          "vertex %lld is listed twice in the cut", (long long)id + 1);
    sol->source_side[id] = 1;
    return PF_OK;
}

static int parse_solution(solution_parser *sp, const char *text)
{
    const char *p = text;
    int rc = PF_OK;
    while (*p && !rc) {
        sp->lc.line++;
        const char *start;
        char type = line_type(&p, &start);
        if (type == 'f')
            rc = parse_flow_line(sp, &p);
        else if (type == 'n')
            rc = parse_cut_line(sp, &p);
        else if (type == 's')
            rc = parse_value_line(sp, &p);
        else if (type == 'x') /* solve --cut-arcs: derived from the n lines */
            p = next_line(p);
        else if (type != 'c')
            rc = unknown_line(&sp->lc, start, "c, s, f, n or x");
    }
    if (rc)
        return rc;
    int64_t eof_line = sp->lc.line + 1;
    if (!sp->value_line)
        return pf_io_fail(sp->lc.st, sp->lc.name, eof_line, "no '" VALUE_USAGE "' line");
    if (sp->sol->has_flow && sp->flows != sp->net->m)
        return pf_io_fail(sp->lc.st, sp->lc.name, eof_line,
                          "found %lld f lines (from line %lld), the network has %lld arcs",
                          (long long)sp->flows, (long long)sp->first_flow_line,
                          (long long)sp->net->m);
    return PF_OK;
}

int pf_solution_read(const char *path, const pf_network *net,
                     pf_solution_file *sol, pf_status *st)
{
    memset(sol, 0, sizeof *sol);
    solution_parser sp = {.lc = {.st = st}, .net = net, .sol = sol};
    pf_io_input in;
    if (!pf_io_load(path, &in, st))
        return st ? st->code : PF_E_INPUT;
    sp.lc.name = in.name;
    int rc = parse_solution(&sp, in.text);
    pf_io_unload(&in);
    if (rc) {
        pf_solution_file_free(sol);
        return rc;
    }
    pf_status_ok(st);
    return PF_OK;
}

void pf_solution_file_free(pf_solution_file *sol)
{
    if (!sol)
        return;
    free(sol->arc_flow);
    free(sol->source_side);
    memset(sol, 0, sizeof *sol);
}
