/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The descriptors this process has open (opendir()'s own counted), for
 * tests that compare before and after to find a leak. */

#include <check.h>
#include <dirent.h>

static inline unsigned count_fds(void)
{
        DIR *d = opendir("/proc/self/fd");
        struct dirent *de;
        unsigned n = 0;

        ck_assert_ptr_nonnull(d);
        while ((de = readdir(d)))
                if (de->d_name[0] != '.')
                        n++;
        closedir(d);
        return n;
}
