/* spawn.h -- runs this test program again as a child with a chosen
 *            environment and captures what it wrote (trust suites) */
/* SPDX-License-Identifier: MIT */
#ifndef POLYMAC_TEST_SPAWN_H
#define POLYMAC_TEST_SPAWN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The library reads POLYMAC_BACKEND and POLYMAC_DEBUG when it loads, before
 * main, and prints to the process's stderr: only a fresh process shows it.
 * run_self(mode, backend, debug, out, err) execs /proc/self/exe with argv
 * {self, mode}, POLYMAC_BACKEND=backend and POLYMAC_DEBUG=debug (NULL
 * unsets), and stores its stdout and stderr (NUL-terminated, truncated to
 * cap - 1).  Returns the exit status, or -1 when it did not exit. */
static inline size_t spawn_slurp(FILE *f, char *buf, size_t cap)
{
    rewind(f);
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = 0;
    fclose(f);
    return n;
}

static inline int run_self(const char *mode, const char *backend, const char *debug,
                           char *out, size_t outcap, char *err, size_t errcap)
{
    FILE *fo = tmpfile(), *fe = tmpfile();
    if (!fo || !fe)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        char *argv[] = {(char *)"child", (char *)mode, NULL};
        unsetenv("POLYMAC_BACKEND");
        unsetenv("POLYMAC_DEBUG");
        if (backend)
            setenv("POLYMAC_BACKEND", backend, 1);
        if (debug)
            setenv("POLYMAC_DEBUG", debug, 1);
        dup2(fileno(fo), 1);
        dup2(fileno(fe), 2);
        execv("/proc/self/exe", argv);
        _exit(127);
    }
    int status;
    if (waitpid(pid, &status, 0) != pid)
        return -1;
    spawn_slurp(fo, out, outcap);
    spawn_slurp(fe, err, errcap);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

#endif
