/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "tests/unit/plot-svg.h"

#define GROUP "<g id=\"gnuplot_plot_"

/* Reads the group starting at 'g' (up to 'end') into 'line'. */
static void read_group(const char *g, const char *end, struct plot_svg_line *line)
{
        const char *p = strstr(g, "<text>");
        bool first = true;

        *line = (struct plot_svg_line){ 0 };
        if (p && p < end)
                snprintf(line->name, sizeof(line->name), "%.*s", (int)strcspn(p + 6, "<"), p + 6);
        for (p = g; (p = strstr(p, "<path stroke='")) && p < end; p++) {
                const char *colour = p + strlen("<path stroke='"), *d = strstr(p, "d='");
                char here[sizeof(line->colour)];

                snprintf(here, sizeof(here), "%.*s", (int)strcspn(colour, "'"), colour);
                if (first)
                        snprintf(line->colour, sizeof(line->colour), "%s", here);
                else if (strcmp(here, line->colour) != 0)
                        line->colour[0] = '\0';
                first = false;
                ck_assert_ptr_nonnull(d);
                for (d += 3; *d && *d != '\''; d++)
                        line->moves += *d == 'M';
        }
}

/* The end of the element "<g ...>" at 'g': after its matching "</g>". */
static const char *group_end(const char *g)
{
        unsigned depth = 0;

        for (const char *p = g; *p; p++) {
                if (strncmp(p, "<g ", 3) == 0 || strncmp(p, "<g>", 3) == 0)
                        depth++;
                else if (strncmp(p, "</g>", 4) == 0 && --depth == 0)
                        return p + 4;
        }
        return g + strlen(g);
}

unsigned plot_svg_panel(const char *svg, char panel, struct plot_svg_line *lines)
{
        unsigned n = 0;

        for (const char *g = strstr(svg, GROUP); g; g = strstr(g + 1, GROUP)) {
                const char *id = g + strlen(GROUP);
                size_t digits = strspn(id, "0123456789");

                if (digits == 0 || id[digits] != panel || id[digits + 1] != '"')
                        continue;
                ck_assert_uint_lt(n, PLOT_SVG_MAX_LINES);
                read_group(g, group_end(g), &lines[n++]);
        }
        return n;
}
