/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/scorer.h"

int scorer_init(struct bl_scorer *s, const struct bl_config *c, unsigned have)
{
        int r = 0;

        *s = (struct bl_scorer){ .combine = c->combine };
        if (c->nheuristics > BL_MAX_HEURISTICS)
                return -EINVAL;

        for (unsigned i = 0; i < c->nheuristics; i++) {
                const struct bl_heuristic_conf *h = &c->heuristics[i];

                if (!h->ops || !h->ops->score) {
                        r = -EINVAL;
                        break;
                }
                if (h->ops->abi != BL_POLICY_ABI) {
                        r = -EPROTO;
                        break;
                }
                s->ops[i] = h->ops;
                s->weight[i] = h->weight;
                snprintf(s->name[i], sizeof(s->name[i]), "%s",
                         h->name[0] || !h->ops->name ? h->name : h->ops->name);
                s->n = i + 1;
                s->disabled[i] = (h->ops->needs & ~have) != 0;
                if (s->disabled[i])
                        continue;
                s->nenabled++;
                if (h->ops->state_size > 0) {
                        s->state[i] = calloc(1, h->ops->state_size);
                        if (!s->state[i]) {
                                r = -ENOMEM;
                                break;
                        }
                }
                if (h->ops->init) {
                        r = h->ops->init(s->state[i], h->params);
                        if (r < 0)
                                break;
                }
                s->inited[i] = true;
        }

        if (r < 0)
                scorer_done(s);
        return r;
}

void scorer_done(struct bl_scorer *s)
{
        for (unsigned i = 0; i < BL_MAX_HEURISTICS; i++) {
                /* An instance whose init failed was never made: nothing to destroy. */
                if (s->inited[i] && s->ops[i]->destroy)
                        s->ops[i]->destroy(s->state[i]);
                free(s->state[i]);
        }
        *s = (struct bl_scorer){ 0 };
}

double scorer_score(struct bl_scorer *s, const struct bl_sample *sample, bl_usec_t now)
{
        double max = 0.0, sum = 0.0, wsum = 0.0, plain = 0.0, combined;

        if (s->nenabled == 0)
                return bl_sample_peak_demand(sample);
        for (unsigned i = 0; i < s->n; i++) {
                double v;

                if (s->disabled[i])
                        continue;
                v = s->ops[i]->score(s->state[i], sample, now);

                /* A broken plugin must not poison the engine's comparisons. */
                if (!isfinite(v) || v < 0.0) {
                        if (!s->bad[i]) {
                                s->bad[i] = true;
                                s->bad_score[i] = v;
                        }
                        v = 0.0;
                }
                s->last[i] = v;
                if (v > max)
                        max = v;
                sum += s->weight[i] * v;
                wsum += s->weight[i];
                plain += v;
        }

        if (s->combine == BL_COMBINE_MAX)
                return max;
        /* Weights that add up to nothing mean "no preference": the plain mean. */
        combined = wsum > 0.0 ? sum / wsum : plain / s->nenabled;
        /* Finite scores can still overflow on the way (weight x score, or
         * their sum); a mean is never above the largest, so that stands in. */
        if (!isfinite(combined)) {
                if (!s->overflow) {
                        s->overflow = true;
                        s->overflow_combined = combined;
                        s->overflow_largest = max;
                }
                combined = max;
        }
        return combined;
}

void scorer_reset(struct bl_scorer *s)
{
        for (unsigned i = 0; i < s->n; i++) {
                if (!s->disabled[i] && s->ops[i]->reset)
                        s->ops[i]->reset(s->state[i]);
                s->last[i] = 0.0;
        }
}

unsigned scorer_warnings(const struct bl_scorer *s, struct bl_scorer_told *told, struct bl_diag *diag)
{
        unsigned n = 0;

        for (unsigned i = 0; i < s->n; i++) {
                if (!s->bad[i] || told->heuristic[i])
                        continue;
                told->heuristic[i] = true;
                diag_add(diag, "heuristic %s returned %g, not a demand (a finite number >= 0): "
                         "counted as 0 whenever it does (said once)", s->name[i], s->bad_score[i]);
                n++;
        }
        if (s->overflow && !told->overflow) {
                told->overflow = true;
                diag_add(diag, "the weighted mean of the heuristics' scores overflowed to %g: "
                         "the largest score, %g, used instead whenever it does (said once)",
                         s->overflow_combined, s->overflow_largest);
                n++;
        }
        return n;
}
