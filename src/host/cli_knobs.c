/* The command line's side of the tuning variables (src/common/knobs.h):
 * refused values reported once when portaflow starts, and the listings of
 * `portaflow backends --knobs` and `--knobs-doc`. */
#include "cli.h"

#include "../common/knobs.h"
#include "../common/progress.h"

void pf_cli_report_knobs(void)
{
    const pf_knob_values *knobs = pf_knobs();
    char problem[512];
    for (int id = 0; id < PF_KNOB_COUNT; id++)
        if (pf_knob_problem(knobs, (pf_knob_id)id, problem, sizeof problem)) {
            pf_progress_clear_line();
            fprintf(stderr, "portaflow: warning: %s\n", problem);
        }
}

/* {"knobs":[{"name":...,"value":...,"set":true,"default":...,"range":...,
 * "meaning":...,"refused":...}, ...]}; "refused" only where a value was. */
static void write_json(FILE *out, const pf_knob_values *knobs)
{
    char value[4200], fallback[256], range[256], problem[512];
    fputs("{\"knobs\":[", out);
    for (int id = 0; id < PF_KNOB_COUNT; id++) {
        pf_knob_value_text(knobs, (pf_knob_id)id, value, sizeof value);
        pf_knob_default_text((pf_knob_id)id, fallback, sizeof fallback);
        pf_knob_range_text((pf_knob_id)id, range, sizeof range);
        fputs(id ? ",{\"name\":" : "{\"name\":", out);
        pf_cli_json_string(out, pf_knob_table[id].name);
        fputs(",\"value\":", out);
        pf_cli_json_string(out, value);
        fprintf(out, ",\"set\":%s,\"default\":", knobs->set[id] ? "true" : "false");
        pf_cli_json_string(out, fallback);
        fputs(",\"range\":", out);
        pf_cli_json_string(out, range);
        fputs(",\"meaning\":", out);
        pf_cli_json_string(out, pf_knob_table[id].meaning);
        if (pf_knob_problem(knobs, (pf_knob_id)id, problem, sizeof problem)) {
            fputs(",\"refused\":", out);
            pf_cli_json_string(out, problem);
        }
        fputc('}', out);
    }
    fputs("]}\n", out);
}

int pf_cli_knobs(int what, int json)
{
    if (what == PF_CLI_KNOBS_DOC)
        pf_knobs_write_markdown(stdout);
    else if (json)
        write_json(stdout, pf_knobs());
    else
        pf_knobs_write_list(stdout, pf_knobs());
    return PF_EXIT_OK;
}
