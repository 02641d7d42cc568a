/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "common/fileio.h"
#include "common/log.h"
#include "daemon/model-in-use.h"
#include "loaders/board-file.h"
#include "loaders/energy-model-dir.h"

static void set_none(struct model_in_use *m, const char *why)
{
        m->have_board = false;
        m->origin[0] = '\0';
        snprintf(m->none_why, sizeof(m->none_why), "%s", why);
}

static int load_board_file(struct model_in_use *m, const char *path, const struct bl_topology *t,
                           struct bl_diag *diag)
{
        int r = board_load(&m->board, path, diag);

        if (r > 0)
                return -EINVAL;
        if (r < 0)
                return r;
        r = board_check_topology(&m->board, t, path, diag);
        if (r < 0)
                return r;
        m->have_board = true;
        snprintf(m->origin, sizeof(m->origin), "board file %s", path);
        return 0;
}

/* The kernel's model where debugfs shows one. Whatever goes wrong leaves
 * the daemon as it was without a model: auto promises nothing. */
static void load_debugfs(struct model_in_use *m, const struct bl_topology *t, struct bl_diag *diag)
{
        struct em_domains em;
        const unsigned problems = diag_count(diag);
        int r;

        r = em_read_domains(EM_DIR, &em, diag);
        if (r < 0 || em.n == 0) {
                if (diag_count(diag) > problems) {
                        set_none(m, "the debugfs energy model cannot be read; set energy_model=");
                        return;
                }
                set_none(m, r == -EACCES ? "debugfs energy model not readable; set energy_model="
                                         : "no debugfs energy model; set energy_model=");
                return;
        }
        r = board_from_em(&m->board, &em, t, EM_DIR, diag);
        if (r < 0) {
                set_none(m, "the debugfs energy model does not fit the CPUs; set energy_model=");
                return;
        }
        m->have_board = true;
        snprintf(m->origin, sizeof(m->origin), "from %s", EM_DIR);
}

int model_in_use_load(struct model_in_use *m, const char *setting, const struct bl_topology *t,
                      struct bl_diag *diag)
{
        m->model = (struct bl_energy_model){ 0 };
        if (strcmp(setting, "none") == 0) {
                set_none(m, "energy_model = none");
                return 0;
        }
        if (strcmp(setting, "auto") == 0) {
                load_debugfs(m, t, diag);
                return 0;
        }
        set_none(m, "");
        return load_board_file(m, setting, t, diag);
}

int model_in_use_check_file(const char *setting)
{
        _cleanup_free_ struct sim_board *b = NULL;
        _cleanup_free_ struct bl_diag *diag = NULL;
        int r;

        if (strcmp(setting, "auto") == 0 || strcmp(setting, "none") == 0)
                return 0;
        b = malloc(sizeof(*b));
        diag = malloc(sizeof(*diag));
        if (!b || !diag)
                return -ENOMEM;
        diag_init(diag);
        r = board_load(b, setting, diag);
        for (unsigned i = 0; i < diag->n; i++)
                log_error("energy_model: %s", diag->msg[i]);
        return r;
}

void model_in_use_apply(struct model_in_use *m, struct bl_controller *c, const struct bl_ladder *l,
                        const struct bl_topology *t)
{
        struct bl_diag diag;

        m->model = (struct bl_energy_model){ .nlevels = l->nlevels };
        diag_init(&diag);
        /* CPUs come and go (a board's hotplug, a VM's vCPUs): the model read
         * at start may no longer be this machine's. */
        if (m->have_board && board_check_topology(&m->board, t, m->origin, &diag) < 0) {
                for (unsigned i = 0; i < diag.n; i++)
                        log_warning("energy model: %s", diag.msg[i]);
                set_none(m, "the model read no longer fits the CPUs; reload to read it again");
        }
        if (m->have_board)
                energy_model_for_ladder(&m->model, &m->board, l, t, m->origin);
        controller_set_energy_model(c, m->model.known ? &m->model : NULL);
}

void model_in_use_describe(const struct model_in_use *m, const struct bl_ladder *l, char *buf, size_t size)
{
        size_t len;

        if (!m->have_board) {
                snprintf(buf, size, "none (%s)", m->none_why);
                return;
        }
        snprintf(buf, size, "%s %s, %u clusters, ", m->board.name, m->origin, m->board.nclusters);
        for (unsigned k = 0; k < m->board.nclusters; k++) {
                len = strlen(buf);
                snprintf(buf + len, size - len, "%s%u", k ? "+" : "", m->board.cluster[k].nopps);
        }
        len = strlen(buf);
        snprintf(buf + len, size - len, " OPPs%s",
                 l->mode == BL_MODE_PAIR ? "; not used in pair mode, where a level is one pair's" : "");
}
