/* spawn.h -- runs this test program again as a child with a chosen
 *            environment and captures what it wrote (trust suites) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
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
        char *argv[16] = {(char *)"child", (char *)mode, NULL};
        /* under meson's exe_wrapper (qemu-user for a cross build) run
         * this program through the wrapper again */
        static char self[4096], wrap[1024];
        const char *w = getenv("MESON_EXE_WRAPPER");
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        int wrapped = w && *w && n > 0 && strlen(w) < sizeof wrap;
        if (wrapped) {
            int argc = 0;
            self[n] = 0;
            strcpy(wrap, w);
            for (char *tok = strtok(wrap, " "); tok && argc < 12; tok = strtok(NULL, " "))
                argv[argc++] = tok;
            argv[argc++] = self;
            argv[argc++] = (char *)mode;
            argv[argc] = NULL;
        }
        unsetenv("POLYMAC_BACKEND");
        unsetenv("POLYMAC_DEBUG");
        if (backend)
            setenv("POLYMAC_BACKEND", backend, 1);
        if (debug)
            setenv("POLYMAC_DEBUG", debug, 1);
        dup2(fileno(fo), 1);
        dup2(fileno(fe), 2);
        if (wrapped)
            execvp(argv[0], argv);
        else
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

/* Whether this program can run itself again: not under qemu-user without
 * binfmt_misc, where /proc/self/exe is the emulator.  The program answers
 * run_self("--ping") by printing "pong". */
static inline int can_reexec(void)
{
    char o[64], e[256];
    int rc = run_self("--ping", NULL, NULL, o, sizeof o, e, sizeof e);
    if (rc == 0 && strncmp(o, "pong", 4) == 0)
        return 1;
    printf("NOTE: this program cannot run itself again here (an emulator?); "
           "the fresh-process cases are not tested in this run\n");
    return 0;
}

/* The child's end of run_self: with argv[1] "--child" returns child()'s
 * exit code, with "--ping" answers can_reexec; -1 when argv names neither
 * (the program goes on as the test suite). */
static inline int run_as_child(int argc, char **argv, int (*child)(void))
{
    if (argc > 1 && strcmp(argv[1], "--child") == 0)
        return child();
    if (argc > 1 && strcmp(argv[1], "--ping") == 0)
        return puts("pong") < 0;
    return -1;
}

#endif
