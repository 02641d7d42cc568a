/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileio.h"
#include "core/config.h"
#include "daemon/holds-store.h"

#define HOLDS_STORE_HEADER "# bigLittle persistent holds; written by bigLittled, do not edit\n"
/* BL_MAX_HOLDS lines of a few hundred bytes each, with room to spare. */
#define HOLDS_STORE_FILE_MAX (1u << 20)

/* Spaces separate fields and newlines holds, so they (and every other
 * control byte, and the escape character itself) are written as \xHH. */
static void write_escaped(FILE *f, const char *s)
{
        for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
                if (*p <= ' ' || *p == 0x7f || *p == '\\')
                        fprintf(f, "\\x%02x", *p);
                else
                        fputc(*p, f);
        }
}

static void write_hold(FILE *f, const struct bl_hold *h)
{
        fprintf(f, "id=%" PRIu32 " level=%u uid=%" PRIu32 " pid=%" PRId32 " since_wall=%" PRIu64
                   " until_wall=%" PRIu64 " unit=",
                h->id, h->level, h->uid, h->pid, h->since_wall, h->until_wall);
        write_escaped(f, h->unit);
        fputs(" reason=", f);
        write_escaped(f, h->reason);
        fputc('\n', f);
}

void holds_store_print(FILE *f, const struct bl_holds *hs)
{
        fputs(HOLDS_STORE_HEADER, f);
        for (unsigned i = 0; i < hs->n; i++)
                if (hs->h[i].persist)
                        write_hold(f, &hs->h[i]);
}

static int write_holds(FILE *f, const void *userdata)
{
        holds_store_print(f, userdata);
        return 0;
}

int holds_store_save(const struct bl_holds *hs, const char *dir)
{
        char path[BL_PATH_MAX + 16];
        bool any = false;
        int r;

        r = path_join(path, sizeof(path), dir, HOLDS_STORE_FILE);
        if (r < 0)
                return r;
        for (unsigned i = 0; i < hs->n; i++)
                any |= hs->h[i].persist;
        if (!any)
                return unlink(path) < 0 && errno != ENOENT ? -errno : 0;
        /* Mode 0600: holds name users and units. */
        return write_file_atomic(dir, HOLDS_STORE_FILE, write_holds, hs);
}

struct hold_line {
        const char *file;
        unsigned line;
        struct bl_diag *diag;
        unsigned seen;                  /* bit per key */
        unsigned field;                 /* 1 for the first field of the line */
};

enum hold_key {
        KEY_ID,
        KEY_LEVEL,
        KEY_UID,
        KEY_PID,
        KEY_SINCE_WALL,
        KEY_UNTIL_WALL,
        KEY_UNIT,
        KEY_REASON,
        NKEYS,
};

static const char *const key_names[NKEYS] = {
        [KEY_ID] = "id",
        [KEY_LEVEL] = "level",
        [KEY_UID] = "uid",
        [KEY_PID] = "pid",
        [KEY_SINCE_WALL] = "since_wall",
        [KEY_UNTIL_WALL] = "until_wall",
        [KEY_UNIT] = "unit",
        [KEY_REASON] = "reason",
};

/* What a line must have; pid, unit and reason may be left out. */
#define REQUIRED_KEYS                                                                                  \
        ((1u << KEY_ID) | (1u << KEY_LEVEL) | (1u << KEY_UID) | (1u << KEY_SINCE_WALL) |                   \
         (1u << KEY_UNTIL_WALL))

static int parse_number(struct hold_line *l, const char *key, const char *value, uint64_t min, uint64_t max,
                        uint64_t *ret)
{
        unsigned long long v;
        char *end;

        errno = 0;
        v = strtoull(value, &end, 10);
        if (value[0] < '0' || value[0] > '9' || *end || errno == ERANGE || v < min || v > max) {
                /* The value is not repeated: the file may be another one
                 * put in its place. */
                diag_at(l->diag, l->file, l->line, "%s: expected a number %" PRIu64 "-%" PRIu64, key, min, max);
                return -EINVAL;
        }
        *ret = v;
        return 0;
}


/* Strict UTF-8 (no overlong forms, surrogates or code points past
 * U+10FFFF): these strings go out on D-Bus, which refuses anything else. */
static bool utf8_valid(const char *s)
{
        const unsigned char *p = (const unsigned char *)s;

        while (*p) {
                unsigned n, cp;

                if (*p < 0x80) {
                        p++;
                        continue;
                }
                if ((*p & 0xe0) == 0xc0)
                        n = 1, cp = *p & 0x1f;
                else if ((*p & 0xf0) == 0xe0)
                        n = 2, cp = *p & 0x0f;
                else if ((*p & 0xf8) == 0xf0)
                        n = 3, cp = *p & 0x07;
                else
                        return false;
                for (unsigned i = 1; i <= n; i++) {
                        if ((p[i] & 0xc0) != 0x80)
                                return false;
                        cp = cp << 6 | (p[i] & 0x3f);
                }
                if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
                    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
                        return false;
                p += n + 1;
        }
        return true;
}

static int parse_string(struct hold_line *l, const char *key, const char *value, char *buf, size_t size)
{
        size_t len = 0;

        for (const char *p = value; *p; p++) {
                int c = (unsigned char)*p;

                if (c == '\\') {
                        int hi = p[1] == 'x' ? hex_digit(p[2]) : -1;
                        int lo = hi >= 0 ? hex_digit(p[3]) : -1;

                        if (lo < 0 || (hi == 0 && lo == 0)) {
                                diag_at(l->diag, l->file, l->line, "%s: bad escape at byte %zu", key,
                                        (size_t)(p - value) + 1);
                                return -EINVAL;
                        }
                        c = hi * 16 + lo;
                        p += 3;
                }
                if (len + 1 >= size) {
                        diag_at(l->diag, l->file, l->line, "%s: longer than %zu bytes", key, size - 1);
                        return -EINVAL;
                }
                buf[len++] = (char)c;
        }
        buf[len] = '\0';
        if (!utf8_valid(buf)) {
                diag_at(l->diag, l->file, l->line, "%s: not valid UTF-8", key);
                return -EINVAL;
        }
        return 0;
}

static int parse_field(struct hold_line *l, char *field, struct bl_hold *h)
{
        char *eq = strchr(field, '=');
        const char *value;
        uint64_t v = 0;
        int key, r;

        if (!eq) {
                diag_at(l->diag, l->file, l->line, "field %u: expected key=value", l->field);
                return -EINVAL;
        }
        *eq = '\0';
        value = eq + 1;
        for (key = 0; key < NKEYS; key++)
                if (strcmp(field, key_names[key]) == 0)
                        break;
        if (key == NKEYS) {
                diag_at(l->diag, l->file, l->line, "field %u: unknown key", l->field);
                return -EINVAL;
        }
        if (l->seen & (1u << key)) {
                diag_at(l->diag, l->file, l->line, "%s given twice", field);
                return -EINVAL;
        }
        l->seen |= 1u << key;

        switch (key) {
        case KEY_ID:
                r = parse_number(l, field, value, 1, UINT32_MAX, &v);
                h->id = (uint32_t)v;
                return r;
        case KEY_LEVEL:
                r = parse_number(l, field, value, 0, BL_MAX_LEVELS - 1, &v);
                h->level = (unsigned)v;
                return r;
        case KEY_UID:
                r = parse_number(l, field, value, 0, UINT32_MAX, &v);
                h->uid = (uint32_t)v;
                return r;
        case KEY_PID:
                r = parse_number(l, field, value, 0, INT32_MAX, &v);
                h->pid = (int32_t)v;
                return r;
        case KEY_SINCE_WALL:
                return parse_number(l, field, value, 0, UINT64_MAX, &h->since_wall);
        case KEY_UNTIL_WALL:
                return parse_number(l, field, value, 1, UINT64_MAX, &h->until_wall);
        case KEY_UNIT:
                return parse_string(l, field, value, h->unit, sizeof(h->unit));
        default:
                return parse_string(l, field, value, h->reason, sizeof(h->reason));
        }
}

static int parse_hold(struct hold_line *l, char *text, struct bl_hold *h)
{
        char *save = NULL;
        int r;

        memset(h, 0, sizeof(*h));
        for (char *field = strtok_r(text, " \t", &save); field; field = strtok_r(NULL, " \t", &save)) {
                l->field++;
                r = parse_field(l, field, h);
                if (r < 0)
                        return r;
        }
        if ((l->seen & REQUIRED_KEYS) != REQUIRED_KEYS) {
                for (int key = 0; key < NKEYS; key++)
                        if ((REQUIRED_KEYS & (1u << key)) && !(l->seen & (1u << key))) {
                                diag_at(l->diag, l->file, l->line, "%s missing", key_names[key]);
                                break;
                        }
                return -EINVAL;
        }
        if (h->until_wall <= h->since_wall) {
                diag_at(l->diag, l->file, l->line, "until_wall %" PRIu64 " is not after since_wall %" PRIu64,
                        h->until_wall, h->since_wall);
                return -EINVAL;
        }
        return 0;
}

/* Monotonic time stops with the machine but not with the daemon, so a
 * restored hold keeps its wall-clock end: it ends as far after now_mono as
 * until_wall is after now_wall. */
static void place_in_time(struct bl_hold *h, uint64_t now_wall, bl_usec_t now_mono)
{
        uint64_t age = h->since_wall < now_wall ? now_wall - h->since_wall : 0;
        uint64_t left = h->until_wall - now_wall;

        h->until = left < UINT64_MAX - now_mono ? now_mono + left : UINT64_MAX;
        h->since = age < now_mono ? now_mono - age : 0;
}

static int restore_line(struct bl_holds *hs, struct hold_line *l, char *text, uint64_t now_wall,
                        bl_usec_t now_mono)
{
        struct bl_hold h;
        int r = parse_hold(l, text, &h);

        if (r < 0)
                return r;
        if (h.until_wall <= now_wall) {
                diag_at(l->diag, l->file, l->line,
                        "hold %" PRIu32 " ran out while the daemon was stopped; dropped", h.id);
                return 0;
        }
        h.persist = true;
        place_in_time(&h, now_wall, now_mono);
        r = holds_restore(hs, &h);
        if (r == -EEXIST)
                diag_at(l->diag, l->file, l->line, "hold %" PRIu32 " is already in force; dropped", h.id);
        else if (r == -EUSERS)
                diag_at(l->diag, l->file, l->line,
                        "uid %" PRIu32 " already has %d holds; hold %" PRIu32 " dropped", h.uid,
                        BL_MAX_HOLDS_PER_UID, h.id);
        else if (r == -ENOSPC)
                diag_at(l->diag, l->file, l->line, "%d holds are in force already; hold %" PRIu32 " dropped",
                        BL_MAX_HOLDS, h.id);
        else if (r < 0)
                diag_at(l->diag, l->file, l->line, "hold %" PRIu32 " cannot be restored: %s", h.id,
                        strerror(-r));
        return r < 0 ? r : 1;
}

int holds_store_parse(struct bl_holds *hs, const char *path, char *text, uint64_t now_wall,
                      bl_usec_t now_mono, struct bl_diag *diag)
{
        char *line, *next;
        unsigned lineno = 0;
        int restored = 0;

        for (line = text; line; line = next) {
                struct hold_line l = { .file = path, .line = ++lineno, .diag = diag };

                next = strchr(line, '\n');
                if (next)
                        *next++ = '\0';
                line += strspn(line, " \t");
                if (!line[0] || line[0] == '#')
                        continue;
                if (restore_line(hs, &l, line, now_wall, now_mono) > 0)
                        restored++;
        }
        return restored;
}

int holds_store_load(struct bl_holds *hs, const char *dir, uint64_t now_wall, bl_usec_t now_mono,
                     struct bl_diag *diag)
{
        _cleanup_free_ char *text = NULL;
        char path[BL_PATH_MAX + 16], why[256];
        int r;

        r = path_join(path, sizeof(path), dir, HOLDS_STORE_FILE);
        if (r < 0)
                return r;
        /* Only a file we wrote: a link could show another file's lines in
         * the log, a FIFO would hang the start. */
        r = read_regular_file(path, FILE_NOFOLLOW | FILE_PRIVATE, HOLDS_STORE_FILE_MAX, &text, NULL, why,
                              sizeof(why));
        if (r == -ENOENT)
                return 0;
        if (r < 0) {
                diag_at(diag, path, 0, "%s; no hold restored", why);
                return r;
        }
        return holds_store_parse(hs, path, text, now_wall, now_mono, diag);
}
