/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <string.h>

#include "common/fileio.h"
#include "loaders/board-file.h"

int board_load(struct sim_board *b, const char *path, struct bl_diag *diag)
{
        _cleanup_free_ char *text = NULL;
        char why[256];
        size_t len;
        int r;

        /* A FIFO in a board file's place is refused, not waited on. */
        r = read_regular_file(path, 0, READ_FILE_MAX, &text, &len, why, sizeof(why));
        if (r < 0) {
                diag_add(diag, "%s: %s", path, why);
                return r;
        }
        return (int)board_parse(b, path, text, len, diag);
}
