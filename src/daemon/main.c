/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "daemon/config-load.h"
#include "daemon/daemon.h"
#include "daemon/options.h"
#include "daemon/record.h"

int main(int argc, char **argv)
{
        struct options o;
        int status;

        if (options_parse(&o, argc, argv, &status) != 0)
                return status;
        if (o.check_config)
                return daemon_check_config(&o);
        if (o.record)
                return record_run(&o);
        return daemon_run(&o);
}
