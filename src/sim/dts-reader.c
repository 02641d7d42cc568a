/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A recursive-descent reader for device tree source. dtc's grammar is small:
 * a file is a list of statements (/dts-v1/;, "/ { ... };", "&label { ... };",
 * includes and preprocessor lines), a node body a list of properties and
 * child nodes, each optionally labelled. A node opened twice (in a .dtsi and
 * again in the file including it, or through &label) is one node: later
 * properties replace earlier ones of the same name, as dtc merges them.
 *
 * The first problem stops the reading: after a syntax error the reader
 * cannot know where the next statement starts, and one clear message beats a
 * cascade. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/fileio.h"
#include "sim/dts-reader.h"

#define INCLUDE_DEPTH_MAX 32
/* Nodes in nodes and parentheses in parentheses: far beyond any real tree,
 * well within the stack the recursive descent needs for each level. */
#define NEST_MAX 100
#define WORD_MAX 256
#define DTS_SIZE_MAX (64u << 20)

struct lexer {
        struct dts_tree *t;
        struct bl_diag *diag;
        const char *file;       /* interned in t->file */
        const char *s;
        size_t len, pos;
        unsigned line;
        unsigned depth;         /* of includes */
        unsigned nest;          /* of nodes and of expressions being read */
};

static int parse_file(struct dts_tree *t, const char *path, unsigned depth, unsigned nest, struct bl_diag *diag,
                      const char *from_file, unsigned from_line, struct dts_node *into);

const char *dts_basename(const char *file)
{
        const char *slash = strrchr(file, '/');

        return slash ? slash + 1 : file;
}

static int fail(struct lexer *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct lexer *l, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        diag_atv(l->diag, dts_basename(l->file), l->line, fmt, ap);
        va_end(ap);
        return -EINVAL;
}

static int peek(const struct lexer *l, size_t ahead)
{
        return l->pos + ahead < l->len ? (unsigned char)l->s[l->pos + ahead] : EOF;
}

static void advance(struct lexer *l, size_t n)
{
        for (size_t i = 0; i < n && l->pos < l->len; i++)
                if (l->s[l->pos++] == '\n')
                        l->line++;
}

static bool starts(const struct lexer *l, const char *word)
{
        size_t n = strlen(word);

        return l->len - l->pos >= n && memcmp(l->s + l->pos, word, n) == 0;
}

/* Whitespace and comments. */
static int skip_space(struct lexer *l)
{
        for (;;) {
                int c = peek(l, 0);

                if (c != EOF && isspace(c)) {
                        advance(l, 1);
                } else if (c == '/' && peek(l, 1) == '/') {
                        while (peek(l, 0) != EOF && peek(l, 0) != '\n')
                                advance(l, 1);
                } else if (c == '/' && peek(l, 1) == '*') {
                        unsigned line = l->line;

                        advance(l, 2);
                        while (peek(l, 0) != EOF && !(peek(l, 0) == '*' && peek(l, 1) == '/'))
                                advance(l, 1);
                        if (peek(l, 0) == EOF) {
                                l->line = line;
                                return fail(l, "expected the end of this comment (\"*/\"), got the end of the file");
                        }
                        advance(l, 2);
                } else {
                        return 0;
                }
        }
}

static bool is_name_char(int c)
{
        return c != EOF && (isalnum(c) || strchr(",._+*#?@-", c));
}

static bool is_ident_char(int c)
{
        return c != EOF && (isalnum(c) || c == '_');
}

/* A node or property name, or a label: the longest run of name characters. */
static size_t word(struct lexer *l, char *buf, size_t size)
{
        size_t n = 0;

        while (is_name_char(peek(l, 0))) {
                if (n + 1 < size)
                        buf[n++] = (char)peek(l, 0);
                advance(l, 1);
        }
        buf[n < size ? n : size - 1] = '\0';
        return n;
}

static size_t ident(struct lexer *l, char *buf, size_t size)
{
        size_t n = 0;

        while (is_ident_char(peek(l, 0))) {
                if (n + 1 < size)
                        buf[n++] = (char)peek(l, 0);
                advance(l, 1);
        }
        buf[n < size ? n : size - 1] = '\0';
        return n;
}

static int expect(struct lexer *l, char c, const char *what)
{
        int r = skip_space(l);

        if (r < 0)
                return r;
        if (peek(l, 0) != c) {
                if (peek(l, 0) == EOF)
                        return fail(l, "expected \"%c\" %s, got the end of the file", c, what);
                return fail(l, "expected \"%c\" %s, got \"%c\"", c, what, peek(l, 0));
        }
        advance(l, 1);
        return 0;
}

/* ---- the tree ---- */

static struct dts_node *node_new(const char *name, const char *file, unsigned line)
{
        struct dts_node *n = calloc(1, sizeof(*n));

        if (!n)
                return NULL;
        n->name = strdup(name);
        if (!n->name) {
                free(n);
                return NULL;
        }
        n->file = file;
        n->line = line;
        return n;
}

static void prop_clear(struct dts_prop *p)
{
        for (size_t i = 0; i < p->ncells; i++)
                free(p->refs[i]);
        free(p->refs);
        free(p->cells);
        free(p->string);
        free(p->bytes);
        p->bytes = NULL;
        p->nbytes = 0;
        p->refs = NULL;
        p->cells = NULL;
        p->string = NULL;
        p->ncells = 0;
        p->unknown = false;
        p->bits = 32;
}

static void prop_free(struct dts_prop *p)
{
        prop_clear(p);
        free(p->name);
        free(p);
}

static void node_free(struct dts_node *n)
{
        while (n) {
                struct dts_node *next = n->next;

                for (struct dts_prop *p = n->prop, *pn; p; p = pn) {
                        pn = p->next;
                        prop_free(p);
                }
                node_free(n->child);
                free(n->name);
                free(n);
                n = next;
        }
}

static struct dts_node *child_find(const struct dts_node *n, const char *name)
{
        for (struct dts_node *c = n->child; c; c = c->next)
                if (strcmp(c->name, name) == 0)
                        return c;
        return NULL;
}

static void child_unlink(struct dts_node *n, struct dts_node *c)
{
        struct dts_node **pp = &n->child, *prev = NULL;

        while (*pp && *pp != c) {
                prev = *pp;
                pp = &(*pp)->next;
        }
        if (!*pp)
                return;
        *pp = c->next;
        if (n->last_child == c)
                n->last_child = prev;
        c->next = NULL;
}

/* Labels of a deleted node must not point at freed memory. */
static void labels_drop(struct dts_tree *t, const struct dts_node *gone)
{
        for (size_t i = 0; i < t->nlabels; i++) {
                const struct dts_node *n = t->label[i].node;

                while (n && n != gone)
                        n = n->parent;
                if (n)
                        t->label[i].node = NULL;
        }
}

static void node_delete(struct dts_tree *t, struct dts_node *c)
{
        if (!c->parent)
                return;
        labels_drop(t, c);
        child_unlink(c->parent, c);
        node_free(c);
}

static int file_intern(struct dts_tree *t, const char *path, const char **ret)
{
        char **grown, *copy;

        for (size_t i = 0; i < t->nfiles; i++)
                if (strcmp(t->file[i], path) == 0) {
                        *ret = t->file[i];
                        return 0;
                }
        grown = realloc(t->file, (t->nfiles + 1) * sizeof(*grown));
        if (!grown)
                return -ENOMEM;
        t->file = grown;
        copy = strdup(path);
        if (!copy)
                return -ENOMEM;
        t->file[t->nfiles++] = copy;
        *ret = copy;
        return 0;
}

static int label_add(struct lexer *l, const char *name, struct dts_node *n)
{
        struct dts_tree *t = l->t;
        struct dts_label *grown;

        for (size_t i = 0; i < t->nlabels; i++)
                if (strcmp(t->label[i].name, name) == 0) {
                        if (t->label[i].node && t->label[i].node != n) {
                                char path[WORD_MAX];

                                dts_path(t->label[i].node, path, sizeof(path));
                                return fail(l, "%s: expected a label no other node has, got one of %s", name,
                                            path);
                        }
                        t->label[i].node = n;
                        return 0;
                }
        grown = realloc(t->label, (t->nlabels + 1) * sizeof(*grown));
        if (!grown)
                return -ENOMEM;
        t->label = grown;
        t->label[t->nlabels].name = strdup(name);
        if (!t->label[t->nlabels].name)
                return -ENOMEM;
        t->label[t->nlabels++].node = n;
        return 0;
}

static struct dts_prop *prop_get(struct dts_node *n, const char *name, const char *file, unsigned line)
{
        struct dts_prop *p;

        for (p = n->prop; p; p = p->next)
                if (strcmp(p->name, name) == 0) {
                        prop_clear(p);
                        p->file = file;
                        p->line = line;
                        return p;
                }
        p = calloc(1, sizeof(*p));
        if (!p)
                return NULL;
        p->name = strdup(name);
        if (!p->name) {
                free(p);
                return NULL;
        }
        p->file = file;
        p->line = line;
        p->bits = 32;
        if (n->last_prop)
                n->last_prop->next = p;
        else
                n->prop = p;
        n->last_prop = p;
        return p;
}

static void prop_delete(struct dts_node *n, const char *name)
{
        struct dts_prop **pp = &n->prop, *prev = NULL;

        while (*pp && strcmp((*pp)->name, name) != 0) {
                prev = *pp;
                pp = &(*pp)->next;
        }
        if (*pp) {
                struct dts_prop *gone = *pp;

                *pp = gone->next;
                if (n->last_prop == gone)
                        n->last_prop = prev;
                prop_free(gone);
        }
}

static int cell_add(struct dts_prop *p, uint64_t v, const char *ref)
{
        uint64_t *cells = realloc(p->cells, (p->ncells + 1) * sizeof(*cells));
        char **refs;

        if (!cells)
                return -ENOMEM;
        p->cells = cells;
        refs = realloc(p->refs, (p->ncells + 1) * sizeof(*refs));
        if (!refs)
                return -ENOMEM;
        p->refs = refs;
        p->refs[p->ncells] = NULL;
        if (ref) {
                p->refs[p->ncells] = strdup(ref);
                if (!p->refs[p->ncells])
                        return -ENOMEM;
        }
        p->cells[p->ncells++] = v;
        return 0;
}

/* ---- values ---- */

static const struct dts_macro *macro_find(const struct dts_tree *t, const char *name)
{
        for (size_t i = 0; i < t->nmacros; i++)
                if (strcmp(t->macro[i].name, name) == 0)
                        return &t->macro[i];
        return NULL;
}

static int number(struct lexer *l, uint64_t *ret)
{
        char *end;
        unsigned long long v;

        if (peek(l, 0) == '\'') {
                int c = peek(l, 1);

                if (c == EOF || peek(l, 2) != '\'')
                        return fail(l, "expected a character literal like 'a'");
                advance(l, 3);
                *ret = (uint64_t)c;
                return 0;
        }
        errno = 0;
        v = strtoull(l->s + l->pos, &end, 0);
        if (end == l->s + l->pos || errno)
                return fail(l, "expected a number, got \"%.*s\"", (int)strcspn(l->s + l->pos, " \t\n>;)"),
                            l->s + l->pos);
        advance(l, (size_t)(end - (l->s + l->pos)));
        while (peek(l, 0) == 'U' || peek(l, 0) == 'L' || peek(l, 0) == 'u' || peek(l, 0) == 'l')
                advance(l, 1);
        *ret = v;
        return 0;
}

static int expr(struct lexer *l, uint64_t *v, bool *unknown);

static int nest_in(struct lexer *l)
{
        if (l->nest >= NEST_MAX)
                return fail(l, "expected nodes or expressions nested at most %d deep, got deeper", NEST_MAX);
        l->nest++;
        return 0;
}

static int primary_nested(struct lexer *l, uint64_t *v, bool *unknown);

static int primary(struct lexer *l, uint64_t *v, bool *unknown)
{
        int r = nest_in(l);

        if (r < 0)
                return r;
        r = primary_nested(l, v, unknown);
        l->nest--;
        return r;
}

static int primary_nested(struct lexer *l, uint64_t *v, bool *unknown)
{
        int r = skip_space(l);
        int c = peek(l, 0);

        if (r < 0)
                return r;
        if (c == '(') {
                advance(l, 1);
                r = expr(l, v, unknown);
                return r < 0 ? r : expect(l, ')', "closing the expression");
        }
        if (c == '-' || c == '~' || c == '!') {
                advance(l, 1);
                r = primary(l, v, unknown);
                if (r < 0)
                        return r;
                *v = c == '-' ? (uint64_t)0 - *v : c == '~' ? ~*v : !*v;
                return 0;
        }
        if (c != EOF && (isalpha(c) || c == '_')) {
                char name[WORD_MAX];
                const struct dts_macro *m;

                ident(l, name, sizeof(name));
                m = macro_find(l->t, name);
                if (m) {
                        *v = m->value;
                } else {
                        *v = 0;
                        *unknown = true;
                }
                return 0;
        }
        return number(l, v);
}

/* Binary operators by precedence, lowest first, as in C. */
static const char *const binary_ops[][4] = {
        { "|", NULL }, { "^", NULL }, { "&", NULL }, { "<<", ">>", NULL }, { "+", "-", NULL },
        { "*", "/", "%", NULL },
};
#define NLEVELS (sizeof(binary_ops) / sizeof(binary_ops[0]))

static int binary(struct lexer *l, unsigned level, uint64_t *v, bool *unknown)
{
        int r = level == NLEVELS ? primary(l, v, unknown) : binary(l, level + 1, v, unknown);

        while (r == 0 && level < NLEVELS) {
                const char *op = NULL;
                uint64_t rhs;

                r = skip_space(l);
                if (r < 0)
                        return r;
                for (unsigned k = 0; binary_ops[level][k]; k++)
                        /* "&" is not "&&", "|" not "||" */
                        if (starts(l, binary_ops[level][k]) &&
                            !(strlen(binary_ops[level][k]) == 1 && peek(l, 1) == peek(l, 0)))
                                op = binary_ops[level][k];
                if (!op)
                        break;
                advance(l, strlen(op));
                r = binary(l, level + 1, &rhs, unknown);
                if (r < 0)
                        return r;
                switch (op[0]) {
                case '|': *v |= rhs; break;
                case '^': *v ^= rhs; break;
                case '&': *v &= rhs; break;
                case '<': *v = rhs < 64 ? *v << rhs : 0; break;
                case '>': *v = rhs < 64 ? *v >> rhs : 0; break;
                case '+': *v += rhs; break;
                case '-': *v -= rhs; break;
                case '*': *v *= rhs; break;
                case '/':
                case '%':
                        if (rhs == 0) {
                                if (!*unknown)
                                        return fail(l, "expected a non-zero divisor, got 0");
                                rhs = 1;
                        }
                        *v = op[0] == '/' ? *v / rhs : *v % rhs;
                        break;
                }
        }
        return r;
}

static int expr(struct lexer *l, uint64_t *v, bool *unknown)
{
        return binary(l, 0, v, unknown);
}

/* "&label" or "&{/path}", after the '&'. */
static int reference(struct lexer *l, char *buf, size_t size)
{
        if (peek(l, 0) == '{') {
                size_t n = 0;

                advance(l, 1);
                while (peek(l, 0) != EOF && peek(l, 0) != '}') {
                        if (n + 1 < size)
                                buf[n++] = (char)peek(l, 0);
                        advance(l, 1);
                }
                buf[n] = '\0';
                return expect(l, '}', "closing the path reference");
        }
        if (ident(l, buf, size) == 0)
                return fail(l, "expected a label after \"&\"");
        return 0;
}

/* "name:" at this point: an identifier directly followed by a colon. */
static bool label_ahead(const struct lexer *l)
{
        size_t n = 0;

        if (!(isalpha(peek(l, 0)) || peek(l, 0) == '_'))
                return false;
        while (is_ident_char(peek(l, n)))
                n++;
        return peek(l, n) == ':';
}

static int cells(struct lexer *l, struct dts_prop *p)
{
        for (;;) {
                int r = skip_space(l);
                int c = peek(l, 0);

                if (r < 0)
                        return r;
                if (c == '>') {
                        advance(l, 1);
                        return 0;
                }
                if (c == EOF)
                        return fail(l, "%s: expected \">\" closing the cells, got the end of the file", p->name);
                if (c == '&') {
                        char ref[WORD_MAX];

                        advance(l, 1);
                        r = reference(l, ref, sizeof(ref));
                        if (r < 0)
                                return r;
                        r = cell_add(p, 0, ref);
                } else if (label_ahead(l)) {    /* a label on a cell: nothing to keep */
                        while (is_ident_char(peek(l, 0)))
                                advance(l, 1);
                        advance(l, 1);
                        continue;
                } else {
                        uint64_t v;
                        bool unknown = false;

                        r = primary(l, &v, &unknown);
                        if (r < 0)
                                return r;
                        p->unknown |= unknown;
                        if (p->bits < 64)
                                v &= (UINT64_C(1) << p->bits) - 1;
                        r = cell_add(p, v, NULL);
                }
                if (r < 0)
                        return r;
        }
}


/* One character of a string after its backslash, as dtc reads it. */
static int escape(struct lexer *l)
{
        static const char simple[] = "a\ab\bf\fn\nr\rt\tv\v";
        int c = peek(l, 0), v = 0, n = 0;
        const char *e;

        if (c == 'x') {
                advance(l, 1);
                for (; n < 2 && hex_digit(peek(l, 0)) >= 0; n++) {
                        v = v * 16 + hex_digit(peek(l, 0));
                        advance(l, 1);
                }
                return n ? v : 'x';
        }
        if (c >= '0' && c <= '7') {
                for (; n < 3 && peek(l, 0) >= '0' && peek(l, 0) <= '7'; n++) {
                        v = v * 8 + (peek(l, 0) - '0');
                        advance(l, 1);
                }
                return v & 0xff;
        }
        advance(l, 1);
        e = c == EOF || c == '\0' ? NULL : strchr(simple, c);  /* strchr() finds a NUL too */
        return e && ((e - simple) % 2) == 0 ? e[1] : c;
}

static int bytes_add(uint8_t **buf, size_t *n, size_t *cap, uint8_t b)
{
        if (*n + 2 > *cap) {
                size_t grown_cap = *cap ? *cap * 2 : 64;
                uint8_t *grown = realloc(*buf, grown_cap);

                if (!grown)
                        return -ENOMEM;
                *buf = grown;
                *cap = grown_cap;
        }
        (*buf)[(*n)++] = b;
        return 0;
}

/* A "string" with its escapes: 'len' bytes in '*ret', NUL-terminated
 * beyond them (a string may hold NULs: "\0"). */
static int string(struct lexer *l, char **ret, size_t *len)
{
        uint8_t *buf = NULL;
        size_t n = 0, cap = 0;
        int r = 0;

        advance(l, 1);  /* the opening quote */
        while (r == 0 && peek(l, 0) != '"') {
                int c = peek(l, 0);

                if (c == EOF || c == '\n') {
                        free(buf);
                        return fail(l, "expected a closing \" for this string");
                }
                advance(l, 1);
                if (c == '\\')
                        c = escape(l);
                r = bytes_add(&buf, &n, &cap, (uint8_t)c);
        }
        if (r == 0)
                r = bytes_add(&buf, &n, &cap, 0);
        if (r < 0) {
                free(buf);
                return r;
        }
        advance(l, 1);
        *ret = (char *)buf;
        if (len)
                *len = n - 1;
        return 0;
}

static int prop_bytes(struct dts_prop *p, const uint8_t *b, size_t n)
{
        uint8_t *grown = realloc(p->bytes, p->nbytes + n + 1);

        if (!grown)
                return -ENOMEM;
        p->bytes = grown;
        memcpy(p->bytes + p->nbytes, b, n);
        p->nbytes += n;
        return 0;
}

/* "[00 0c 35 00]" or "[000c3500]", after the '['. */
static int byte_list(struct lexer *l, struct dts_prop *p)
{
        for (;;) {
                int r = skip_space(l), hi, lo;
                uint8_t b;

                if (r < 0)
                        return r;
                if (peek(l, 0) == ']') {
                        advance(l, 1);
                        return 0;
                }
                hi = hex_digit(peek(l, 0));
                lo = hex_digit(peek(l, 1));
                if (hi < 0 || lo < 0)
                        return fail(l, "%s: expected bytes as pairs of hex digits, got \"%c\"", p->name,
                                    peek(l, 0) == EOF ? ' ' : peek(l, 0));
                advance(l, 2);
                b = (uint8_t)(hi * 16 + lo);
                r = prop_bytes(p, &b, 1);
                if (r < 0)
                        return r;
        }
}

/* A property dtc printed as strings or bytes ("\0\f5" for <800000>). */
static int cells_from_bytes(struct dts_prop *p)
{
        if (p->ncells > 0 || p->nbytes == 0 || p->nbytes % 4 != 0)
                return 0;
        for (size_t i = 0; i < p->nbytes; i += 4) {
                uint64_t v = (uint64_t)p->bytes[i] << 24 | (uint64_t)p->bytes[i + 1] << 16 |
                             (uint64_t)p->bytes[i + 2] << 8 | p->bytes[i + 3];
                int r = cell_add(p, v, NULL);

                if (r < 0)
                        return r;
        }
        return 0;
}

/* After "name =": strings, <cells>, [bytes], /bits/ N <cells>, &refs, up to ';'. */
static int value(struct lexer *l, struct dts_prop *p)
{
        for (;;) {
                int r = skip_space(l);
                int c = peek(l, 0);

                if (r < 0)
                        return r;
                if (c == '"') {
                        char *s;
                        size_t len;

                        r = string(l, &s, &len);
                        if (r < 0)
                                return r;
                        r = prop_bytes(p, (const uint8_t *)s, len + 1);
                        if (r == 0 && !p->string)
                                p->string = s;
                        else
                                free(s);
                } else if (c == '<') {
                        advance(l, 1);
                        r = cells(l, p);
                } else if (starts(l, "/bits/")) {
                        uint64_t bits;

                        advance(l, strlen("/bits/"));
                        r = skip_space(l);
                        if (r == 0)
                                r = number(l, &bits);
                        if (r < 0)
                                return r;
                        if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
                                return fail(l, "%s: expected /bits/ 8, 16, 32 or 64, got %llu", p->name,
                                            (unsigned long long)bits);
                        p->bits = (unsigned)bits;
                        r = expect(l, '<', "after /bits/");
                        if (r == 0)
                                r = cells(l, p);
                } else if (c == '[') {
                        advance(l, 1);
                        r = byte_list(l, p);
                } else if (c == '&') {
                        char ref[WORD_MAX];

                        advance(l, 1);
                        r = reference(l, ref, sizeof(ref));
                } else if (isalpha(c) || c == '_') {    /* a label before a value */
                        char name[WORD_MAX];

                        ident(l, name, sizeof(name));
                        r = expect(l, ':', "after a label in a value");
                        if (r < 0)
                                return r;
                        continue;
                } else {
                        return fail(l, "%s: expected a value (\"string\", <cells>, [bytes]), got \"%c\"", p->name,
                                    c == EOF ? ' ' : c);
                }
                if (r < 0)
                        return r;
                r = skip_space(l);
                if (r < 0)
                        return r;
                if (peek(l, 0) == ',') {
                        advance(l, 1);
                        continue;
                }
                r = expect(l, ';', "ending the property");
                return r < 0 ? r : cells_from_bytes(p);
        }
}

/* ---- statements ---- */

static void skip_line(struct lexer *l)
{
        while (peek(l, 0) != EOF && peek(l, 0) != '\n') {
                if (peek(l, 0) == '\\' && peek(l, 1) == '\n')
                        advance(l, 1);
                advance(l, 1);
        }
}

static bool at_directive(const struct lexer *l)
{
        static const char *const words[] = { "include", "define", "undef", "if", "ifdef", "ifndef", "elif",
                                             "else", "endif", "error", "warning", "pragma", NULL };

        if (peek(l, 0) != '#')
                return false;
        for (unsigned k = 0; words[k]; k++) {
                size_t n = strlen(words[k]);

                if (l->len - l->pos > n && memcmp(l->s + l->pos + 1, words[k], n) == 0 &&
                    !is_name_char(peek(l, n + 1)))
                        return true;
        }
        return false;
}

/* 'name' beside the including file, when it is there: statements, or the
 * inside of node 'into' when included there. */
static int include(struct lexer *l, const char *name, struct dts_node *into)
{
        char path[4096];
        const char *slash = strrchr(l->file, '/');
        int dirlen = slash ? (int)(slash - l->file) : 0;
        struct stat st;
        int r;

        if (name[0] == '/')
                r = snprintf(path, sizeof(path), "%s", name);
        else if (slash)
                r = snprintf(path, sizeof(path), "%.*s/%s", dirlen, l->file, name);
        else
                r = snprintf(path, sizeof(path), "%s", name);
        if (r < 0 || (size_t)r >= sizeof(path))
                return fail(l, "expected an include path shorter than %zu bytes", sizeof(path));
        if (!name[0])
                return fail(l, "expected a file name to include, got \"\"");
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
                return 0;       /* not beside it: a header of another tree, as <...> */
        if (l->depth + 1 >= INCLUDE_DEPTH_MAX)
                return fail(l, "expected includes nested at most %d deep, got deeper (\"%s\" includes itself?)",
                            INCLUDE_DEPTH_MAX, name);
        return parse_file(l->t, path, l->depth + 1, l->nest, l->diag, l->file, l->line, into);
}

static int define(struct lexer *l)
{
        char name[WORD_MAX];
        struct dts_macro *grown;
        uint64_t v;
        bool unknown = false;
        size_t end;
        int r;

        while (peek(l, 0) == ' ' || peek(l, 0) == '\t')
                advance(l, 1);
        if (ident(l, name, sizeof(name)) == 0 || peek(l, 0) == '(') {
                skip_line(l);   /* a function-like macro: no cell of a CPU needs one */
                return 0;
        }
        end = l->pos;
        while (end < l->len && l->s[end] != '\n')
                end++;
        {
                /* Evaluate the rest of the line alone, so a bad body cannot eat
                 * the next line; its problems are not the file's. */
                struct bl_diag scratch;
                struct lexer sub = *l;

                diag_init(&scratch);
                sub.diag = &scratch;
                sub.len = end;
                r = expr(&sub, &v, &unknown);
                if (r < 0 || unknown || skip_space(&sub) < 0 || sub.pos < end) {
                        /* not a plain number: left undefined, its uses mark their property unknown */
                        skip_line(l);
                        return 0;
                }
        }
        skip_line(l);
        grown = realloc(l->t->macro, (l->t->nmacros + 1) * sizeof(*grown));
        if (!grown)
                return -ENOMEM;
        l->t->macro = grown;
        l->t->macro[l->t->nmacros].name = strdup(name);
        if (!l->t->macro[l->t->nmacros].name)
                return -ENOMEM;
        l->t->macro[l->t->nmacros++].value = v;
        return 0;
}

/* 'into': the node whose body holds the directive, NULL at the top level. */
static int directive(struct lexer *l, struct dts_node *into)
{
        char word_buf[WORD_MAX];

        advance(l, 1);
        ident(l, word_buf, sizeof(word_buf));
        if (strcmp(word_buf, "define") == 0)
                return define(l);
        if (strcmp(word_buf, "include") == 0) {
                char *name;
                int r;

                while (peek(l, 0) == ' ' || peek(l, 0) == '\t')
                        advance(l, 1);
                if (peek(l, 0) != '"') {
                        skip_line(l);   /* <dt-bindings/...>: not beside this file */
                        return 0;
                }
                r = string(l, &name, NULL);
                if (r < 0)
                        return r;
                skip_line(l);
                r = include(l, name, into);
                free(name);
                return r;
        }
        skip_line(l);
        return 0;
}

static int body(struct lexer *l, struct dts_node *n);

/* "{ body };" of node 'n', after its name. */
static int node_block(struct lexer *l, struct dts_node *n)
{
        int r = expect(l, '{', "opening the node");

        if (r == 0)
                r = nest_in(l);
        if (r < 0)
                return r;
        r = body(l, n);
        l->nest--;
        if (r == 0)
                r = expect(l, '}', "closing the node");
        if (r == 0)
                r = expect(l, ';', "after the node's \"}\"");
        return r;
}

static int body(struct lexer *l, struct dts_node *n)
{
        for (;;) {
                char name[WORD_MAX], labels[8][WORD_MAX];
                unsigned nlabels = 0, line;
                int r = skip_space(l);

                if (r < 0)
                        return r;
                if (peek(l, 0) == '}' || peek(l, 0) == EOF)
                        return 0;
                if (at_directive(l)) {
                        r = directive(l, n);
                        if (r < 0)
                                return r;
                        continue;
                }
                if (starts(l, "/delete-property/") || starts(l, "/delete-node/")) {
                        bool prop = starts(l, "/delete-property/");

                        advance(l, strlen(prop ? "/delete-property/" : "/delete-node/"));
                        r = skip_space(l);
                        if (r < 0)
                                return r;
                        if (word(l, name, sizeof(name)) == 0)
                                return fail(l, "expected a name after /delete-%s/", prop ? "property" : "node");
                        if (prop) {
                                prop_delete(n, name);
                        } else {
                                struct dts_node *c = child_find(n, name);

                                if (c)
                                        node_delete(l->t, c);
                        }
                        r = expect(l, ';', "after the name");
                        if (r < 0)
                                return r;
                        continue;
                }
                for (;;) {
                        line = l->line;
                        if (word(l, name, sizeof(name)) == 0)
                                return fail(l, "expected a property or node name, got \"%c\"", peek(l, 0));
                        if (peek(l, 0) != ':')
                                break;
                        advance(l, 1);
                        if (nlabels < 8)
                                snprintf(labels[nlabels++], WORD_MAX, "%s", name);
                        r = skip_space(l);
                        if (r < 0)
                                return r;
                }
                r = skip_space(l);
                if (r < 0)
                        return r;
                if (peek(l, 0) == '{') {
                        struct dts_node *c = child_find(n, name);

                        if (!c) {
                                c = node_new(name, l->file, line);
                                if (!c)
                                        return -ENOMEM;
                                c->parent = n;
                                if (n->last_child)
                                        n->last_child->next = c;
                                else
                                        n->child = c;
                                n->last_child = c;
                        }
                        for (unsigned k = 0; k < nlabels; k++) {
                                r = label_add(l, labels[k], c);
                                if (r < 0)
                                        return r;
                        }
                        r = node_block(l, c);
                } else {
                        struct dts_prop *p = prop_get(n, name, l->file, line);

                        if (!p)
                                return -ENOMEM;
                        if (peek(l, 0) == '=') {
                                advance(l, 1);
                                r = value(l, p);
                        } else {
                                r = expect(l, ';', "after the property name (or \"=\" and a value)");
                        }
                }
                if (r < 0)
                        return r;
        }
}

static int statement(struct lexer *l)
{
        char name[WORD_MAX];

        if (at_directive(l))
                return directive(l, NULL);
        if (starts(l, "/dts-v1/") || starts(l, "/plugin/")) {
                advance(l, strlen(starts(l, "/dts-v1/") ? "/dts-v1/" : "/plugin/"));
                return expect(l, ';', "after the version tag");
        }
        if (starts(l, "/memreserve/")) {
                while (peek(l, 0) != EOF && peek(l, 0) != ';')
                        advance(l, 1);
                return expect(l, ';', "ending /memreserve/");
        }
        if (starts(l, "/include/")) {
                char *file;
                int r;

                advance(l, strlen("/include/"));
                r = skip_space(l);
                if (r < 0)
                        return r;
                if (peek(l, 0) != '"')
                        return fail(l, "expected a \"file name\" after /include/");
                r = string(l, &file, NULL);
                if (r < 0)
                        return r;
                r = include(l, file, NULL);
                free(file);
                return r;
        }
        if (starts(l, "/delete-node/")) {
                struct dts_node *n = NULL;
                int r;

                advance(l, strlen("/delete-node/"));
                r = skip_space(l);
                if (r == 0 && peek(l, 0) == '&') {
                        advance(l, 1);
                        r = reference(l, name, sizeof(name));
                        n = name[0] == '/' ? dts_find(l->t, name) : dts_label(l->t, name);
                }
                if (r < 0)
                        return r;
                if (n)
                        node_delete(l->t, n);
                return expect(l, ';', "after /delete-node/ &label");
        }
        if (peek(l, 0) == '/')  {
                advance(l, 1);
                return node_block(l, l->t->root);
        }
        if (peek(l, 0) == '&') {
                struct dts_node *n;
                int r;

                advance(l, 1);
                r = reference(l, name, sizeof(name));
                if (r < 0)
                        return r;
                n = name[0] == '/' ? dts_find(l->t, name) : dts_label(l->t, name);
                if (!n)
                        return fail(l, "&%s: expected a %s defined before this point, got none", name,
                                    name[0] == '/' ? "node at that path" : "label");
                return node_block(l, n);
        }
        if (is_ident_char(peek(l, 0))) {        /* "label: / { };" */
                word(l, name, sizeof(name));
                if (peek(l, 0) == ':') {
                        int r;

                        advance(l, 1);
                        r = skip_space(l);
                        if (r == 0 && peek(l, 0) == '/') {
                                r = label_add(l, name, l->t->root);
                                if (r == 0)
                                        r = statement(l);
                                return r;
                        }
                        return r < 0 ? r : fail(l, "expected \"/\" after a label at the top level");
                }
                return fail(l, "expected \"/ {\", \"&label {\" or a directive at the top level, got \"%s\"", name);
        }
        return fail(l, "expected \"/ {\", \"&label {\" or a directive at the top level, got \"%c\"", peek(l, 0));
}

static int parse_file(struct dts_tree *t, const char *path, unsigned depth, unsigned nest, struct bl_diag *diag,
                      const char *from_file, unsigned from_line, struct dts_node *into)
{
        _cleanup_free_ char *text = NULL;
        struct lexer l = { .t = t, .diag = diag, .line = 1, .depth = depth, .nest = nest };
        char why[256];
        size_t len;
        int r = read_regular_file(path, 0, DTS_SIZE_MAX, &text, &len, why, sizeof(why));

        if (r < 0) {
                if (from_file)
                        diag_at(diag, dts_basename(from_file), from_line, "%s: %s", path, why);
                else
                        diag_add(diag, "%s: %s", path, why);
                return r;
        }
        r = file_intern(t, path, &l.file);
        if (r < 0)
                return r;
        l.s = text;
        l.len = len;
        if (into) {
                r = body(&l, into);
                if (r == 0 && l.pos < l.len)
                        r = fail(&l, "expected the end of this included file, got \"}\" closing a node "
                                 "it did not open");
                return r;
        }
        for (;;) {
                r = skip_space(&l);
                if (r < 0 || l.pos >= l.len)
                        return r;
                r = statement(&l);
                if (r < 0)
                        return r;
        }
}

int dts_load(struct dts_tree *t, const char *path, struct bl_diag *diag)
{
        memset(t, 0, sizeof(*t));
        t->root = node_new("", path, 0);
        if (!t->root)
                return -ENOMEM;
        return parse_file(t, path, 0, 0, diag, NULL, 0, NULL);
}

void dts_free(struct dts_tree *t)
{
        node_free(t->root);
        for (size_t i = 0; i < t->nlabels; i++)
                free(t->label[i].name);
        free(t->label);
        for (size_t i = 0; i < t->nmacros; i++)
                free(t->macro[i].name);
        free(t->macro);
        for (size_t i = 0; i < t->nfiles; i++)
                free(t->file[i]);
        free(t->file);
        memset(t, 0, sizeof(*t));
}

struct dts_node *dts_find(const struct dts_tree *t, const char *path)
{
        struct dts_node *n = t->root;

        if (!n || path[0] != '/')
                return NULL;
        while (n && *path) {
                size_t len;
                char name[WORD_MAX];

                path += strspn(path, "/");
                len = strcspn(path, "/");
                if (len == 0)
                        break;
                if (len >= sizeof(name))
                        return NULL;
                memcpy(name, path, len);
                name[len] = '\0';
                n = child_find(n, name);
                path += len;
        }
        return n;
}

struct dts_node *dts_label(const struct dts_tree *t, const char *label)
{
        for (size_t i = 0; i < t->nlabels; i++)
                if (strcmp(t->label[i].name, label) == 0)
                        return t->label[i].node;
        return NULL;
}

static struct dts_node *phandle_in(struct dts_node *n, uint64_t phandle)
{
        for (; n; n = n->next) {
                const struct dts_prop *p = dts_prop(n, "phandle");
                struct dts_node *found;

                if (!p)
                        p = dts_prop(n, "linux,phandle");
                if (p && p->ncells == 1 && !p->refs[0] && p->cells[0] == phandle)
                        return n;
                found = phandle_in(n->child, phandle);
                if (found)
                        return found;
        }
        return NULL;
}

/* The node whose "phandle" (or "linux,phandle") is 'phandle', or NULL. */
static struct dts_node *dts_phandle(const struct dts_tree *t, uint64_t phandle)
{
        return phandle_in(t->root, phandle);
}

const struct dts_prop *dts_prop(const struct dts_node *n, const char *name)
{
        for (const struct dts_prop *p = n->prop; p; p = p->next)
                if (strcmp(p->name, name) == 0)
                        return p;
        return NULL;
}

void dts_path(const struct dts_node *n, char *buf, size_t size)
{
        const struct dts_node *chain[64];
        unsigned depth = 0;
        size_t used = 0;

        if (size == 0)
                return;
        buf[0] = '\0';
        for (; n && n->parent && depth < 64; n = n->parent)
                chain[depth++] = n;
        if (depth == 0) {
                snprintf(buf, size, "/");
                return;
        }
        while (depth-- > 0 && used < size) {
                int w = snprintf(buf + used, size - used, "/%s", chain[depth]->name);

                if (w < 0)
                        return;
                used += (size_t)w;
        }
}

struct dts_node *dts_ref(const struct dts_tree *t, const struct dts_prop *p, size_t i)
{
        if (i >= p->ncells)
                return NULL;
        if (p->refs[i])
                return p->refs[i][0] == '/' ? dts_find(t, p->refs[i]) : dts_label(t, p->refs[i]);
        return dts_phandle(t, p->cells[i]);
}
