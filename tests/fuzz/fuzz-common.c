/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/fileio.h"
#include "tests/fuzz/fuzz.h"

void fuzz_fail(const char *file, int line, const char *what)
{
        fprintf(stderr, "%s:%d: property failed: %s\n", file, line, what);
        abort();
}

char *fuzz_strndup(const uint8_t *data, size_t size)
{
        char *s = malloc(size + 1);

        if (!s)
                abort();
        memcpy(s, data, size);
        s[size] = '\0';
        return s;
}

FILE *fuzz_text_open(char **text, size_t *len)
{
        FILE *f = open_memstream(text, len);

        if (!f)
                abort();
        return f;
}

void fuzz_text_close(FILE *f)
{
        if (fclose(f) != 0)
                abort();
}

static bool names_place(const char *msg, const char *file, bool line)
{
        size_t len = strlen(file);
        const char *p = msg + len + 1;

        if (strncmp(msg, file, len) != 0 || msg[len] != ':')
                return false;
        if (!line)
                return true;
        if (*p < '1' || *p > '9')
                return false;
        p += strspn(p, "0123456789");
        return p[0] == ':' && p[1] == ' ';
}

void fuzz_check_places(const struct bl_diag *diag, const char *file, bool line)
{
        for (unsigned i = 0; i < diag->n; i++)
                if (!names_place(diag->msg[i], file, line)) {
                        fprintf(stderr, "%s\n", diag->msg[i]);
                        fuzz_fail(__FILE__, __LINE__, line ? "the message names FILE:LINE" :
                                  "the message names FILE");
                }
}

#ifdef FUZZ_STANDALONE
/* Replays one file; the input is copied to a buffer of its exact size, as
 * libFuzzer passes it, so that reading past its end is caught by ASan. */
static int replay_file(const char *path)
{
        _cleanup_free_ char *text = NULL;
        _cleanup_free_ uint8_t *copy = NULL;
        size_t len = 0;
        int r;

        r = read_file(path, &text, &len);
        if (r < 0) {
                fprintf(stderr, "%s: cannot read: %s\n", path, strerror(-r));
                return r;
        }
        copy = malloc(len ? len : 1);
        if (!copy)
                abort();
        memcpy(copy, text, len);
        LLVMFuzzerTestOneInput(copy, len);
        return 0;
}

static int replay_dir(const char *dir, unsigned *count)
{
        struct dirent **names = NULL;
        int n = scandir(dir, &names, NULL, alphasort), r = 0;

        if (n < 0) {
                fprintf(stderr, "%s: cannot list\n", dir);
                return -1;
        }
        for (int i = 0; i < n; i++) {
                char path[4096];

                if (names[i]->d_name[0] != '.' && r == 0) {
                        r = path_join(path, sizeof(path), dir, names[i]->d_name);
                        if (r == 0)
                                r = replay_file(path);
                        if (r == 0)
                                (*count)++;
                }
                free(names[i]);
        }
        free(names);
        return r;
}

/* Replays the files named, or every file of the directories named; says how
 * many it replayed, and fails when that is none (a corpus gone missing). */
int main(int argc, char **argv)
{
        unsigned count = 0;

        for (int i = 1; i < argc; i++) {
                struct stat st;
                int r;

                if (stat(argv[i], &st) < 0) {
                        fprintf(stderr, "%s: not found\n", argv[i]);
                        return EXIT_FAILURE;
                }
                if (S_ISDIR(st.st_mode)) {
                        r = replay_dir(argv[i], &count);
                } else {
                        r = replay_file(argv[i]);
                        count += r == 0;
                }
                if (r < 0)
                        return EXIT_FAILURE;
        }
        printf("%u inputs replayed\n", count);
        return count > 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
#endif
