/* The input options shared by solve, check and compare (cli_input.h). */
#include "cli_input.h"

#include <stdlib.h>
#include <string.h>

#include "../common/network.h"
#include "../common/status.h"
#include "cli.h"

int pf_cli_input_option(const pf_cmd_spec *spec, pf_cli_input *in, int id, const char *arg)
{
    if (id == PF_CLI_OPT_ZERO_BASED) {
        in->zero_based = 1;
        return PF_EXIT_OK;
    }
    if (id != PF_CLI_OPT_SOURCE && id != PF_CLI_OPT_SINK)
        return PF_OPTS_GO_ON;
    int sink = id == PF_CLI_OPT_SINK;
    int64_t value = 0;
    int rc = pf_opts_int(spec, sink ? "sink" : "source", arg, 0, PF_MAX_VERTICES, &value);
    if (rc)
        return rc;
    int64_t *grown = realloc(in->ids[sink], (size_t)(in->count[sink] + 1) * sizeof *grown);
    if (!grown) {
        fprintf(stderr, "portaflow: out of memory for --%s\n", sink ? "sink" : "source");
        return PF_EXIT_DEVICE;
    }
    in->ids[sink] = grown;
    in->ids[sink][in->count[sink]++] = value;
    return PF_EXIT_OK;
}

pf_network *pf_cli_read_network(const pf_cli_input *in, const char *path, pf_status *st)
{
    pf_read_options opt;
    pf_read_options_init(&opt);
    opt.zero_based = in->zero_based;
    int64_t base = in->zero_based ? 0 : 1;
    int64_t *api_ids[2] = {NULL, NULL};
    for (int sink = 0; sink < 2; sink++) {
        if (!in->count[sink])
            continue;
        api_ids[sink] = malloc((size_t)in->count[sink] * sizeof *api_ids[sink]);
        if (!api_ids[sink]) {
            free(api_ids[0]);
            pf_fail(st, PF_E_NOMEM, "out of host memory for the terminals");
            return NULL;
        }
        for (int64_t i = 0; i < in->count[sink]; i++)
            api_ids[sink][i] = in->ids[sink][i] - base; /* -1 for "0": reported */
    }
    opt.sources = api_ids[0];
    opt.source_count = in->count[0];
    opt.sinks = api_ids[1];
    opt.sink_count = in->count[1];
    pf_network *net = pf_network_read_with(path, &opt, st);
    free(api_ids[0]);
    free(api_ids[1]);
    return net;
}

void pf_cli_input_free(pf_cli_input *in)
{
    free(in->ids[0]);
    free(in->ids[1]);
    memset(in, 0, sizeof *in);
}

void pf_cli_print_amount(FILE *out, const pf_network *net, int64_t amount)
{
    char text[64];
    pf_amount_format(net, amount, text, sizeof text);
    fputs(text, out);
}

/* The bound with 3 significant digits, rounded up: still a bound. */
static void format_bound(double bound, char *text, size_t len)
{
    double shown = bound;
    for (int tries = 0; tries < 8; tries++) {
        snprintf(text, len, "%.3g", shown);
        if (strtod(text, NULL) >= bound)
            return;
        shown *= 1 + 1e-3;
    }
    snprintf(text, len, "%.17g", bound);
}

void pf_cli_print_scale(FILE *out, const pf_network *net, int json)
{
    int k;
    double error;
    if (!pf_network_scale(net, &k, &error))
        return;
    char bound[48];
    format_bound(error, bound, sizeof bound);
    if (json)
        fprintf(out, ",\"scale_log2\":%d,\"scale_error\":%s", -k, bound);
    else
        fprintf(out, "c scale 2^%d error %s\n", -k, bound);
}

void pf_cli_json_solved(FILE *out, const pf_network *net, const pf_solution *sol)
{
    pf_cli_print_amount(out, net, sol->value);
    pf_cli_print_scale(out, net, 1);
    fputs(",\"backend\":", out);
    pf_cli_json_string(out, sol->backend);
    fputs(",\"device\":", out);
    pf_cli_json_string(out, sol->device);
}

void pf_cli_print_value(FILE *out, const pf_network *net, const pf_solution *sol, int verified)
{
    if (verified)
        fputs("c verify ok (capacity, conservation, value, cut = value)\n", out);
    pf_cli_print_scale(out, net, 0);
    fputs("s ", out);
    pf_cli_print_amount(out, net, sol->value);
    fputc('\n', out);
}
