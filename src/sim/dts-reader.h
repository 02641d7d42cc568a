/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* A reader of device tree source: the text dtc compiles (kernel .dts and
 * .dtsi files) and the text "dtc -I dtb -O dts" gives back. It keeps what a
 * board model needs (nodes, properties, labels, phandles, the file and line
 * each came from) and no more: no checks against bindings, no output.
 *
 * Includes of files beside the including one are followed ("/include/" and
 * the C preprocessor's #include "x"); <...> includes (dt-bindings headers)
 * are not, so their macros stay unknown; an include inside a node reads the
 * file as the inside of that node. "#define NAME number" is kept and
 * may be used in cells; #if and friends are ignored (every branch is read).
 * A cell the reader cannot evaluate marks its property "unknown". */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/diag.h"

struct dts_prop {
        char *name;
        const char *file;
        unsigned line;
        size_t ncells;          /* of <...> lists, each cell widened to 64 bits; without
                                 * any, the bytes as 32-bit big-endian cells (dtc -O dts
                                 * prints some numbers as strings or [bytes]) */
        uint64_t *cells;
        char **refs;            /* per cell: the label of a &label cell, or NULL */
        unsigned bits;          /* 32, or that of /bits/ */
        char *string;           /* the first string, or NULL */
        uint8_t *bytes;         /* the strings (each with its NUL) and [bytes] of the value */
        size_t nbytes;
        bool unknown;           /* a cell was an expression the reader cannot evaluate */
        struct dts_prop *next;
};

struct dts_node {
        char *name;             /* "cpu@100"; "" for the root */
        const char *file;       /* where it was first opened */
        unsigned line;
        struct dts_node *parent;
        struct dts_node *child, *last_child;
        struct dts_node *next;  /* sibling, in source order */
        struct dts_prop *prop, *last_prop;
};

struct dts_label {
        char *name;
        struct dts_node *node;
};

struct dts_macro {
        char *name;
        uint64_t value;
};

struct dts_tree {
        struct dts_node *root;
        struct dts_label *label;
        size_t nlabels;
        struct dts_macro *macro;
        size_t nmacros;
        char **file;            /* the names every node and property points at */
        size_t nfiles;
};

/* Reads 'path' and what it includes. Every problem goes to 'diag' as
 * "FILE:LINE: what was expected, got ..."; the first one stops the reading.
 * Returns 0 or -errno (-EINVAL for text it cannot read, -ENOENT for a
 * missing top file). The tree is to be freed with dts_free() either way. */
int dts_load(struct dts_tree *t, const char *path, struct bl_diag *diag);
void dts_free(struct dts_tree *t);

/* The node at an absolute path ("/cpus/cpu-map"), or NULL. */
struct dts_node *dts_find(const struct dts_tree *t, const char *path);
/* The node a label names, or NULL. */
struct dts_node *dts_label(const struct dts_tree *t, const char *label);
const struct dts_prop *dts_prop(const struct dts_node *n, const char *name);
/* "/cpus/cpu@0" into buf. */
void dts_path(const struct dts_node *n, char *buf, size_t size);
/* The node cell 'i' of 'p' refers to (a &label or a phandle number), or NULL. */
struct dts_node *dts_ref(const struct dts_tree *t, const struct dts_prop *p, size_t i);
/* The file name without its directory, for messages. */
const char *dts_basename(const char *file);
