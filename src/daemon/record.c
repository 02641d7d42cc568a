/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/duration.h"
#include "common/fileio.h"
#include "common/log.h"
#include "daemon/config-load.h"
#include "daemon/record.h"
#include "daemon/state.h"
#include "sources/sampler.h"
#include "sources/topology-udev.h"

/* The capacity scale of samples: the fastest core at its top frequency. */
#define REFERENCE_CAPACITY 1024.0

/* Set by SIGINT/SIGTERM: the recording ends at the next step and is kept. */
static volatile sig_atomic_t stop_requested;

struct recording {
        const char *path;
        char rows_path[PATH_MAX];
        FILE *rows;                     /* the rows, until the header can be written */
        uint64_t step_us;
        unsigned nlanes;
        uint64_t nsteps;
        uint64_t saturated[BL_MAX_CPUS];
        uint64_t pressure_steps;        /* steps in which tasks waited for a CPU */
        bool has_pressure;
        double work;                    /* total, reference-µs */
        time_t started;
};

/* The work of one step of 'step_us' per lane (lane N = CPU N, 'nlanes' of
 * them): busy x capacity at the current frequency, in reference-µs
 * (1024 = the fastest core at its top frequency). CPUs that are offline,
 * not in the sample or beyond 'nlanes' give 0. 'saturated' (may be NULL)
 * gets whether each lane was saturated. */
static void record_lane_work(const struct bl_sample *s, uint64_t step_us, unsigned nlanes, double *work,
                      bool *saturated)
{
        for (unsigned i = 0; i < nlanes; i++) {
                work[i] = 0;
                if (saturated)
                        saturated[i] = false;
        }
        for (unsigned i = 0; i < s->ncpus; i++) {
                const struct bl_cpu_sample *c = &s->cpu[i];

                if (!c->online || c->cpu >= nlanes)
                        continue;
                work[c->cpu] = c->busy * (double)step_us * c->capacity / REFERENCE_CAPACITY;
                if (saturated)
                        saturated[c->cpu] = c->busy >= RECORD_SATURATED;
        }
}

static void on_stop_signal(int sig)
{
        (void)sig;
        stop_requested = 1;
}

static int watch_stop_signals(void)
{
        struct sigaction sa = { .sa_handler = on_stop_signal };

        sigemptyset(&sa.sa_mask);
        /* No SA_RESTART: the sleep between steps must end at once. */
        if (sigaction(SIGINT, &sa, NULL) < 0 || sigaction(SIGTERM, &sa, NULL) < 0)
                return -errno;
        return 0;
}

static uint64_t now_usec(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static void sleep_until(uint64_t usec)
{
        struct timespec ts = duration_timespec(usec);

        /* EINTR: a stop signal; the caller looks at the flag. */
        (void)clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

static int write_row(struct recording *rec, const double *work)
{
        if (fprintf(rec->rows, "%" PRIu64, rec->nsteps * rec->step_us) < 0)
                return -EIO;
        for (unsigned i = 0; i < rec->nlanes; i++) {
                /* 0.01 reference-µs is far below what /proc/stat resolves. */
                if (fprintf(rec->rows, work[i] > 0 ? ",%.2f" : ",0", work[i]) < 0)
                        return -EIO;
                rec->work += work[i];
        }
        if (fputc('\n', rec->rows) == EOF)
                return -EIO;
        rec->nsteps++;
        return 0;
}

/* One sample covers the steps that ended since the last one: a late tick
 * (a loaded machine) spreads its busy time over all of them, so t_us keeps
 * to the wall clock. */
static int record_sample(struct recording *rec, const struct bl_sample *s, uint64_t elapsed_us)
{
        double work[BL_MAX_CPUS];
        bool saturated[BL_MAX_CPUS];
        uint64_t due = elapsed_us / rec->step_us;
        int r;

        record_lane_work(s, rec->step_us, rec->nlanes, work, saturated);
        while (rec->nsteps < due) {
                r = write_row(rec, work);
                if (r < 0)
                        return r;
                for (unsigned i = 0; i < rec->nlanes; i++)
                        rec->saturated[i] += saturated[i];
                if (s->has_pressure && s->pressure > 0)
                        rec->pressure_steps++;
        }
        rec->has_pressure |= s->has_pressure;
        return 0;
}

static int write_header(const struct recording *rec, const struct bl_topology *t, FILE *f)
{
        char kinds[512], started[64];
        struct tm tm;
        uint64_t any = 0;

        topology_describe_kinds(t, kinds, sizeof(kinds));
        gmtime_r(&rec->started, &tm);
        strftime(started, sizeof(started), "%Y-%m-%dT%H:%M:%SZ", &tm);
        fprintf(f, "# bigLittle-trace v1 step_us=%" PRIu64 "\n", rec->step_us);
        fprintf(f, "# recorded by bigLittled %s --record, started %s, %" PRIu64 " steps\n", PACKAGE_VERSION,
                started, rec->nsteps);
        fprintf(f, "# lane N = cpuN: busy time x capacity at the current frequency (reference 1024)\n");
        fprintf(f, "# kinds of core: %s, told apart by %s\n", kinds, t->how);
        for (unsigned i = 0; i < rec->nlanes; i++)
                any += rec->saturated[i];
        if (any) {
                fprintf(f, "# saturated (busy >= %.0f%% of a step: more work may have been offered):",
                        RECORD_SATURATED * 100);
                for (unsigned i = 0; i < rec->nlanes; i++)
                        if (rec->saturated[i])
                                fprintf(f, " lane%u %" PRIu64 " steps", i, rec->saturated[i]);
                fputc('\n', f);
        } else {
                fprintf(f, "# saturated: no lane in any step\n");
        }
        if (rec->has_pressure)
                fprintf(f, "# CPU pressure (tasks waited for a CPU) in %" PRIu64 " of %" PRIu64 " steps\n",
                        rec->pressure_steps, rec->nsteps);
        else
                fprintf(f, "# CPU pressure: not available on this kernel\n");
        fprintf(f, "t_us");
        for (unsigned i = 0; i < rec->nlanes; i++)
                fprintf(f, ",lane%u", i);
        fputc('\n', f);
        return ferror(f) ? -EIO : 0;
}

static int copy_rows(FILE *from, FILE *to)
{
        char buf[65536];
        size_t n;

        if (fflush(from) == EOF || fseek(from, 0, SEEK_SET) < 0)
                return -errno;
        while ((n = fread(buf, 1, sizeof(buf), from)) > 0)
                if (fwrite(buf, 1, n, to) != n)
                        return -EIO;
        return ferror(from) ? -EIO : 0;
}

struct finished {
        const struct recording *rec;
        const struct bl_topology *topo;
};

static int fill_trace(FILE *f, const void *userdata)
{
        const struct finished *done = userdata;
        int r = write_header(done->rec, done->topo, f);

        return r < 0 ? r : copy_rows(done->rec->rows, f);
}

/* The header can only be written once the recording is over (it counts
 * saturated steps); the whole file then replaces the target at once, so an
 * interrupted write never leaves half a trace. */
static int finish(const struct recording *rec, const struct bl_topology *t)
{
        const struct finished done = { .rec = rec, .topo = t };
        char dir[PATH_MAX];
        const char *slash = strrchr(rec->path, '/');

        if (!slash)
                return write_file_atomic(".", rec->path, fill_trace, &done);
        if ((size_t)(slash - rec->path) >= sizeof(dir))
                return -ENAMETOOLONG;
        memcpy(dir, rec->path, (size_t)(slash - rec->path));
        dir[slash - rec->path] = '\0';
        return write_file_atomic(slash == rec->path ? "/" : dir, slash + 1, fill_trace, &done);
}

static int open_rows(struct recording *rec)
{
        int fd;

        if ((size_t)snprintf(rec->rows_path, sizeof(rec->rows_path), "%s.rows.XXXXXX", rec->path) >=
            sizeof(rec->rows_path))
                return -ENAMETOOLONG;
        fd = mkstemp(rec->rows_path);
        if (fd < 0) {
                rec->rows_path[0] = '\0';
                return -errno;
        }
        rec->rows = fdopen(fd, "w+");
        if (!rec->rows) {
                int r = -errno;

                close(fd);
                return r;
        }
        return 0;
}

/* The trace replaces its file whole when the recording ends; say at the
 * start, not after an hour of recording, that it cannot. */
static int check_target(const char *path)
{
        mode_t mode = 0;
        int r = file_replaceable(path, &mode);

        if (r < 0)
                log_error("%s: is a %s; the trace replaces its file whole, so it must be a regular file or a new name",
                          path, file_type_name(mode));
        return r;
}

static int record_loop(struct recording *rec, struct bl_sampler *sampler, uint64_t duration_us)
{
        struct bl_sample_buf *sample = malloc(sizeof(*sample));
        uint64_t start;
        int r;

        if (!sample)
                return -ENOMEM;
        start = now_usec();
        /* The first read only sets the counters' starting point. */
        r = sampler_read(sampler, start, sample);
        while (r >= 0 && !stop_requested) {
                uint64_t now;

                sleep_until(start + (rec->nsteps + 1) * rec->step_us);
                if (stop_requested)
                        break;
                now = now_usec();
                r = sampler_read(sampler, now, sample);
                if (r >= 0)
                        r = record_sample(rec, &sample->s, now - start);
                if (duration_us && rec->nsteps * rec->step_us >= duration_us)
                        break;
        }
        free(sample);
        return r;
}

int record_run(const struct options *o)
{
        struct bl_plugin_set plugins = { 0 };
        struct recording rec = { .path = o->record };
        struct bl_topology topo;
        struct bl_sampler sampler;
        struct bl_config *cfg = malloc(sizeof(*cfg));
        struct bl_diag *diag = malloc(sizeof(*diag));
        bool sampler_opened = false;
        char took[DURATION_TEXT_MAX];
        int r, status = EXIT_FAILURE;

        log_setup(LOG_TARGET_STDERR, LOG_INFO);
        if (check_target(o->record) < 0) {
                status = EXIT_USAGE;
                goto out;
        }
        if (!cfg || !diag) {
                log_error("out of memory");
                goto out;
        }
        diag_init(diag);
        r = daemon_read_config(o, &plugins, cfg);
        if (r != 0) {
                log_error("configuration is not valid; not recording");
                status = EXIT_CONFIG;
                goto out;
        }
        rec.step_us = o->record_interval_usec ? o->record_interval_usec : cfg->sample_interval_ms * 1000ull;
        r = topology_discover(&topo, diag);
        daemon_log_diag(diag, LOG_WARNING);
        diag_init(diag);
        if (r < 0) {
                log_error_errno(r, "cannot discover the CPU topology");
                goto out;
        }
        rec.nlanes = topo.ncpus;
        r = sampler_open(&sampler, &topo, cfg, diag);
        daemon_log_diag(diag, LOG_INFO);
        diag_init(diag);
        if (r < 0) {
                log_error_errno(r, "cannot read the load");
                goto out;
        }
        sampler_opened = true;
        r = open_rows(&rec);
        if (r < 0) {
                log_error_errno(r, "%s: cannot create a file next to it", o->record);
                goto out;
        }
        r = watch_stop_signals();
        if (r < 0) {
                log_error_errno(r, "cannot watch signals");
                goto out;
        }
        rec.started = time(NULL);
        log_info("recording %u CPUs every %s into %s%s", rec.nlanes,
                 duration_format(took, sizeof(took), rec.step_us), o->record,
                 o->record_duration_usec ? "" : " until SIGINT or SIGTERM");
        r = record_loop(&rec, &sampler, o->record_duration_usec);
        if (r < 0) {
                log_error("recording stopped: %s; %s not written", strerror(-r), o->record);
                goto out;
        }
        if (rec.nsteps == 0) {
                log_error("stopped before the first step: %s not written", o->record);
                goto out;
        }
        r = finish(&rec, &topo);
        if (r < 0) {
                log_error_errno(r, "%s: cannot write", o->record);
                goto out;
        }
        log_info("%s: %" PRIu64 " steps (%s), %.0f reference-ms of work", o->record, rec.nsteps,
                 duration_format(took, sizeof(took), rec.nsteps * rec.step_us), rec.work / 1000.0);
        status = EXIT_SUCCESS;
out:
        if (rec.rows)
                fclose(rec.rows);
        if (rec.rows_path[0])
                unlink(rec.rows_path);
        if (sampler_opened)
                sampler_close(&sampler);
        plugins_unload(&plugins);
        free(cfg);
        free(diag);
        return status;
}
