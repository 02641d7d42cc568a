/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <ctype.h>
#include <ini.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core/ini-reader.h"

enum section_state {
        SECTION_NONE,           /* no section header yet */
        SECTION_ACCEPTED,
        SECTION_IGNORED,        /* rejected or broken header, already reported */
};

struct ini_stream {
        const char *filename;
        const char *text;
        size_t len, pos;
        unsigned line;
        enum section_state state;
        char section[INI_READ_LINE_MAX + 1];
        ini_handler_fn fn;
        void *userdata;
        struct bl_diag *diag;
        unsigned problems;
};

static void report(struct ini_stream *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void report(struct ini_stream *s, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        diag_atv(s->diag, s->filename, s->line, fmt, ap);
        va_end(ap);
        s->problems++;
}

static const char *skip_space(const char *s)
{
        while (isspace((unsigned char)*s))
                s++;
        return s;
}

/* inih's scan for a separator, which stops at an inline comment: a ';'
 * after whitespace. Mirrored so that what we accept is what inih parses. */
static const char *find_chars_or_comment(const char *s, const char *chars)
{
        bool was_space = false;

        while (*s && !strchr(chars, *s) && !(was_space && *s == ';')) {
                was_space = isspace((unsigned char)*s);
                s++;
        }
        return s;
}

static void enter_section(struct ini_stream *s, const char *name)
{
        unsigned problems = s->fn(s->userdata, name, NULL, NULL, s->line);

        s->problems += problems;
        s->state = problems ? SECTION_IGNORED : SECTION_ACCEPTED;
        snprintf(s->section, sizeof(s->section), "%s", name);
}

/* Checks one trimmed, non-empty line the way inih will read it, so that
 * every bad line is reported, not only inih's first. Returns false for a
 * line inih must not see. */
static bool check_line(struct ini_stream *s, const char *line)
{
        const char *end;

        if (line[0] == ';' || line[0] == '#')
                return true;
        if (line[0] == '[') {
                const char *rest;
                char name[INI_READ_LINE_MAX + 1];

                end = find_chars_or_comment(line + 1, "]");
                if (*end != ']')
                        return false;
                /* inih ignores whatever follows the ']'; only a comment may. */
                rest = skip_space(end + 1);
                if (*rest && *rest != ';' && *rest != '#')
                        return false;
                snprintf(name, sizeof(name), "%.*s", (int)(end - line - 1), line + 1);
                enter_section(s, name);
                return true;
        }
        end = find_chars_or_comment(line, "=:");
        if (*end != '=' && *end != ':')
                return false;
        /* A key without a name is not something inih rejects, but it is wrong. */
        return end > line;
}

/* Whether the raw line is a comment: ';' or '#' first, after white space
 * (and, on line 1, a byte order mark). */
static bool is_comment(const struct ini_stream *s, const char *line, size_t n)
{
        const char *end = line + n;

        if (s->line == 1 && n >= 3 && memcmp(line, "\xef\xbb\xbf", 3) == 0)
                line += 3;
        while (line < end && isspace((unsigned char)*line))
                line++;
        return line < end && (*line == ';' || *line == '#');
}

/* The length of the raw line without its comment: from a ';' or a '#'
 * after white space, white space before it included. inih itself cuts
 * only ';' ("mode = cluster # note" would be the value "cluster # note");
 * '#' is cut here the same way, and before the length is checked, so a
 * long note does not make a line too long. */
static size_t without_comment(const char *line, size_t n, char *comment)
{
        *comment = '\0';
        for (size_t i = 1; i < n; i++)
                if ((line[i] == ';' || line[i] == '#') && isspace((unsigned char)line[i - 1])) {
                        *comment = line[i];
                        n = i;
                        break;
                }
        while (n > 0 && isspace((unsigned char)line[n - 1]))
                n--;
        return n;
}

/* The fgets-style reader inih pulls lines through. It counts lines (the
 * distro's inih tells the handler none), rejects lines its buffer would
 * split, strips leading whitespace (inih would take an indented line for a
 * continuation) and hands inih an empty line in place of any bad one, so
 * line numbers stay aligned and parsing goes on. */
static char *read_line_for_inih(char *buf, int size, void *stream)
{
        struct ini_stream *s = stream;
        const char *line = s->text + s->pos, *eol, *start;
        size_t n, limit, len;
        char comment;

        if (s->pos >= s->len || size < 2)
                return NULL;
        eol = memchr(line, '\n', s->len - s->pos);
        n = eol ? (size_t)(eol - line) : s->len - s->pos;
        s->pos += eol ? n + 1 : n;
        s->line++;
        if (n > 0 && line[n - 1] == '\r')
                n--;
        limit = (size_t)size - 2 < INI_READ_LINE_MAX ? (size_t)size - 2 : INI_READ_LINE_MAX;
        buf[0] = '\0';

        if (is_comment(s, line, n)) {
                /* Nothing of it is read, whatever its length or bytes. */
        } else if ((n = without_comment(line, n, &comment)) > limit) {
                report(s, "line too long (%zu characters, at most %zu)", n, limit);
                if (*skip_space(line) == '[')
                        s->state = SECTION_IGNORED;
        } else if (memchr(line, '\0', n)) {
                report(s, "line contains a NUL byte");
                if (*skip_space(line) == '[')
                        s->state = SECTION_IGNORED;
        } else {
                memcpy(buf, line, n);
                buf[n] = '\0';
                start = buf;
                if (s->line == 1 && strncmp(start, "\xef\xbb\xbf", 3) == 0)
                        start += 3;
                start = skip_space(start);
                len = strlen(start);
                while (len > 0 && isspace((unsigned char)start[len - 1]))
                        len--;
                memmove(buf, start, len);
                buf[len] = '\0';
                if (len > 0 && !check_line(s, buf)) {
                        char hint[48] = "";

                        /* What was cut may be what the line was missing. */
                        if (comment)
                                snprintf(hint, sizeof(hint), " (a comment starts at \"%c\" after a space)",
                                         comment);
                        report(s, "expected \"key = value\" or \"[section]\", got \"%s\"%s", buf, hint);
                        if (buf[0] == '[')
                                s->state = SECTION_IGNORED;
                        buf[0] = '\0';
                }
        }
        strcat(buf, "\n");
        return buf;
}

/* inih truncates section names to its own buffer; the reader's copy, taken
 * when the header was checked, is whole. */
static int handle_key(void *user, const char *section, const char *key, const char *value)
{
        struct ini_stream *s = user;
        unsigned problems = 0;

        (void)section;
        switch (s->state) {
        case SECTION_NONE:
                report(s, "key \"%s\" outside of any section", key);
                return 0;
        case SECTION_IGNORED:
                break;
        case SECTION_ACCEPTED:
                problems = s->fn(s->userdata, s->section, key, value, s->line);
                s->problems += problems;
                break;
        }
        return problems == 0;
}

unsigned ini_read(const char *filename, const char *text, size_t len, ini_handler_fn fn, void *userdata,
                  struct bl_diag *diag)
{
        struct ini_stream s = {
                .filename = filename,
                .text = text,
                .len = len,
                .state = SECTION_NONE,
                .fn = fn,
                .userdata = userdata,
                .diag = diag,
        };

        if (ini_parse_stream(read_line_for_inih, &s, handle_key, &s) < 0) {
                diag_add(diag, "%s: cannot parse: out of memory", filename);
                s.problems++;
        }
        return s.problems;
}
