/* The CLI's output contract: every command exits 4 when stdout or an
 * output file cannot be written; an output file is replaced only once it
 * is whole, a device or FIFO is written in place and never removed, and a
 * signal during output leaves the previous file and no temporary file. */
#define _GNU_SOURCE
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "support.h"

static const char clrs[] = "p max 6 10\nn 1 s\nn 6 t\n"
                           "a 1 2 16\na 1 3 13\na 2 3 10\na 3 2 4\na 2 4 12\n"
                           "a 4 3 9\na 3 5 14\na 5 4 7\na 4 6 20\na 5 6 4\n";

static const char small_sp[] = "p sp 4 4\na 1 2 5\na 2 3 -2\na 3 1 1\na 1 2 7\n";

/* Starts portaflow with `args`, stdout to `out_path` (NULL: /dev/null),
 * stderr to `err_path` (NULL: /dev/null); a positive `fsize_limit` caps the
 * size of files it writes (writes past it fail with EFBIG). */
static pid_t start(const char *const *args, const char *out_path, const char *err_path,
                   long fsize_limit)
{
    const char *bin = getenv("PF_BIN");
    const char *argv[32];
    int argc = 0;
    argv[argc++] = bin ? bin : "./portaflow";
    for (int i = 0; args[i] && argc < 31; i++)
        argv[argc++] = args[i];
    argv[argc] = NULL;
    /* Check's handlers for SIGINT and SIGTERM (inherited over fork) kill the
     * whole process group: the child takes the default actions before a
     * signal sent by the test can reach it, in a process group of its own. */
    sigset_t stop_signals, old_mask;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    sigprocmask(SIG_BLOCK, &stop_signals, &old_mask);
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        setpgid(0, 0);
        sigprocmask(SIG_SETMASK, &old_mask, NULL);
        int in = open("/dev/null", O_RDONLY);
        int out = open(out_path ? out_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int err = open(err_path ? err_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (in < 0 || out < 0 || err < 0)
            _exit(126);
        dup2(in, 0), dup2(out, 1), dup2(err, 2);
        if (fsize_limit > 0) {
            struct rlimit limit = {.rlim_cur = (rlim_t)fsize_limit, .rlim_max = RLIM_INFINITY};
            signal(SIGXFSZ, SIG_IGN);
            setrlimit(RLIMIT_FSIZE, &limit);
        }
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    sigprocmask(SIG_SETMASK, &old_mask, NULL);
    ck_assert_int_gt(pid, 0);
    return pid;
}

/* The exit status, or 128 + the signal that ended it. */
static int finish(pid_t pid)
{
    int status;
    if (waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int run_to(const char *const *args, const char *out_path, char **err)
{
    char err_path[] = "/tmp/pf_out_err_XXXXXX";
    close(mkstemp(err_path));
    int rc = finish(start(args, out_path, err_path, 0));
    *err = pf_test_read_file(err_path);
    unlink(err_path);
    return rc;
}

/* A fresh private directory (static buffer per call). */
static const char *new_dir(void)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/pf_out_dir_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(path));
    return path;
}

/* How many entries `dir` holds besides . and .. */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    int count = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        count += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d)
        closedir(d);
    return count;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

/* Every command exits 4 when stdout is /dev/full, naming the failure. */
START_TEST(stdout_full_is_exit_4)
{
    char graph[256], sp[256], solution[256];
    snprintf(graph, sizeof graph, "%s", pf_test_tmpfile(clrs));
    snprintf(sp, sizeof sp, "%s", pf_test_tmpfile(small_sp));
    snprintf(solution, sizeof solution, "%s",
             pf_test_tmpfile("s 23\nn 1\nn 2\nn 3\nn 5\n"));
    const char *const commands[][8] = {
        {"solve", "--backend", "seq", graph, NULL},
        {"solve", "--json", "--flow", graph, NULL},
        {"check", graph, solution, NULL},
        {"compare", graph, NULL},
        {"gen", "rmf", "3", "3", NULL},
        {"gen", "sp", "20", NULL},
        {"apsp", "--backend", "seq", sp, NULL},
        {"apsp", "--stats", sp, NULL},
        {"apsp", "--stats", "--json", sp, NULL},
        {"apsp", "--paths", sp, NULL},
        {"backends", NULL},
        {"solve", "--help", NULL},
        {"--help", NULL},
    };
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        char *err;
        int rc = run_to(commands[i], "/dev/full", &err);
        ck_assert_msg(rc == 4, "%s %s: exit %d, %s", commands[i][0], commands[i][1], rc, err);
        ck_assert_msg(strstr(err, "fail") != NULL, "%s: says what failed: %s", commands[i][0],
                      err);
        free(err);
        ck_assert_msg(run_to(commands[i], NULL, &err) == 0, "%s to /dev/null: %s",
                      commands[i][0], err);
        free(err);
    }
}
END_TEST

/* -o on a device it did not create: written in place, exit 4, never removed. */
START_TEST(device_is_written_in_place_and_kept)
{
    char sp[256];
    snprintf(sp, sizeof sp, "%s", pf_test_tmpfile(small_sp));
    const char *const commands[][8] = {
        {"gen", "rmf", "3", "3", "-o", "/dev/full", NULL},
        {"gen", "sp", "20", "--out=/dev/full", NULL},
        {"apsp", "--out", "/dev/full", sp, NULL},
        {"apsp", "--binary", "-o", "/dev/full", sp, NULL},
    };
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        char *err;
        ck_assert_int_eq(run_to(commands[i], NULL, &err), 4);
        ck_assert_msg(strstr(err, "/dev/full") != NULL, "names the file: %s", err);
        free(err);
        struct stat sb;
        ck_assert_int_eq(stat("/dev/full", &sb), 0);
        ck_assert(S_ISCHR(sb.st_mode));
    }
    char *err;
    const char *to_null[] = {"gen", "rmf", "2", "2", "-o", "/dev/null", NULL};
    ck_assert_int_eq(run_to(to_null, NULL, &err), 0);
    free(err);
    struct stat sb;
    ck_assert_int_eq(stat("/dev/null", &sb), 0);
    ck_assert(S_ISCHR(sb.st_mode));
}
END_TEST

/* A FIFO stays a FIFO and receives the whole instance. */
START_TEST(fifo_is_written_in_place)
{
    const char *dir = new_dir();
    char fifo[128];
    snprintf(fifo, sizeof fifo, "%s/pipe", dir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    int reader = open(fifo, O_RDONLY | O_NONBLOCK);
    ck_assert_int_ge(reader, 0);
    char *err;
    const char *gen[] = {"gen", "rmf", "2", "2", "-o", fifo, NULL};
    ck_assert_int_eq(run_to(gen, NULL, &err), 0);
    free(err);
    char buf[4096];
    ssize_t got = read(reader, buf, sizeof buf - 1);
    ck_assert_int_gt(got, 0);
    buf[got] = '\0';
    ck_assert_ptr_nonnull(strstr(buf, "p max 8 20\n"));
    close(reader);
    struct stat sb;
    ck_assert_int_eq(lstat(fifo, &sb), 0);
    ck_assert(S_ISFIFO(sb.st_mode));
    ck_assert_int_eq(entries(dir), 1);
    unlink(fifo);
    rmdir(dir);
}
END_TEST

/* A write that fails part-way (file size limit) keeps the old file and
 * leaves no temporary file; a good run replaces it, keeping its mode. */
START_TEST(failed_write_keeps_the_old_file)
{
    const char *dir = new_dir();
    char target[128], sp[256];
    snprintf(target, sizeof target, "%s/instance.max", dir);
    snprintf(sp, sizeof sp, "%s", pf_test_tmpfile(small_sp));
    write_text(target, "old contents\n");
    ck_assert_int_eq(chmod(target, 0640), 0);
    const char *gen[] = {"gen", "rmf", "8", "8", "-o", target, NULL};
    ck_assert_int_eq(finish(start(gen, NULL, NULL, 4096)), 4);
    char *text = pf_test_read_file(target);
    ck_assert_str_eq(text, "old contents\n");
    free(text);
    ck_assert_int_eq(entries(dir), 1);

    const char *apsp[] = {"apsp", "--paths", "-o", target, sp, NULL};
    ck_assert_int_eq(finish(start(apsp, NULL, NULL, 8)), 4);
    text = pf_test_read_file(target);
    ck_assert_str_eq(text, "old contents\n");
    free(text);
    ck_assert_int_eq(entries(dir), 1);

    ck_assert_int_eq(finish(start(gen, NULL, NULL, 0)), 0);
    text = pf_test_read_file(target);
    ck_assert_ptr_nonnull(strstr(text, "p max 512 "));
    free(text);
    struct stat sb;
    ck_assert_int_eq(stat(target, &sb), 0);
    ck_assert_int_eq(sb.st_mode & 0777, 0640);
    ck_assert_int_eq(entries(dir), 1);
    unlink(target);
    rmdir(dir);
}
END_TEST

/* SIGINT or SIGTERM at any moment of a run: the target is the old file or
 * the whole new one, and no temporary file is left. The delays cover the
 * run (about 50 ms on a 2-core machine) so that some signals land during
 * output. */
START_TEST(signal_leaves_old_or_whole_file)
{
    const char *dir = new_dir();
    char target[128];
    snprintf(target, sizeof target, "%s/big.max", dir);
    const char *gen[] = {"gen", "rmf", "40", "40", "-o", target, NULL};
    ck_assert_int_eq(finish(start(gen, NULL, NULL, 0)), 0);
    char *whole = pf_test_read_file(target);
    ck_assert_ptr_nonnull(whole);
    int signalled = 0;
    for (int delay_ms = 1; delay_ms <= 80; delay_ms += 3) {
        write_text(target, "old contents\n");
        pid_t pid = start(gen, NULL, NULL, 0);
        struct timespec pause = {.tv_sec = 0, .tv_nsec = delay_ms * 1000000L};
        nanosleep(&pause, NULL);
        kill(pid, delay_ms % 2 ? SIGINT : SIGTERM);
        int rc = finish(pid);
        signalled += rc > 128;
        char *text = pf_test_read_file(target);
        ck_assert_msg(!strcmp(text, "old contents\n") || !strcmp(text, whole),
                      "after a signal at %d ms (exit %d) the file is neither old nor whole",
                      delay_ms, rc);
        free(text);
        ck_assert_msg(entries(dir) == 1, "a temporary file is left after %d ms", delay_ms);
    }
    ck_assert_msg(signalled > 0, "no run was stopped by its signal");
    free(whole);
    unlink(target);
    rmdir(dir);
}
END_TEST

/* --out near PATH_MAX: FILE.next is written beside it; a FILE.next name
 * over the file system's limit is refused before any work (exit 1). */
START_TEST(next_file_beside_a_long_path)
{
    const char *root = new_dir();
    char path[4200], sp[256];
    snprintf(sp, sizeof sp, "%s", pf_test_tmpfile(small_sp));
    snprintf(path, sizeof path, "%s", root);
    size_t want = 4093, name_len = 250;
    while (strlen(path) + 1 + name_len < want) { /* directories until the name fits exactly */
        size_t room = want - name_len - 1 - strlen(path) - 1;
        size_t seg = room > 300 ? 200 : room;
        size_t len = strlen(path);
        path[len] = '/';
        memset(path + len + 1, 'd', seg);
        path[len + 1 + seg] = '\0';
        ck_assert_int_eq(mkdir(path, 0700), 0);
    }
    size_t len = strlen(path);
    path[len] = '/';
    memset(path + len + 1, 'f', want - len - 1);
    path[want] = '\0';
    ck_assert_int_eq(strlen(path), 4093);
    char *err;
    const char *apsp[] = {"apsp", "--paths", "-o", path, sp, NULL};
    ck_assert_int_eq(run_to(apsp, NULL, &err), 0);
    free(err);
    char *next_name = strrchr(path, '/') + 1, dir[4200];
    snprintf(dir, sizeof dir, "%.*s", (int)(next_name - path - 1), path);
    int dir_fd = open(dir, O_RDONLY | O_DIRECTORY);
    ck_assert_int_ge(dir_fd, 0);
    char name[300];
    snprintf(name, sizeof name, "%s.next", next_name);
    int next_fd = openat(dir_fd, name, O_RDONLY);
    ck_assert_msg(next_fd >= 0, "FILE.next beside a 4093-byte --out path is missing");
    char buf[256];
    ssize_t got = read(next_fd, buf, sizeof buf - 1);
    ck_assert_int_gt(got, 0);
    buf[got] = '\0';
    ck_assert_str_eq(buf, "1 2 2 -\n3 2 3 -\n1 1 3 -\n- - - 4\n");
    close(next_fd);
    close(dir_fd);

    char too_long[300];
    memset(too_long, 'x', 252);
    too_long[252] = '\0';
    char long_target[400];
    snprintf(long_target, sizeof long_target, "%s/%s", root, too_long);
    const char *refused[] = {"apsp", "--paths", "-o", long_target, sp, NULL};
    ck_assert_int_eq(run_to(refused, NULL, &err), 1);
    ck_assert_msg(strstr(err, ".next") != NULL, "%s", err);
    free(err);
    ck_assert_int_eq(access(long_target, F_OK), -1);
    char command[128];
    snprintf(command, sizeof command, "rm -rf %s", root);
    ck_assert_int_eq(system(command), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cli_output");
    TCase *tc = tcase_create("output");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, stdout_full_is_exit_4);
    tcase_add_test(tc, device_is_written_in_place_and_kept);
    tcase_add_test(tc, fifo_is_written_in_place);
    tcase_add_test(tc, failed_write_keeps_the_old_file);
    tcase_add_test(tc, signal_leaves_old_or_whole_file);
    tcase_add_test(tc, next_file_beside_a_long_path);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
