/* The knobs table written out: the listing of `portaflow backends --knobs`
 * and docs/KNOBS.md (knobs.h). */
#include "knobs.h"

#include <string.h>

int pf_knobs_write_list(FILE *out, const pf_knob_values *v)
{
    char value[4200], fallback[256], range[256], problem[512];
    for (int id = 0; id < PF_KNOB_COUNT; id++) {
        const pf_knob_info *k = &pf_knob_table[id];
        pf_knob_value_text(v, (pf_knob_id)id, value, sizeof value);
        pf_knob_default_text((pf_knob_id)id, fallback, sizeof fallback);
        pf_knob_range_text((pf_knob_id)id, range, sizeof range);
        fprintf(out, "%s = %s (%s)\n", k->name, value, v->set[id] ? "set" : "default");
        fprintf(out, "    default: %s; range: %s\n", fallback, range);
        fprintf(out, "    %s\n", k->meaning);
        if (pf_knob_problem(v, (pf_knob_id)id, problem, sizeof problem))
            fprintf(out, "    refused: %s\n", problem);
    }
    return ferror(out) ? -1 : 0;
}

/* text with '|' escaped for a Markdown table cell. */
static void cell(FILE *out, const char *text)
{
    for (; *text; text++) {
        if (*text == '|')
            fputc('\\', out);
        fputc(*text, out);
    }
}

int pf_knobs_write_markdown(FILE *out)
{
    fputs("# Tuning variables\n"
          "\n"
          "<!-- Generated from src/common/knobs.c by `portaflow backends --knobs-doc`;\n"
          "     tests/test_knobs.c fails when this file and the table differ. -->\n"
          "\n"
          "portaflow reads these environment variables once per process. A variable that is\n"
          "unset or empty keeps its default; a value that does not parse or lies outside the\n"
          "range keeps the default too, and `portaflow` says so on stderr once when it starts.\n"
          "`portaflow backends --knobs` lists every variable with its value, whether it was\n"
          "set, its default and range. Defaults are what the measurements in bench/NOTES.md\n"
          "chose.\n"
          "\n"
          "| Variable | Default | Range | Meaning |\n"
          "|---|---|---|---|\n",
          out);
    char fallback[256], range[256];
    for (int id = 0; id < PF_KNOB_COUNT; id++) {
        const pf_knob_info *k = &pf_knob_table[id];
        pf_knob_default_text((pf_knob_id)id, fallback, sizeof fallback);
        pf_knob_range_text((pf_knob_id)id, range, sizeof range);
        fprintf(out, "| `%s` | ", k->name);
        cell(out, fallback);
        fputs(" | ", out);
        cell(out, range);
        fputs(" | ", out);
        cell(out, k->meaning);
        fputs(" |\n", out);
    }
    return ferror(out) ? -1 : 0;
}
