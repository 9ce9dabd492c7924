/* `portaflow gen FAMILY ...`: writes a benchmark-family instance in DIMACS:
 * a max-flow network ("p max"), or for sp a weighted digraph ("p sp"); or
 * an analytics graph (kron, road, and grid2d/grid3d/random with --weights
 * or --format) as `p sp`, an edge list or portaflow's binary form; or, for
 * `updates GRAPH`, an update stream for `portaflow session` (updates.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/gen.h"
#include "../common/graph_gen.h"
#include "../common/io.h"
#include "../common/outfile.h"
#include "../common/status.h"
#include "../common/updates.h"
#include "../common/wgen.h"
#include "../common/wgraph_io.h"
#include "cli.h"
#include "cli_input.h"
#include "cli_opts.h"
#include "../common/progress.h"

typedef struct gen_family {
    const char *name;
    int positional;       /* how many size arguments */
    const char *synopsis;
    int weighted;         /* a pf_wgraph (sp), not a pf_network */
    int analytics;        /* 1: always a pf_csr (graph_gen.h); 2: with --weights/--format */
    int updates;          /* an update stream for the network GRAPH, not an instance */
} gen_family;

static const char updates_synopsis[] =
    "updates GRAPH --fraction F --batches K [--mix cap,add,del] [--seed S] [-o OUT]";

static const gen_family families[] = {
    {.name = "rmf", .positional = 2, .synopsis = "rmf A B [--c1 X --c2 Y]"},
    {.name = "rlg", .positional = 2, .synopsis = "rlg R C [--cap R]"},
    {.name = "ac", .positional = 1, .synopsis = "ac N [--cap C]"},
    {.name = "ak", .positional = 1, .synopsis = "ak K"},
    {.name = "grid2d", .positional = 2, .analytics = 2,
     .synopsis = "grid2d W H [--conn 4|8] [--cap C | --weights MIN:MAX]"},
    {.name = "grid3d", .positional = 3, .analytics = 2,
     .synopsis = "grid3d X Y Z [--conn 6|26] [--cap C | --weights MIN:MAX]"},
    {.name = "random", .positional = 2, .analytics = 2,
     .synopsis = "random N M [--cap C | --weights MIN:MAX]"},
    {.name = "kron", .positional = 1, .analytics = 1,
     .synopsis = "kron SCALE [--edgefactor F] [--weights MIN:MAX]"},
    {.name = "road", .positional = 2, .analytics = 1, .synopsis = "road W H [--weights MIN:MAX]"},
    {.name = "sp", .positional = 1, .weighted = 1,
     .synopsis = "sp N [--arcs M | --density P] [--min W] [--max W] [--negative] [--real]"},
    {.name = "updates", .positional = 1, .updates = 1, .synopsis = updates_synopsis},
};

#define COUNT(a) (sizeof(a) / sizeof *(a))

enum {
    OPT_SEED = 1, OPT_C1, OPT_C2, OPT_CAP, OPT_CONN,  /* max-flow families (and seed) */
    OPT_ARCS, OPT_DENSITY, OPT_MIN, OPT_MAX, OPT_NEGATIVE, OPT_REAL, /* sp */
    OPT_WEIGHTS, OPT_EDGEFACTOR, OPT_FORMAT, /* analytics graphs */
    OPT_FRACTION, OPT_BATCHES, OPT_MIX, /* update streams */
    OPT_COUNT
};

static const pf_opt gen_options[] = {
    {.id = OPT_SEED, .name = "seed", .arg = "S", .help = "random seed (default 1)"},
    {.id = OPT_C1, .name = "c1", .arg = "X",
     .help = "rmf: arcs between frames get capacities in X..Y (default 1)"},
    {.id = OPT_C2, .name = "c2", .arg = "Y",
     .help = "rmf: ... up to Y (default 10000); arcs within a frame get Y*A*A"},
    {.id = OPT_CAP, .name = "cap", .arg = "C", .help = "rlg, ac, grid2d, grid3d, random: capacity bound"},
    {.id = OPT_CONN, .name = "conn", .arg = "K", .help = "grid2d: 4 or 8; grid3d: 6 or 26 neighbours"},
    {.id = OPT_ARCS, .name = "arcs", .arg = "M", .help = "sp: M distinct arcs (default 8N)"},
    {.id = OPT_DENSITY, .name = "density", .arg = "P", .help = "sp: P*N(N-1) arcs, P in 0..1"},
    {.id = OPT_MIN, .name = "min", .arg = "W", .help = "sp: smallest weight (default 1; may be negative)"},
    {.id = OPT_MAX, .name = "max", .arg = "W", .help = "sp: largest weight (default 1000)"},
    {.id = OPT_NEGATIVE, .name = "negative",
     .help = "sp: negative weights without a negative cycle (potentials)"},
    {.id = OPT_REAL, .name = "real", .help = "sp: real weights"},
    {.id = OPT_WEIGHTS, .name = "weights", .arg = "MIN:MAX",
     .help = "kron, road, grid2d, grid3d, random: integer weights in MIN..MAX"},
    {.id = OPT_EDGEFACTOR, .name = "edgefactor", .arg = "F", .help = "kron: F * 2^SCALE edges (default 16)"},
    {.id = OPT_FORMAT, .name = "format", .arg = "FMT",
     .help = "analytics graphs: dimacs ('p sp', default), el (0-based edge list) or bin"},
    {.id = OPT_FRACTION, .name = "fraction", .arg = "F",
     .help = "updates: each batch changes F (in (0, 1]) of the live arcs, at least 1"},
    {.id = OPT_BATCHES, .name = "batches", .arg = "K", .help = "updates: K batches (K >= 1)"},
    {.id = OPT_MIX, .name = "mix", .arg = "KINDS",
     .help = "updates: the changes drawn, evenly: some of cap, add, del, addv "
             "(default cap,add,del)"},
    {.id = PF_CLI_OPT_SOURCE, .name = "source", .arg = "ID",
     .help = "updates: a source of GRAPH (repeat for several); replaces the file's own"},
    {.id = PF_CLI_OPT_SINK, .name = "sink", .arg = "ID",
     .help = "updates: a sink of GRAPH (repeat for several); replaces the file's own"},
    {.id = PF_CLI_OPT_ZERO_BASED, .name = "zero-based",
     .help = "updates: GRAPH is an edge list with ids from 0 (the stream's ids too)"},
    {0},
};

static const pf_cmd_spec gen_spec = {
    .name = "gen",
    .synopsis = "FAMILY SIZES... [OPTIONS]",
    .about = "Writes a benchmark instance in DIMACS. FAMILY and its SIZES:\n"
             "  rmf A B | rlg R C | ac N | ak K | grid2d W H | grid3d X Y Z | random N M:\n"
             "      max-flow networks ('p max').\n"
             "  sp N: a weighted digraph for shortest paths ('p sp'): M distinct random\n"
             "      arcs, no self-loops or parallel arcs, weights uniform in [min, max]\n"
             "      (with --negative: w = c + p(u) - p(v), c in [min, max], potentials p in\n"
             "      [0, max]: no negative cycle; a negative --min without it may give some).\n"
             "  kron SCALE | road W H, and grid2d, grid3d, random with --weights or --format:\n"
             "      graphs for bfs, sssp and tc. kron: Graph500's Kronecker graph (A=0.57,\n"
             "      B=C=0.19), 2^SCALE vertices, ids permuted, undirected, simple; road: a\n"
             "      jittered planar lattice (3/4 of its edges, every 64th row and column\n"
             "      whole), weights its lengths; grids undirected, random directed. Written\n"
             "      as 'p sp' (both arcs of an edge), 'el' (each edge once, 0-based, as GAPBS\n"
             "      reads .el/.wel; read it back with --zero-based --undirected) or 'bin'.\n"
             "  updates GRAPH: an update stream for `portaflow session GRAPH`: K batches,\n"
             "      each of max(1, round(F * live arcs)) changes drawn from the mix, each\n"
             "      batch ended by `solve`; valid when applied in order. GRAPH is read as\n"
             "      solve reads it (--source, --sink, --zero-based).\n",
    .options = gen_options,
    .out_help = "write the instance to FILE (replaced only once it is whole)",
    .shared = PF_OPTS_OUT | PF_OPTS_PROGRESS,
    .max_args = 4,
};

/* Options of the analytics graphs only. */
static int analytics_only(int id) { return id >= OPT_WEIGHTS && id <= OPT_FORMAT; }

/* Which options belong to the max-flow families (1) or to sp (0). */
static int flow_only(int id) { return id >= OPT_C1 && id <= OPT_CONN; }
static int sp_only(int id) { return id >= OPT_ARCS && id <= OPT_REAL; }
static int updates_only(int id) { return id >= OPT_FRACTION && id <= OPT_MIX; }

typedef struct gen_args {
    const gen_family *family;
    int64_t size[3];
    int64_t c1, c2, cap, conn;
    int cap_given, conn_given;
    uint64_t seed;
    const char *out_path;
    /* sp: numbers kept as text until --real says how to read --min/--max */
    int64_t arcs;
    int arcs_given, negative, real;
    const char *density, *min, *max;
    const char *text[OPT_COUNT]; /* each option's value as given (flags: "") */
    int progress;                /* progress.h mode */
    int analytics;               /* writing a pf_csr (graph_gen.h) */
    int64_t edgefactor, wmin, wmax; /* kron; --weights (wmax 0: none) */
    const char *format;          /* --format: dimacs, el, bin */
    const char *graph;           /* updates: the network's path */
    pf_cli_input input;          /* updates: --source, --sink, --zero-based */
    int input_given;
    double fraction;             /* updates: --fraction, --batches, --mix */
    int64_t batches;
    unsigned mix;
} gen_args;

static int on_gen_option(void *ctx, int id, const char *arg)
{
    gen_args *a = ctx;
    if (id >= PF_CLI_OPT_SOURCE) {
        a->input_given = 1;
        return pf_cli_input_option(&gen_spec, &a->input, id, arg);
    }
    a->text[id] = arg ? arg : "";
    return PF_EXIT_OK;
}

static const char *option_name(int id)
{
    for (const pf_opt *o = gen_options; o->name; o++)
        if (o->id == id)
            return o->name;
    return "?";
}

/* --weights MIN:MAX (positive integers: BFS ignores weights, SSSP on the
 * generated families wants no negative cycle) and --format. */
static int take_analytics_options(gen_args *a)
{
    const char *w = a->text[OPT_WEIGHTS];
    if (w) {
        char *end;
        errno = 0;
        long long lo = strtoll(w, &end, 10), hi = 0;
        int ok = end != w && *end == ':' && !errno;
        if (ok) {
            const char *second = end + 1;
            hi = strtoll(second, &end, 10);
            ok = end != second && !*end && !errno;
        }
        if (!ok || lo < 1 || hi < lo || hi > ((int64_t)1 << 40))
            return pf_opts_usage_error(&gen_spec, "--weights takes MIN:MAX, 1 <= MIN <= MAX "
                                       "<= 2^40, not '%s'", w);
        a->wmin = lo;
        a->wmax = hi;
    }
    a->format = a->text[OPT_FORMAT] ? a->text[OPT_FORMAT] : "dimacs";
    if (strcmp(a->format, "dimacs") && strcmp(a->format, "el") && strcmp(a->format, "bin"))
        return pf_opts_usage_error(&gen_spec, "--format takes dimacs, el or bin, not '%s'",
                                   a->format);
    return PF_EXIT_OK;
}

/* The values of the options the family allows; refuses the others. */
static int take_options(gen_args *a)
{
    a->analytics = a->family->analytics == 1 ||
                   (a->family->analytics == 2 && (a->text[OPT_WEIGHTS] || a->text[OPT_FORMAT]));
    for (int id = 1; id < OPT_COUNT; id++) {
        if (!a->text[id] || id == OPT_SEED)
            continue;
        int allowed = a->family->updates ? updates_only(id)
                    : a->analytics ? analytics_only(id) || (id == OPT_CONN && a->family->analytics == 2)
                    : a->family->weighted ? sp_only(id)
                    : flow_only(id) || (analytics_only(id) && a->family->analytics == 2);
        if (id == OPT_EDGEFACTOR && strcmp(a->family->name, "kron"))
            allowed = 0;
        if (!allowed)
            return pf_opts_usage_error(&gen_spec, "--%s is not an option of %s (usage: gen %s)",
                                       option_name(id), a->family->name, a->family->synopsis);
    }
    if (a->input_given && !a->family->updates)
        return pf_opts_usage_error(&gen_spec, "--source, --sink and --zero-based are options "
                                   "of updates only (usage: gen %s)", a->family->synopsis);
    a->density = a->text[OPT_DENSITY];
    a->min = a->text[OPT_MIN];
    a->max = a->text[OPT_MAX];
    a->negative = a->text[OPT_NEGATIVE] != NULL;
    a->real = a->text[OPT_REAL] != NULL;
    a->cap_given = a->text[OPT_CAP] != NULL;
    a->conn_given = a->text[OPT_CONN] != NULL;
    a->arcs_given = a->text[OPT_ARCS] != NULL;
    const struct {
        int id;
        int64_t *value;
    } numbers[] = {{OPT_C1, &a->c1},     {OPT_C2, &a->c2},     {OPT_CAP, &a->cap},
                   {OPT_CONN, &a->conn}, {OPT_ARCS, &a->arcs}, {OPT_SEED, (int64_t *)&a->seed},
                   {OPT_EDGEFACTOR, &a->edgefactor}};
    for (size_t i = 0; i < COUNT(numbers); i++) {
        int id = numbers[i].id;
        if (a->text[id] &&
            pf_opts_int(&gen_spec, option_name(id), a->text[id], 0, INT64_MAX, numbers[i].value))
            return PF_EXIT_USAGE;
    }
    return take_analytics_options(a);
}

/* A usage error of `gen updates`, with its synopsis. */
static int updates_usage(const char *what, const char *text)
{
    return pf_opts_usage_error(&gen_spec, "updates: %s%s%s (usage: gen %s)", what,
                               text ? ", not " : "", text ? text : "",
                               updates_synopsis);
}

/* --mix: the kinds named, as bits 1 << PF_UPDATE_*. */
static int parse_mix(const char *text, unsigned *mix)
{
    static const pf_opt_word kinds[] = {
        {"cap", PF_UPDATE_CAP}, {"add", PF_UPDATE_ADD}, {"del", PF_UPDATE_DEL},
        {"addv", PF_UPDATE_ADDV}, {0},
    };
    *mix = 0;
    for (const char *p = text;; p++) {
        size_t len = strcspn(p, ",");
        int kind;
        if (!pf_opts_word(kinds, p, len, &kind)) {
            char word[64];
            snprintf(word, sizeof word, "'%.*s'", (int)(len < 40 ? len : 40), p);
            return updates_usage("--mix takes cap, add, del and addv, separated by commas",
                                 word);
        }
        *mix |= 1u << kind;
        p += len;
        if (!*p)
            return PF_EXIT_OK;
    }
}

/* --fraction, --batches and --mix of `gen updates`. */
static int take_updates_options(gen_args *a)
{
    const char *f = a->text[OPT_FRACTION], *k = a->text[OPT_BATCHES];
    if (!f || !k)
        return updates_usage("needs --fraction F and --batches K", NULL);
    char *end;
    errno = 0;
    a->fraction = strtod(f, &end);
    if (!*f || *end || errno || !(a->fraction > 0 && a->fraction <= 1))
        return updates_usage("--fraction takes a number in (0, 1]", f);
    errno = 0;
    long long batches = strtoll(k, &end, 10);
    if (!*k || *end || errno || batches < 1)
        return updates_usage("--batches takes an integer K >= 1", k);
    a->batches = batches;
    return parse_mix(a->text[OPT_MIX] ? a->text[OPT_MIX] : "cap,add,del", &a->mix);
}

static int parse_gen_args(int argc, char **argv, gen_args *a)
{
    memset(a, 0, sizeof *a);
    a->c1 = 1;
    a->c2 = 10000;
    a->seed = 1;
    pf_opts_parsed p;
    int rc = pf_opts_parse(&gen_spec, argc, argv, on_gen_option, a, &p);
    if (rc != PF_OPTS_GO_ON)
        return rc;
    a->out_path = p.shared.out_path;
    a->progress = pf_opts_progress_mode(&p.shared);
    if (p.count < 1)
        return pf_opts_usage_error(
            &gen_spec,
            "needs a FAMILY (rmf, rlg, ac, ak, grid2d, grid3d, random, sp, kron, road, updates)");
    for (size_t i = 0; i < COUNT(families); i++)
        if (!strcmp(p.args[0], families[i].name))
            a->family = &families[i];
    if (!a->family)
        return pf_opts_usage_error(&gen_spec, "unknown family '%s'", p.args[0]);
    if (p.count - 1 != a->family->positional)
        return pf_opts_usage_error(&gen_spec, "usage: gen %s", a->family->synopsis);
    if (a->family->updates) {
        a->graph = p.args[1];
        return take_options(a) || take_updates_options(a) ? PF_EXIT_USAGE : PF_OPTS_GO_ON;
    }
    for (int i = 0; i < a->family->positional; i++) {
        int64_t size;
        char *end;
        errno = 0;
        size = strtoll(p.args[i + 1], &end, 10);
        if (!*p.args[i + 1] || *end || errno || size < 0)
            return pf_opts_usage_error(&gen_spec, "%s: '%s' is not a non-negative integer",
                                       a->family->name, p.args[i + 1]);
        a->size[i] = size;
    }
    return take_options(a) ? PF_EXIT_USAGE : PF_OPTS_GO_ON;
}

static pf_network *generate(const gen_args *a, pf_status *st)
{
    const char *f = a->family->name;
    const int64_t *s = a->size;
    if (!strcmp(f, "rmf"))
        return pf_gen_rmf(s[0], s[1], a->c1, a->c2, a->seed, st);
    if (!strcmp(f, "rlg"))
        return pf_gen_rlg(s[0], s[1], a->cap_given ? a->cap : 10000, a->seed, st);
    if (!strcmp(f, "ac"))
        return pf_gen_ac(s[0], a->cap_given ? a->cap : 10000, a->seed, st);
    if (!strcmp(f, "ak"))
        return pf_gen_ak(s[0], st);
    if (!strcmp(f, "grid2d"))
        return pf_gen_grid2d(s[0], s[1], a->conn_given ? (int)a->conn : 4,
                             a->cap_given ? a->cap : 100, a->seed, st);
    if (!strcmp(f, "grid3d"))
        return pf_gen_grid3d(s[0], s[1], s[2], a->conn_given ? (int)a->conn : 6,
                             a->cap_given ? a->cap : 100, a->seed, st);
    return pf_gen_random(s[0], s[1], a->cap_given ? a->cap : 100, a->seed, st);
}

/* ---- sp: weighted digraphs ------------------------------------------- */

static int parse_signed(const char *text, int64_t *value)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (!*text || *end || errno)
        return -1;
    *value = v;
    return 0;
}

static int parse_real(const char *text, double *value)
{
    char *end;
    double v = strtod(text, &end);
    if (!*text || *end || !isfinite(v))
        return -1;
    *value = v;
    return 0;
}

/* The generator's parameters from the sp options. Defaults: 8 arcs per
 * vertex (at most all n(n-1) pairs), weights in [1, 1000]. */
static int sp_params(const gen_args *a, pf_wgen_params *w)
{
    int64_t n = a->size[0];
    int n_valid = n >= 1 && n <= PF_MAX_VERTICES; /* else the generator says why */
    *w = (pf_wgen_params){.vertices = n, .min = 1, .max = 1000, .min_real = 1,
                          .max_real = 1000, .real = a->real, .negative = a->negative,
                          .seed = a->seed};
    if (a->arcs_given && a->density)
        return pf_opts_usage_error(&gen_spec, "sp: give --arcs or --density, not both");
    double density = 0;
    if (a->density && (parse_real(a->density, &density) || density < 0 || density > 1))
        return pf_opts_usage_error(&gen_spec, "sp: --density takes a number in 0..1, not '%s'",
                                  a->density);
    if (a->density)
        w->arcs = n_valid ? pf_wgen_arcs_for_density(n, density) : 0;
    else if (a->arcs_given)
        w->arcs = a->arcs;
    else
        w->arcs = !n_valid ? 0 : n - 1 < 8 ? n * (n - 1) : 8 * n;
    const char *bound_text[2] = {a->min, a->max};
    for (int i = 0; i < 2; i++) {
        const char *text = bound_text[i];
        if (!text)
            continue;
        int bad = a->real ? parse_real(text, i ? &w->max_real : &w->min_real)
                          : parse_signed(text, i ? &w->max : &w->min);
        if (bad)
            return pf_opts_usage_error(&gen_spec, "sp: %s takes %s, not '%s'", i ? "--max" : "--min",
                                      a->real ? "a finite number" : "an integer", text);
    }
    return PF_EXIT_OK;
}

/* What the file's comment says: the command's effective parameters, and
 * the weights actually produced (with --negative they exceed [min, max]). */
static void sp_comment(const pf_wgen_params *w, const pf_wgraph *g, char *text, size_t len)
{
    char range[128];
    pf_wgraph_weight_range(g, range, sizeof range);
    int used;
    if (w->real)
        used = snprintf(text, len, "portaflow gen sp (seed %llu) %lld --arcs %lld --min %.17g "
                        "--max %.17g --real", (unsigned long long)w->seed, (long long)w->vertices,
                        (long long)w->arcs, w->min_real, w->max_real);
    else
        used = snprintf(text, len, "portaflow gen sp (seed %llu) %lld --arcs %lld --min %lld "
                        "--max %lld", (unsigned long long)w->seed, (long long)w->vertices,
                        (long long)w->arcs, (long long)w->min, (long long)w->max);
    if (used > 0 && (size_t)used < len && w->negative)
        used += snprintf(text + used, len - (size_t)used,
                         " --negative\nweights c(u,v) + p(u) - p(v), c in [min, max], "
                         "p in [0, max]: no negative cycle");
    if (used > 0 && (size_t)used < len)
        snprintf(text + used, len - (size_t)used, "\nweights produced: %s", range);
}

/* ---- analytics graphs ---------------------------------------------------- */

/* A failed writer's message, as an output error naming the file. */
static int output_failed(pf_outfile *out, pf_status *st)
{
    if (out->fp && ferror(out->fp)) {
        static const char stream[] = "<output stream>: ";
        char why[sizeof st->message];
        int named = !strncmp(st->message, stream, sizeof stream - 1);
        snprintf(why, sizeof why, "%s", st->message + (named ? sizeof stream - 1 : 0));
        pf_fail(st, PF_E_OUTPUT, "%s: %s", out->path, why);
    }
    pf_outfile_abort(out);
    return st->code;
}

static int gen_analytics(const gen_args *a)
{
    pf_ggen_params p = {.family = a->family->name, .edgefactor = a->edgefactor,
                        .conn = (int32_t)a->conn, .wmin = a->wmin, .wmax = a->wmax,
                        .seed = a->seed};
    memcpy(p.size, a->size, sizeof p.size);
    pf_status st;
    pf_progress_open(a->progress, 1, "gen");
    pf_progress_step("generating %s", a->family->name);
    pf_csr *g = pf_ggen(&p, &st);
    if (!g)
        return st.code == PF_E_USAGE ? pf_opts_usage_error(&gen_spec, "%s", st.message)
                                     : pf_cli_error(&st);
    char comment[256];
    int used = snprintf(comment, sizeof comment, "portaflow gen %s (seed %llu)", a->family->name,
                        (unsigned long long)a->seed);
    for (int i = 0; i < a->family->positional && used > 0 && (size_t)used < sizeof comment; i++)
        used += snprintf(comment + used, sizeof comment - (size_t)used, " %lld",
                         (long long)a->size[i]);
    if (used > 0 && (size_t)used < sizeof comment)
        snprintf(comment + used, sizeof comment - (size_t)used, "\n%s, %lld vertices, %lld arcs",
                 g->undirected ? "undirected" : "directed", (long long)g->n, (long long)g->m);
    pf_progress_step("writing %s", a->out_path && strcmp(a->out_path, "-") ? a->out_path
                                                                           : "standard output");
    pf_outfile out;
    int rc = pf_outfile_open(&out, a->out_path, NULL, &st);
    if (!rc)
        rc = !strcmp(a->format, "bin")  ? pf_csr_write_bin(g, out.fp, &st)
           : !strcmp(a->format, "el")   ? pf_csr_write_el(g, out.fp, comment, &st)
                                        : pf_csr_write_dimacs(g, out.fp, comment, &st);
    if (!rc)
        rc = pf_outfile_commit(&out, &st);
    else if (out.fp)
        rc = output_failed(&out, &st);
    pf_csr_free(g);
    return rc ? pf_cli_error(&st) : PF_EXIT_OK;
}

/* ---- update streams ------------------------------------------------------ */

/* The command line that made the stream, as its first comment: what was
 * given, printable ASCII only (a path may hold anything). */
static void updates_comment(FILE *out, const gen_args *a)
{
    fputs("c portaflow gen updates ", out);
    for (const char *p = a->graph; *p; p++)
        fputc(*p >= 0x20 && *p < 0x7f ? *p : '?', out);
    fprintf(out, " --fraction %s --batches %lld --mix %s --seed %llu\n", a->text[OPT_FRACTION],
            (long long)a->batches, a->text[OPT_MIX] ? a->text[OPT_MIX] : "cap,add,del",
            (unsigned long long)a->seed);
}

static int gen_updates(gen_args *a)
{
    pf_status st;
    pf_progress_open(a->progress, 1, "gen");
    pf_progress_step("reading %s", strcmp(a->graph, "-") ? a->graph : "standard input");
    pf_network *net = pf_cli_read_network(&a->input, a->graph, &st);
    pf_cli_input_free(&a->input);
    if (!net)
        return pf_cli_error(&st);
    pf_update_gen_params p = {.fraction = a->fraction, .batches = a->batches, .mix = a->mix,
                              .seed = a->seed, .base = net->zero_based_ids ? 0 : 1};
    pf_progress_step("writing %s", a->out_path && strcmp(a->out_path, "-") ? a->out_path
                                                                           : "standard output");
    pf_outfile out;
    int rc = pf_outfile_open(&out, a->out_path, NULL, &st);
    if (!rc) {
        updates_comment(out.fp, a);
        rc = pf_update_gen_write(net, &p, out.fp, &st);
    }
    if (!rc)
        rc = pf_outfile_commit(&out, &st);
    else if (out.fp)
        rc = output_failed(&out, &st);
    pf_network_free(net);
    return rc ? pf_cli_error(&st) : PF_EXIT_OK;
}

/* ---- the command -------------------------------------------------------- */

int pf_cli_gen(int argc, char **argv)
{
    gen_args a;
    int rc = parse_gen_args(argc, argv, &a);
    if (rc != PF_OPTS_GO_ON) {
        pf_cli_input_free(&a.input);
        return rc;
    }
    if (a.family->updates)
        return gen_updates(&a);
    pf_status st;
    pf_network *net = NULL;
    pf_wgraph *g = NULL;
    pf_wgen_params w;
    char comment[512];
    if (a.family->weighted && (rc = sp_params(&a, &w)) != PF_EXIT_OK)
        return rc;
    if (a.analytics)
        return gen_analytics(&a);
    pf_progress_open(a.progress, 1, "gen");
    pf_progress_step("generating %s", a.family->name);
    if (a.family->weighted) {
        g = pf_gen_wgraph(&w, &st);
        if (!g)
            return pf_cli_error(&st);
        sp_comment(&w, g, comment, sizeof comment);
    } else {
        net = generate(&a, &st);
        if (!net)
            return pf_cli_error(&st);
        snprintf(comment, sizeof comment, "portaflow gen %s (seed %llu)", a.family->name,
                 (unsigned long long)a.seed);
        for (int i = 0; i < a.family->positional; i++) {
            size_t used = strlen(comment);
            snprintf(comment + used, sizeof comment - used, " %lld", (long long)a.size[i]);
        }
    }
    pf_outfile out;
    pf_progress_step("writing %s", a.out_path && strcmp(a.out_path, "-") ? a.out_path
                                                                          : "standard output");
    rc = pf_outfile_open(&out, a.out_path, NULL, &st);
    if (!rc)
        rc = g ? pf_wgraph_write_dimacs(g, out.fp, comment, &st)
               : pf_network_write_dimacs_stream(net, out.fp, comment, &st);
    if (!rc)
        rc = pf_outfile_commit(&out, &st); /* into place only when whole */
    else if (out.fp) {
        if (ferror(out.fp)) { /* the writer failed writing: an output error */
            static const char stream[] = "<output stream>: ";
            char why[sizeof st.message];
            int named = !strncmp(st.message, stream, sizeof stream - 1);
            snprintf(why, sizeof why, "%s", st.message + (named ? sizeof stream - 1 : 0));
            pf_fail(&st, PF_E_OUTPUT, "%s: %s", out.path, why);
        }
        pf_outfile_abort(&out);
    }
    pf_network_free(net);
    pf_wgraph_free(g);
    return rc ? pf_cli_error(&st) : PF_EXIT_OK;
}
