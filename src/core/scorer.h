/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Runs the configured heuristics on each sample and combines their demand
 * (max, or weighted mean). Owns each heuristic's private state. */

#include "core/config.h"
#include "core/diag.h"
#include "core/sample.h"

struct bl_scorer {
        unsigned n;
        enum bl_combine combine;
        const struct bl_heuristic_ops *ops[BL_MAX_HEURISTICS];
        double weight[BL_MAX_HEURISTICS];
        void *state[BL_MAX_HEURISTICS];
        double last[BL_MAX_HEURISTICS];         /* each heuristic's last score */
        /* A heuristic whose needs (BL_NEEDS_*) the sources cannot meet is
         * kept, for status, but neither run nor combined. */
        bool disabled[BL_MAX_HEURISTICS];
        bool inited[BL_MAX_HEURISTICS];         /* init() succeeded: destroy() is due */
        unsigned nenabled;
        /* A score that is not a finite number >= 0 counts as 0, and a
         * combination that overflows (DBL_MAX x weight 100) gives the largest
         * score instead: the engine must compare numbers. The first of each
         * is kept for scorer_warnings(), since the core does no I/O. */
        char name[BL_MAX_HEURISTICS][BL_NAME_MAX];
        bool bad[BL_MAX_HEURISTICS];
        double bad_score[BL_MAX_HEURISTICS];
        bool overflow;
        double overflow_combined, overflow_largest;
};

/* Which of a scorer's problems were said already, so that each is said once
 * (per heuristic, however many scorers run it). Zero: nothing said. */
struct bl_scorer_told {
        bool heuristic[BL_MAX_HEURISTICS];
        bool overflow;
};

/* 'have' is the set of BL_NEEDS_* signals the sources provide. Returns 0 or
 * a negative errno (-ENOMEM, or what a heuristic's init said). With no
 * heuristic enabled the score is the plain peak demand (what util says). */
int scorer_init(struct bl_scorer *s, const struct bl_config *c, unsigned have);
void scorer_done(struct bl_scorer *s);
double scorer_score(struct bl_scorer *s, const struct bl_sample *sample, bl_usec_t now);
void scorer_reset(struct bl_scorer *s);

/* Adds to 'diag' a sentence for each problem of 's' that 'told' does not
 * mark yet (a heuristic's broken score, naming it; an overflowing
 * combination), and marks it. Returns how many were added. */
unsigned scorer_warnings(const struct bl_scorer *s, struct bl_scorer_told *told, struct bl_diag *diag);
