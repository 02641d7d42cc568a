/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ctl/output.h"

bool output_fancy(int fd)
{
        const char *term = getenv("TERM");

        if (!isatty(fd))
                return false;
        if (getenv("NO_COLOR"))
                return false;
        if (!term || strcmp(term, "dumb") == 0)
                return false;
        return strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
}

const char *ansi(bool fancy, const char *code)
{
        return fancy ? code : "";
}

const char *ansi_reset(bool fancy)
{
        return fancy ? ANSI_RESET : "";
}

const char *symbol_arrow(bool fancy)
{
        return fancy ? "→" : "->";
}

size_t display_width(const char *s)
{
        size_t w = 0;

        while (*s) {
                if (*s == '\033' && s[1] == '[') {
                        s += 2;
                        while (*s && *s != 'm')
                                s++;
                        if (*s)
                                s++;
                        continue;
                }
                /* Count lead bytes only: one column per code point is right for
                 * everything switchctl prints (levels, "→", "°"). */
                if (((unsigned char)*s & 0xc0) != 0x80)
                        w++;
                s++;
        }
        return w;
}

char *format_wall(char *buf, size_t size, uint64_t usec)
{
        time_t t = (time_t)(usec / 1000000);
        struct tm tm;

        if (usec == 0 || !localtime_r(&t, &tm) || strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm) == 0)
                snprintf(buf, size, "-");
        return buf;
}

char *format_percent(char *buf, size_t size, uint64_t part, uint64_t whole)
{
        if (whole == 0)
                snprintf(buf, size, "-");
        else
                snprintf(buf, size, "%.1f%%", 100.0 * (double)part / (double)whole);
        return buf;
}

void json_string(FILE *f, const char *s)
{
        fputc('"', f);
        for (; *s; s++) {
                unsigned char c = (unsigned char)*s;

                switch (c) {
                case '"':
                        fputs("\\\"", f);
                        break;
                case '\\':
                        fputs("\\\\", f);
                        break;
                case '\n':
                        fputs("\\n", f);
                        break;
                case '\t':
                        fputs("\\t", f);
                        break;
                case '\r':
                        fputs("\\r", f);
                        break;
                default:
                        if (c < 0x20 || c == 0x7f)
                                fprintf(f, "\\u%04x", c);
                        else
                                fputc(c, f);
                }
        }
        fputc('"', f);
}

struct table {
        unsigned ncols;
        size_t ncells, allocated;
        char **cells;
        bool *right;
};

int table_new(struct table **ret, unsigned ncols)
{
        struct table *t = calloc(1, sizeof(*t));

        if (!t)
                return -ENOMEM;
        t->ncols = ncols;
        t->right = calloc(ncols, sizeof(*t->right));
        if (!t->right) {
                free(t);
                return -ENOMEM;
        }
        *ret = t;
        return 0;
}

int table_add(struct table *t, const char *cell)
{
        char *copy;

        if (t->ncells == t->allocated) {
                size_t n = t->allocated ? t->allocated * 2 : 16;
                char **cells = realloc(t->cells, n * sizeof(*cells));

                if (!cells)
                        return -ENOMEM;
                t->cells = cells;
                t->allocated = n;
        }
        copy = strdup(cell);
        if (!copy)
                return -ENOMEM;
        t->cells[t->ncells++] = copy;
        return 0;
}

int table_addf(struct table *t, const char *fmt, ...)
{
        char *cell;
        va_list ap;
        int r;

        va_start(ap, fmt);
        r = vasprintf(&cell, fmt, ap);
        va_end(ap);
        if (r < 0)
                return -ENOMEM;
        r = table_add(t, cell);
        free(cell);
        return r;
}

void table_align_right(struct table *t, unsigned col)
{
        if (col < t->ncols)
                t->right[col] = true;
}

unsigned table_rows(const struct table *t)
{
        size_t rows = t->ncells / t->ncols;

        return rows > 0 ? (unsigned)rows - 1 : 0;
}

static void print_row(const struct table *t, FILE *f, size_t row, const size_t *width, const char *style,
                      bool fancy)
{
        const char *on = fancy && style ? style : "", *off = fancy && style ? ANSI_RESET : "";
        unsigned ncells = t->ncols;

        /* No trailing blanks: empty cells at the end of a row are not printed. */
        while (ncells > 1 && t->cells[row * t->ncols + ncells - 1][0] == '\0')
                ncells--;
        for (unsigned c = 0; c < ncells; c++) {
                const char *cell = t->cells[row * t->ncols + c];
                int pad = (int)(width[c] - display_width(cell));
                bool last = c + 1 == ncells;

                if (c > 0)
                        fputs("  ", f);
                fprintf(f, "%s%*s%s%*s%s", on, t->right[c] ? pad : 0, "", cell, t->right[c] || last ? 0 : pad,
                        "", off);
        }
        fputc('\n', f);
}

void table_print(const struct table *t, FILE *f, bool legend, bool fancy)
{
        size_t rows = t->ncells / t->ncols;
        size_t *width = calloc(t->ncols, sizeof(*width));

        if (!width)
                return;
        for (size_t r = legend ? 0 : 1; r < rows; r++)
                for (unsigned c = 0; c < t->ncols; c++) {
                        size_t w = display_width(t->cells[r * t->ncols + c]);

                        if (w > width[c])
                                width[c] = w;
                }
        if (legend && rows > 0)
                print_row(t, f, 0, width, ANSI_UNDERLINE, fancy);
        for (size_t r = 1; r < rows; r++)
                print_row(t, f, r, width, NULL, fancy);
        free(width);
}

void table_free(struct table *t)
{
        if (!t)
                return;
        for (size_t i = 0; i < t->ncells; i++)
                free(t->cells[i]);
        free(t->cells);
        free(t->right);
        free(t);
}

static void pager_exec(const char *pager)
{
        /* A plain program name runs as it is; anything with shell syntax goes to sh. */
        if (pager) {
                if (strpbrk(pager, " \t\n|&;<>()$`\\\"'*?[#~=%"))
                        execl("/bin/sh", "sh", "-c", pager, (char *)NULL);
                else
                        execlp(pager, pager, (char *)NULL);
        }
        execlp("less", "less", (char *)NULL);
        execlp("more", "more", (char *)NULL);

        /* No pager at all: pass the text through. */
        char buf[4096];
        ssize_t n;
        while ((n = read(STDIN_FILENO, buf, sizeof(buf))) > 0)
                if (write(STDOUT_FILENO, buf, (size_t)n) != n)
                        break;
        _exit(EXIT_SUCCESS);
}

int pager_open(struct pager *p)
{
        const char *pager = getenv("SYSTEMD_PAGER");
        int fds[2];
        pid_t pid;

        p->pid = 0;
        if (!isatty(STDOUT_FILENO))
                return 0;
        if (!pager)
                pager = getenv("PAGER");
        if (pager && (pager[0] == '\0' || strcmp(pager, "cat") == 0))
                return 0;

        fflush(stdout);
        if (pipe2(fds, O_CLOEXEC) < 0)
                return -errno;
        pid = fork();
        if (pid < 0) {
                int r = -errno;

                close(fds[0]);
                close(fds[1]);
                return r;
        }
        if (pid == 0) {
                if (dup2(fds[0], STDIN_FILENO) < 0)
                        _exit(EXIT_FAILURE);
                /* What systemd's tools set: quit at end of a short text, keep colours. */
                setenv("LESS", "FRSXMK", 0);
                setenv("LESSCHARSET", "utf-8", 0);
                pager_exec(pager);
        }
        if (dup2(fds[1], STDOUT_FILENO) < 0) {
                int r = -errno;

                close(fds[0]);
                close(fds[1]);
                kill(pid, SIGTERM);
                waitpid(pid, NULL, 0);
                return r;
        }
        close(fds[0]);
        close(fds[1]);
        /* A pager quit early is not an error of ours. */
        signal(SIGPIPE, SIG_IGN);
        p->pid = pid;
        return 0;
}

void pager_close(struct pager *p)
{
        if (p->pid <= 0)
                return;
        fflush(stdout);
        /* The pager reads until end of file: close our end, then wait for the person. */
        close(STDOUT_FILENO);
        signal(SIGINT, SIG_IGN);
        while (waitpid(p->pid, NULL, 0) < 0 && errno == EINTR)
                ;
        p->pid = 0;
}
