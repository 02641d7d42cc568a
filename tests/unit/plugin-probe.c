/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plugin-probe --default-dir: prints BL_PLUGIN_DIR, where the daemon looks.
 * plugin-probe [--uid UID] DIR: loads the heuristic plugins of DIR as the
 * daemon would (trusting UID, root by default), prints every refusal on
 * stderr, and for each heuristic loaded prints "NAME SCORE": its score, at
 * its default parameters, of one fixed sample -- two online CPUs of
 * capacity 400, 50% and 75% busy (peak demand 300), CPU pressure 20%.
 * Exit status: 0 all loaded, 1 something refused, 2 usage or other error. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/diag.h"
#include "loaders/plugin-loader.h"
#include "policy/builtin.h"

static const struct bl_cpu_sample probe_cpus[] = {
        { .cpu = 0, .online = true, .busy = 0.5f, .capacity = 400, .max_capacity = 400 },
        { .cpu = 1, .online = true, .busy = 0.75f, .capacity = 400, .max_capacity = 400 },
};

static const struct bl_sample probe_sample = {
        .now = 1000000,
        .interval = 20000,
        .ncpus = 2,
        .cpu = probe_cpus,
        .has_pressure = true,
        .pressure = 0.2,
};

static int probe(const struct bl_heuristic_ops *ops)
{
        double params[BL_POLICY_MAX_PARAMS];
        char err[256] = "";
        void *state;
        int r;

        for (unsigned i = 0; i < ops->nparams; i++)
                params[i] = ops->params[i].def;
        if (ops->validate) {
                r = ops->validate(params, err, sizeof(err));
                if (r < 0) {
                        fprintf(stderr, "%s: its defaults are invalid: %s\n", ops->name, err);
                        return r;
                }
        }
        state = calloc(1, ops->state_size ? ops->state_size : 1);
        if (!state)
                return -ENOMEM;
        r = ops->init ? ops->init(state, params) : 0;
        if (r < 0)
                fprintf(stderr, "%s: init: %s\n", ops->name, strerror(-r));
        else
                printf("%s %.1f\n", ops->name, ops->score(state, &probe_sample, probe_sample.now));
        if (r >= 0 && ops->destroy)
                ops->destroy(state);
        free(state);
        return r;
}

int main(int argc, char **argv)
{
        struct bl_plugin_set set = { 0 };
        struct bl_diag diag;
        const struct bl_heuristic_ops *const *table;
        unsigned long uid = 0;
        char *end;
        int r, status = 0;

        if (argc == 2 && strcmp(argv[1], "--default-dir") == 0) {
                printf("%s\n", BL_PLUGIN_DIR);
                return 0;
        }
        if (argc == 4 && strcmp(argv[1], "--uid") == 0) {
                errno = 0;
                uid = strtoul(argv[2], &end, 10);
                if (errno || end == argv[2] || *end || uid != (uid_t)uid) {
                        fprintf(stderr, "plugin-probe: bad uid \"%s\"\n", argv[2]);
                        return 2;
                }
                argv += 2;
                argc -= 2;
        }
        if (argc != 2) {
                fprintf(stderr, "usage: plugin-probe [--uid UID] DIR | --default-dir\n");
                return 2;
        }

        diag_init(&diag);
        r = plugins_load(&set, argv[1], (uid_t)uid, &diag);
        for (unsigned i = 0; i < diag.n; i++)
                fprintf(stderr, "%s\n", diag.msg[i]);
        if (r < 0) {
                fprintf(stderr, "plugin-probe: %s\n", strerror(-r));
                status = 2;
        } else if (diag_count(&diag) > 0)
                status = 1;

        table = plugins_table(&set);
        for (unsigned i = 0; table[i]; i++) {
                bool builtin = false;

                for (unsigned j = 0; policy_builtin[j] && !builtin; j++)
                        builtin = table[i] == policy_builtin[j];
                if (!builtin && probe(table[i]) < 0)
                        status = 2;
        }
        plugins_unload(&set);
        return status;
}
