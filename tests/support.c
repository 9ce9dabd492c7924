#define _GNU_SOURCE
#include "support.h"
#include "host/registry.h"

#include <check.h>
#include <stdio.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static char tmp_paths[8][64];
static int tmp_next;

static void remove_tmp_files(void)
{
    for (int i = 0; i < 8; i++)
        if (tmp_paths[i][0])
            unlink(tmp_paths[i]);
}

const char *pf_test_tmpname(void)
{
    if (tmp_next == 0)
        atexit(remove_tmp_files); /* in each forked test process too */
    char *p = tmp_paths[tmp_next++ % 8];
    if (p[0])
        unlink(p); /* the slot is reused: its old file goes */
    strcpy(p, "/tmp/pf_test_XXXXXX");
    int fd = mkstemp(p);
    if (fd >= 0)
        close(fd);
    return p;
}

const char *pf_test_tmpfile(const char *text)
{
    const char *p = pf_test_tmpname();
    FILE *f = fopen(p, "wb");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    return p;
}

static char *slurp_fd(int fd)
{
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    lseek(fd, 0, SEEK_SET);
    for (;;) {
        if (len + 1 == cap)
            buf = realloc(buf, cap *= 2);
        ssize_t r = read(fd, buf + len, cap - 1 - len);
        if (r <= 0)
            break;
        len += (size_t)r;
    }
    buf[len] = '\0';
    return buf;
}

char *pf_test_read_file(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return NULL;
    char *text = slurp_fd(fd);
    close(fd);
    return text;
}

int pf_test_run_cli(const char *const *args, const char *in_path, char **out, char **err)
{
    const char *bin = getenv("PF_BIN");
    if (!bin)
        bin = "./portaflow";
    char out_tpl[] = "/tmp/pf_cli_out_XXXXXX", err_tpl[] = "/tmp/pf_cli_err_XXXXXX";
    int out_fd = mkstemp(out_tpl), err_fd = mkstemp(err_tpl);
    unlink(out_tpl);
    unlink(err_tpl);

    const char *argv[64];
    int argc = 0;
    argv[argc++] = bin;
    for (int i = 0; args[i] && argc < 63; i++)
        argv[argc++] = args[i];
    argv[argc] = NULL;

    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, in_path ? in_path : "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
    posix_spawn_file_actions_adddup2(&fa, err_fd, 2);
    pid_t pid;
    int rc = posix_spawn(&pid, bin, &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    int status = -1;
    if (rc == 0 && waitpid(pid, &status, 0) == pid)
        status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    else
        status = -1;
    char *o = slurp_fd(out_fd), *e = slurp_fd(err_fd);
    close(out_fd);
    close(err_fd);
    if (out)
        *out = o;
    else
        free(o);
    if (err)
        *err = e;
    else
        free(e);
    return status;
}

#ifndef PF_PEER_BOOST
int64_t pf_peer_boost_value(const pf_network *net)
{
    (void)net;
    return -1;
}
#endif
#ifndef PF_PEER_LEMON
int64_t pf_peer_lemon_value(const pf_network *net)
{
    (void)net;
    return -1;
}
#endif

int pf_test_backend_devices(const char *backend, char *why, size_t why_len)
{
    pf_device_desc descs[32];
    char reasons[2048];
    int count = pf_list_devices(descs, 32, reasons, sizeof reasons);
    int found = 0;
    for (int i = 0; i < count; i++)
        if (!strcmp(descs[i].backend, backend))
            found++;
    if (!found) {
        /* Pick this backend's line out of the reasons. */
        snprintf(why, why_len, "%s: no usable device", backend);
        for (char *line = strtok(reasons, "\n"); line; line = strtok(NULL, "\n"))
            if (!strncmp(line, backend, strlen(backend)) && line[strlen(backend)] == ':')
                snprintf(why, why_len, "%s", line);
    }
    return found;
}

int pf_test_backend_missing(const char *backend)
{
    char why[512];
    if (!pf_backend_find(backend)) {
        printf("SKIP: not compiled into this build\n");
        return 1;
    }
    if (pf_test_backend_devices(backend, why, sizeof why) == 0) {
        printf("SKIP: %s\n", why);
        return 1;
    }
    return 0;
}

void pf_test_device_widths(const char *backend, int *bits, int max)
{
    pf_device_desc descs[32];
    char why[2048];
    int listed = pf_list_devices(descs, 32, why, sizeof why);
    for (int i = 0, k = 0; i < listed && k < max; i++)
        if (!strcmp(descs[i].backend, backend))
            bits[k++] = descs[i].maxflow_bits;
}

int pf_test_fits_32_bits(const pf_network *net)
{
    int64_t supply = 0;
    for (int64_t i = 0; i < pf_network_arcs(net); i++) {
        int64_t tail, head, cap;
        pf_network_arc(net, i, &tail, &head, &cap);
        if (tail == pf_network_source(net) && head != tail &&
            __builtin_add_overflow(supply, cap, &supply))
            return 0;
    }
    return supply < INT32_MAX;
}

int pf_test_reduced(void)
{
    const char *v = getenv("PORTAFLOW_TEST_REDUCED");
    return v && atoi(v) != 0;
}

void pf_test_assert_input_error(const pf_status *st, const char *name, int line,
                                const char *needle)
{
    char prefix[600];
    snprintf(prefix, sizeof prefix, "%s:%d: ", name, line);
    ck_assert_msg(st->code == PF_E_INPUT, "code %d, message '%s'", st->code, st->message);
    ck_assert_msg(strncmp(st->message, prefix, strlen(prefix)) == 0,
                  "message '%s' does not start with '%s'", st->message, prefix);
    ck_assert_msg(strstr(st->message, needle) != NULL, "message '%s' does not mention '%s'",
                  st->message, needle);
}

void pf_test_assert_arc(const pf_network *net, int64_t i, int64_t tail, int64_t head,
                        int64_t cap)
{
    int64_t t, h, c;
    ck_assert_int_eq(pf_network_arc(net, i, &t, &h, &c), PF_OK);
    ck_assert_msg(t == tail && h == head && c == cap,
                  "arc %lld is (%lld,%lld,%lld), expected (%lld,%lld,%lld)", (long long)i,
                  (long long)t, (long long)h, (long long)c, (long long)tail, (long long)head,
                  (long long)cap);
}

static int run_suite(Suite *s, enum fork_status fork)
{
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, fork);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

int pf_test_run_in_process(Suite *s)
{
    return run_suite(s, CK_NOFORK);
}

int pf_test_run(Suite *s)
{
    return run_suite(s, CK_FORK_GETENV);
}
