/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/types.h"

const char *mode_to_string(enum bl_mode mode)
{
        switch (mode) {
        case BL_MODE_AUTO:
                return "auto";
        case BL_MODE_CLUSTER:
                return "cluster";
        case BL_MODE_PAIR:
                return "pair";
        case BL_MODE_MP:
                return "mp";
        }
        return "?";
}
