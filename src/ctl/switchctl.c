/* SPDX-License-Identifier: GPL-2.0-or-later */
/* switchctl: the command-line client of bigLittled. It talks to the daemon
 * only over D-Bus (org.bigLittle.Switch1 on the system bus); see
 * switchctl(1). */
#include <locale.h>
#include <unistd.h>

#include "ctl/args.h"
#include "ctl/output.h"

int main(int argc, char **argv)
{
        struct ctl_args a;
        verb_fn fn;
        int status;

        setlocale(LC_ALL, "");
        if (args_parse(argc, argv, &a, &fn, &status) == 0) {
                a.fancy = output_fancy(STDOUT_FILENO);
                status = fn(&a);
        }
        args_done(&a);
        return status;
}
