/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Status load on the daemon's bus service: N client processes share M calls
 * of Describe() (the heaviest read: the whole status as JSON) on the bus
 * DBUS_SYSTEM_BUS_ADDRESS names. tests/bench/bus-load.sh runs it against the
 * daemon on the fake board and reads the daemon's tick lateness. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <systemd/sd-bus.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int client(unsigned calls)
{
        sd_bus *bus = NULL;
        int r;

        r = sd_bus_open_system(&bus);
        if (r < 0) {
                fprintf(stderr, "bench_bus: cannot connect: %s\n", strerror(-r));
                return 1;
        }
        for (unsigned i = 0; i < calls; i++) {
                sd_bus_error error = SD_BUS_ERROR_NULL;
                sd_bus_message *reply = NULL;

                r = sd_bus_call_method(bus, "org.bigLittle.Switch1", "/org/bigLittle/Switch1",
                                       "org.bigLittle.Switch1", "Describe", &error, &reply, "");
                sd_bus_message_unref(reply);
                if (r < 0) {
                        fprintf(stderr, "bench_bus: Describe: %s\n", error.message ? error.message : strerror(-r));
                        sd_bus_error_free(&error);
                        sd_bus_unref(bus);
                        return 1;
                }
        }
        sd_bus_flush_close_unref(bus);
        return 0;
}

int main(int argc, char **argv)
{
        static const struct option options[] = {
                { "clients", required_argument, NULL, 'c' },
                { "calls", required_argument, NULL, 'n' },
                { NULL, 0, NULL, 0 },
        };
        unsigned long clients = 4, calls = 10000;
        unsigned failed = 0;
        double t0, dt;
        int opt;

        while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
                switch (opt) {
                case 'c':
                        clients = strtoul(optarg, NULL, 10);
                        break;
                case 'n':
                        calls = strtoul(optarg, NULL, 10);
                        break;
                default:
                        fprintf(stderr, "usage: bench_bus [--clients N] [--calls M]\n");
                        return EXIT_FAILURE;
                }
        }
        if (clients == 0 || clients > 64 || calls < clients) {
                fprintf(stderr, "bench_bus: expected 1-64 clients and at least one call each\n");
                return EXIT_FAILURE;
        }

        t0 = now_s();
        for (unsigned long i = 0; i < clients; i++) {
                pid_t pid = fork();

                if (pid < 0) {
                        perror("bench_bus: fork");
                        return EXIT_FAILURE;
                }
                if (pid == 0)
                        _exit(client((unsigned)(calls / clients + (i < calls % clients))));
        }
        for (unsigned long i = 0; i < clients; i++) {
                int status;

                if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
                        failed++;
        }
        dt = now_s() - t0;
        printf("bench_bus: %lu clients, %lu Describe() calls in %.2f s (%.0f calls/s)%s\n", clients, calls, dt,
               (double)calls / dt, failed ? ", some clients failed" : "");
        return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
