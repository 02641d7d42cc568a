/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <string.h>

#include "common/board-file.h"
#include "common/fileio.h"

int board_load(struct sim_board *b, const char *path, struct bl_diag *diag)
{
        _cleanup_free_ char *text = NULL;
        size_t len;
        int r;

        r = read_file(path, &text, &len);
        if (r < 0) {
                diag_add(diag, "%s: cannot read: %s", path, strerror(-r));
                return r;
        }
        return (int)board_parse(b, path, text, len, diag);
}
