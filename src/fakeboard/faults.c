/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Faults a test imposes: files published with its text instead of the
 * board's, writes the refusing preload turns down.
 */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "fakeboard/board-internal.h"

#define REFUSE_RULES_MAX 4096

int fakeboard_override_file(struct fakeboard *fb, const char *path, const char *text)
{
        char full[PATH_MAX];
        unsigned i = 0;
        int r = fb_board_path(fb, full, sizeof(full), "%s", path);

        if (r < 0)
                return r;
        while (i < fb->noverrides && strcmp(fb->overrides[i].path, full) != 0)
                i++;
        if (!text) {
                if (i < fb->noverrides) {
                        free(fb->overrides[i].text);
                        fb->overrides[i] = fb->overrides[--fb->noverrides];
                }
                return 0;
        }
        if (i == fb->noverrides) {
                if (i == MAX_OVERRIDES)
                        return -ENOSPC;
                snprintf(fb->overrides[i].path, sizeof(fb->overrides[i].path), "%s", full);
                fb->overrides[i].text = NULL;
                fb->noverrides++;
        }
        free(fb->overrides[i].text);
        fb->overrides[i].text = strdup(text);
        if (!fb->overrides[i].text) {
                fb->overrides[i] = fb->overrides[--fb->noverrides];
                return -ENOMEM;
        }
        return fb_write_in_place(full, text, strlen(text));
}

/* The part of a testbed file's real path (symlinks resolved) below the
 * testbed's root: what the refusing preload sees through /proc/self/fd. */
static int testbed_suffix(const struct fakeboard *fb, const char *path, char *buf, size_t size)
{
        char full[PATH_MAX], resolved[PATH_MAX], root[PATH_MAX];
        size_t root_len;
        int r;

        r = fb_board_path(fb, full, sizeof(full), "%s", path);
        if (r < 0)
                return r;
        if (!realpath(full, resolved) || !realpath(fb->root, root))
                return -errno;
        root_len = strlen(root);
        if (strncmp(resolved, root, root_len) != 0 || resolved[root_len] != '/' || strchr(resolved, ' '))
                return -EXDEV;
        if ((size_t)snprintf(buf, size, "%s", resolved + root_len) >= size)
                return -ENAMETOOLONG;
        return 0;
}

/* Opens the rules file locked against the preload, which counts down in it,
 * and reads it. Returns the descriptor or -errno. */
static int open_rules(const struct fakeboard *fb, char *text, size_t size)
{
        char path[PATH_MAX];
        ssize_t n;
        int fd, r;

        r = fb_board_path(fb, path, sizeof(path), "/" REFUSE_RULES);
        if (r < 0)
                return r;
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOCTTY, 0644);
        if (fd < 0)
                return -errno;
        if (flock(fd, LOCK_EX) < 0 || (n = pread(fd, text, size - 1, 0)) < 0) {
                r = -errno;
                close(fd);
                return r;
        }
        text[n] = '\0';
        return fd;
}

/* The count of the rule for 'suffix' in the rules text, 0 if none. */
static unsigned rule_count(const char *text, const char *suffix)
{
        char word[PATH_MAX], error[32];
        unsigned count;

        for (const char *line = text; *line;) {
                if (sscanf(line, "%4095s %31s %u", word, error, &count) == 3 && strcmp(word, suffix) == 0)
                        return count;
                line = strchrnul(line, '\n');
                if (*line)
                        line++;
        }
        return 0;
}

int fakeboard_refuse_writes(struct fakeboard *fb, const char *path, int error, unsigned count)
{
        char suffix[PATH_MAX], text[REFUSE_RULES_MAX], out[REFUSE_RULES_MAX], word[PATH_MAX];
        size_t len = 0;
        int fd, r;

        if (!fb->refuse_so || access(fb->refuse_so, R_OK) < 0)
                return -ENOPKG;
        if (error <= 0)
                return -EINVAL;
        r = testbed_suffix(fb, path, suffix, sizeof(suffix));
        if (r < 0)
                return r;
        fd = open_rules(fb, text, sizeof(text));
        if (fd < 0)
                return fd;
        out[0] = '\0';
        for (char *line = text, *end; *line && len < sizeof(out); line = end) {
                end = strchrnul(line, '\n');
                if (*end)
                        *end++ = '\0';
                if (sscanf(line, "%4095s", word) == 1 && strcmp(word, suffix) == 0)
                        continue;
                len += (size_t)snprintf(out + len, sizeof(out) - len, "%s\n", line);
        }
        if (count > 0 && len < sizeof(out))
                len += (size_t)snprintf(out + len, sizeof(out) - len, "%s %d %u\n", suffix, error, count);
        r = 0;
        if (len >= sizeof(out))
                r = -E2BIG;
        else if (pwrite(fd, out, len, 0) != (ssize_t)len || ftruncate(fd, (off_t)len) < 0)
                r = -errno;
        close(fd);
        return r;
}

int fakeboard_refusals_left(struct fakeboard *fb, const char *path)
{
        char suffix[PATH_MAX], text[REFUSE_RULES_MAX];
        unsigned count;
        int fd, r;

        r = testbed_suffix(fb, path, suffix, sizeof(suffix));
        if (r < 0)
                return r;
        fd = open_rules(fb, text, sizeof(text));
        if (fd < 0)
                return fd;
        count = rule_count(text, suffix);
        close(fd);
        return (int)count;
}
