/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Reading back the lines of a plot gnuplot drew as SVG: the svg terminal
 * writes each line of a panel as a group "gnuplot_plot_<N><panel>" (panel
 * 'a' for the first plot command, 'b' for the second, ...) holding its key
 * text and paths that start with the key's sample and go on with the data. */

#define PLOT_SVG_MAX_LINES 32

struct plot_svg_line {
        char name[64];          /* the key's text */
        char colour[32];        /* the stroke of its paths ("rgb(...)"); "" when they differ */
        unsigned moves;         /* 'M' commands of its paths: 1 is the key's sample alone, no line */
};

/* The lines of 'panel' of 'svg' in the order drawn; returns how many. */
unsigned plot_svg_panel(const char *svg, char panel, struct plot_svg_line *lines);
