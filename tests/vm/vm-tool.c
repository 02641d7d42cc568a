/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the VM guest needs beyond busybox (tests/vm/guest-init.sh):
 *   vm-tool burn SECONDS [GO]         one CPU-bound thread; with GO (a
 *                                     FIFO), from the first line written
 *                                     there on
 *   vm-tool deadline N RUNTIME PERIOD N sleeping SCHED_DEADLINE tasks (us),
 *                                     until killed: their reserved bandwidth
 *                                     makes the kernel refuse to offline
 *                                     CPUs it would no longer fit on
 *   vm-tool gaps SECONDS              the longest stalls of a spinning thread,
 *                                     pinned to the last CPU
 *   vm-tool write FILE VALUE [SPIN_CPU]
 *                                     time one sysfs/cgroup write; with
 *                                     SPIN_CPU, the longest stall of a thread
 *                                     spinning there during the write and
 *                                     the 100 ms after it
 *   vm-tool wait-level LOG LEVEL SECONDS [PID]
 *                                     wait until the daemon's log says it is
 *                                     at LEVEL ("*": at any, i.e. started):
 *                                     0 and "took S" when it does, 1 and
 *                                     "at CURRENT" when time runs out or
 *                                     the process PID has exited
 *   vm-tool one-thread LOG LEVEL SECONDS HOLD GO
 *                                     from the first line written to the
 *                                     FIFO GO: "from" the level then, "took
 *                                     S" to reach LEVEL (or "at CURRENT"
 *                                     after SECONDS), and after HOLD more
 *                                     seconds "moves" every switch since GO;
 *                                     with a debug log, "others" the moves
 *                                     to another level than LEVEL with the
 *                                     busy CPUs the daemon saw, and
 *                                     "unexplained N" those its samples
 *                                     do not explain (struct moves)
 *   vm-tool idle [--from-start] LOG SECONDS
 *                                     (--from-start: started before the
 *                                     daemon, counting from its "started:")
 *                                     once the log shows no switch for 5 s,
 *                                     sleep, then the switches the log gained
 *                                     ("switches N" and up to two of them),
 *                                     when the window began ("from ..."),
 *                                     the processes that used the most CPU
 *                                     ("top since start comm:pid ms ...")
 *                                     and each CPU's busy time in the window
 *                                     ("busy cpuN ms ...")
 * Times are printed in microseconds, one "key value" per line. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_us(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* The spinning thread: the gaps between two readings of the clock are the
 * times it did not run (interrupts, stop_machine, the host descheduling the
 * vCPU under TCG). */
struct spinner {
        int cpu;
        atomic_bool stop;
        atomic_uint_fast64_t max_gap;
        atomic_uint_fast64_t total_gap;         /* the gaps over 1 ms, summed */
};

static void *spin(void *arg)
{
        struct spinner *s = arg;
        cpu_set_t set;

        if (s->cpu >= 0) {
                CPU_ZERO(&set);
                CPU_SET(s->cpu, &set);
                /* The CPU may be offline: the thread then runs where it may. */
                (void)pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
        }
        uint64_t last = now_us();

        while (!atomic_load(&s->stop)) {
                uint64_t t = now_us(), gap = t - last;

                if (gap > atomic_load(&s->max_gap))
                        atomic_store(&s->max_gap, gap);
                if (gap > 1000)
                        atomic_fetch_add(&s->total_gap, gap);
                last = t;
        }
        return NULL;
}

/* With 'go' (a FIFO), the burning begins once a line arrives there: the
 * process starts long before, and the thread's start is a wakeup alone. */
static int burn(double seconds, const char *go)
{
        uint64_t end;
        volatile uint64_t n = 0;

        if (go) {
                char line[8];
                FILE *f = fopen(go, "r");

                if (!f || !fgets(line, sizeof(line), f)) {
                        perror(go);
                        if (f)
                                fclose(f);
                        return -1;
                }
                fclose(f);
        }
        end = now_us() + (uint64_t)(seconds * 1e6);
        while (now_us() < end)
                n++;
        return 0;
}

struct dl_attr {
        uint32_t size;
        uint32_t policy;
        uint64_t flags;
        int32_t nice;
        uint32_t priority;
        uint64_t runtime, deadline, period;
};

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif

static int deadline(unsigned n, uint64_t runtime_us, uint64_t period_us)
{
        pid_t pids[64];
        sigset_t set;
        int sig;

        if (n > 64)
                return -EINVAL;
        sigemptyset(&set);
        sigaddset(&set, SIGTERM);
        sigaddset(&set, SIGINT);
        sigprocmask(SIG_BLOCK, &set, NULL);
        for (unsigned i = 0; i < n; i++) {
                pids[i] = fork();
                if (pids[i] < 0)
                        return -errno;
                if (pids[i] == 0) {
                        struct dl_attr a = {
                                .size = sizeof(a),
                                .policy = SCHED_DEADLINE,
                                .runtime = runtime_us * 1000,
                                .deadline = period_us * 1000,
                                .period = period_us * 1000,
                        };

                        sigprocmask(SIG_UNBLOCK, &set, NULL);
                        if (syscall(SYS_sched_setattr, 0, &a, 0) < 0) {
                                fprintf(stderr, "vm-tool deadline: sched_setattr: %s\n", strerror(errno));
                                _exit(1);
                        }
                        for (;;)
                                pause();
                }
        }
        printf("deadline %u tasks %llu/%llu us\n", n, (unsigned long long)runtime_us,
               (unsigned long long)period_us);
        fflush(stdout);
        /* The reservations last until this process is told to end. */
        sigwait(&set, &sig);
        for (unsigned i = 0; i < n; i++)
                kill(pids[i], SIGKILL);
        for (unsigned i = 0; i < n; i++)
                waitpid(pids[i], NULL, 0);
        return 0;
}

static int gaps(double seconds)
{
        struct spinner s = { .cpu = (int)sysconf(_SC_NPROCESSORS_CONF) - 1 };
        pthread_t t;

        if (pthread_create(&t, NULL, spin, &s) != 0)
                return -EAGAIN;
        usleep((useconds_t)(seconds * 1e6));
        atomic_store(&s.stop, true);
        pthread_join(t, NULL);
        printf("max_gap_us %llu\nstalled_us %llu\n", (unsigned long long)atomic_load(&s.max_gap),
               (unsigned long long)atomic_load(&s.total_gap));
        return 0;
}

static int timed_write(const char *file, const char *value, int spin_cpu)
{
        struct spinner s = { .cpu = spin_cpu };
        pthread_t t;
        bool spinning = spin_cpu >= 0;
        int fd = open(file, O_WRONLY | O_CLOEXEC), r = 0;

        if (fd < 0) {
                fprintf(stderr, "vm-tool write: %s: %s\n", file, strerror(errno));
                return -errno;
        }
        if (spinning) {
                if (pthread_create(&t, NULL, spin, &s) != 0) {
                        close(fd);
                        return -EAGAIN;
                }
                /* Let it reach its CPU and settle before the write. */
                usleep(100000);
                atomic_store(&s.max_gap, 0);
                atomic_store(&s.total_gap, 0);
        }
        uint64_t t0 = now_us();

        if (write(fd, value, strlen(value)) < 0)
                r = -errno;
        uint64_t t1 = now_us();

        close(fd);
        if (spinning) {
                /* A stall that covers the write ends after it: the window is
                 * the write and the 100 ms after it. */
                usleep(100000);
                atomic_store(&s.stop, true);
                pthread_join(t, NULL);
        }
        printf("write_us %llu\n", (unsigned long long)(t1 - t0));
        if (spinning)
                printf("max_gap_us %llu\nstalled_us %llu\n", (unsigned long long)atomic_load(&s.max_gap),
                       (unsigned long long)atomic_load(&s.total_gap));
        if (r < 0)
                printf("error %s\n", strerror(-r));
        return r;
}

/* In the daemon's line "switch A -> B: ...", where B starts; NULL for any
 * other line. */
static const char *switch_target(const char *line)
{
        const char *p;

        if (strncmp(line, "switch ", 7) != 0 || (p = strstr(line, " -> ")) == NULL)
                return NULL;
        return p + 4;
}

/* Appends "A -> B;" of a switch line to 'moves' (as much as fits), with
 * 'extra' before the ';'. */
static void add_move(char *moves, size_t size, const char *line, const char *extra)
{
        size_t used = strlen(moves);

        snprintf(moves + used, size - used, "%.*s%s;", (int)strcspn(line + 7, ":"), line + 7, extra);
}

/* Half a CPU: a second load beside the thread keeps its CPUs busy more
 * than this between them (the daemon counts a CPU over 60 % busy as
 * loaded); with less than this in all, the thread was not running. */
#define OTHER_LOAD 0.5
#define RECENT_SAMPLES 3

/* The switches one_thread() sees, and what the daemon's debug log showed
 * before those that went to another level than 'want': the sum of the
 * CPUs' busy fractions in each of the latest samples it decided on. A
 * sample after which it logs no "tick:" line wanted a move; the samples
 * read after that one, up to the switch's line, came while the move waited
 * or was applied (a hotplug took 137 ms under TCG, and a thread it had
 * stalled ran again in them), so they are not what it answered. One
 * thread adds 1 to the sum, wherever the scheduler moves it within a
 * sample. A move up from 'want' is the daemon's answer to a second load
 * only with more than that (under TCG a vCPU the host held up with a task
 * on it reads as a busy CPU); a move back to 'from', to the thread's
 * absence only with less (a cpuset write stalled a spinning thread there
 * for 130 ms). */
struct moves {
        const char *want;
        char from[64];
        char all[1024];
        char others[4096];
        unsigned unexplained;
        double recent[RECENT_SAMPLES];
        /* the samples themselves, from the time they were read at, for
         * the moves that fail: CI's log has no daemon log to look them up */
        char recent_text[RECENT_SAMPLES][320];
        unsigned nrecent;
        bool untold;                    /* the latest sample has no "tick:" line yet */
        bool moving;                    /* a move was wanted: samples no longer count */
};

/* The CPUs' busy fractions summed, from "... busy@capacity 0:0.37@358/358
 * 1:0.68@358/358 ..."; negative without them. */
static double sample_busy(const char *line)
{
        const char *p = strstr(line, "busy@capacity ");
        double sum = 0;
        char *end;

        if (!p)
                return -1;
        while ((p = strchr(p, ':')) != NULL) {
                sum += strtod(p + 1, &end);
                p = end;
        }
        return sum;
}

static bool is_level(const char *target, const char *level)
{
        const size_t n = strlen(level);

        return strncmp(target, level, n) == 0 && target[n] == ':';
}

static void moves_add(struct moves *m, const char *line, const char *target)
{
        double most = 0;
        bool down, explained;
        char extra[1200];
        size_t used;
        unsigned n = m->nrecent < RECENT_SAMPLES ? m->nrecent : RECENT_SAMPLES;

        add_move(m->all, sizeof(m->all), line, "");
        if (is_level(target, m->want))
                return;
        for (unsigned i = 0; i < n; i++)
                if (m->recent[i] > most)
                        most = m->recent[i];
        down = is_level(target, m->from);
        explained = m->nrecent > 0 && (down ? most < OTHER_LOAD : most > 1 + OTHER_LOAD);
        used = (size_t)snprintf(extra, sizeof(extra), " (CPUs busy at most %.2f in the last %u samples)", most, n);
        /* for a move the samples do not explain, the daemon's reason and
         * the samples themselves, oldest first */
        if (!explained) {
                const char *colon = strstr(target, ": ");
                const char *why = colon ? colon + 2 : "?";
                const int len = (int)strcspn(why, "\n");

                used += (size_t)snprintf(extra + used, sizeof(extra) - used, " [why: %.*s]", len < 200 ? len : 200,
                                         why);
        }
        for (unsigned i = 0; !explained && i < n && used < sizeof(extra); i++)
                used += (size_t)snprintf(extra + used, sizeof(extra) - used, " [sample at %s]",
                                         m->recent_text[(m->nrecent - n + i) % RECENT_SAMPLES]);
        add_move(m->others, sizeof(m->others), line, extra);
        if (!explained)
                m->unexplained++;
}

/* A line of the log other than a switch's: a sample, or a tick that
 * decided to stay. */
static void moves_read(struct moves *m, const char *line)
{
        unsigned i;

        if (strncmp(line, "tick: ", 6) == 0) {
                m->untold = m->moving = false;
                return;
        }
        if (strncmp(line, "sample read at ", 15) != 0)
                return;
        m->moving = m->moving || m->untold;
        m->untold = true;
        if (m->moving)
                return;
        i = m->nrecent++ % RECENT_SAMPLES;
        m->recent[i] = sample_busy(line);
        snprintf(m->recent_text[i], sizeof(m->recent_text[i]), "%.*s", (int)strcspn(line + 15, "\n"), line + 15);
}

/* The level the log last named: "started: ...; level L [..." at the start,
 * "switch A -> B: ..." after each switch; with 'm', those switches are
 * added to it. */
static void log_level_scan(FILE *f, char *level, size_t size, struct moves *m)
{
        char line[4096];
        const char *p;
        size_t n;

        while (fgets(line, sizeof(line), f)) {
                if ((p = switch_target(line)) != NULL) {
                        n = strcspn(p, ":");
                        if (m) {
                                moves_add(m, line, p);
                                m->untold = m->moving = false;
                        }
                } else if (strncmp(line, "started: ", 9) == 0 && (p = strstr(line, "; level ")) != NULL) {
                        p += 8;
                        n = strcspn(p, " ");
                } else {
                        if (m)
                                moves_read(m, line);
                        continue;
                }
                if (n < size) {
                        memcpy(level, p, n);
                        level[n] = '\0';
                }
        }
        clearerr(f);
}

/* The guest's shell took a dozen busybox processes per poll to do this; under
 * TCG they kept a big CPU busy enough to read as load once only two CPUs were
 * online. One process reading what the log adds costs next to nothing. */
static bool exited(int pid)
{
        char path[64], buf[512], *rp;
        bool gone = true;
        FILE *f;

        if (pid <= 0)
                return false;
        snprintf(path, sizeof(path), "/proc/%d/stat", pid);
        f = fopen(path, "r");
        if (!f)
                return true;
        if (fgets(buf, sizeof(buf), f) && (rp = strrchr(buf, ')')) != NULL)
                gone = rp[1] == ' ' && rp[2] == 'Z';
        fclose(f);
        return gone;
}

static int wait_level(const char *log, const char *want, double seconds, int pid)
{
        char level[64] = "";
        uint64_t t0 = now_us(), t;
        FILE *f = fopen(log, "r");

        if (!f) {
                printf("at ? (%s: %s)\n", log, strerror(errno));
                return 1;
        }
        for (;;) {
                log_level_scan(f, level, sizeof(level), NULL);
                t = now_us();
                if (level[0] && (strcmp(want, "*") == 0 || strcmp(level, want) == 0)) {
                        printf("took %.1f\n", (double)(t - t0) / 1e6);
                        fclose(f);
                        return 0;
                }
                if ((double)(t - t0) >= seconds * 1e6 || exited(pid))
                        break;
                usleep(200000);
        }
        printf("at %s\n", level[0] ? level : "?");
        fclose(f);
        return 1;
}

/* The idle-wake scenario's quiet stretch, watched by one process started
 * while the daemon samples at the full rate (any program started later is
 * activity that may end the back-off): waits for the daemon to back off to
 * 'text' ("sampling every 10000.0 ms"), then for two samples more, and
 * prints the wakes and the periods at an idle pace its log had by then:
 * "wakes W paced P" and 0, or "not backed off wakes W paced P" and 1. */
static int idle_stretch(const char *log, const char *text, double seconds)
{
        uint64_t t0 = now_us();
        unsigned wakes = 0, paced = 0, samples = 0;
        bool backed_off = false;
        char line[1024];
        FILE *f = fopen(log, "r");

        if (!f) {
                printf("not backed off (%s: %s)\n", log, strerror(errno));
                return 1;
        }
        for (;;) {
                while (fgets(line, sizeof(line), f)) {
                        wakes += strstr(line, "deciding now") != NULL;
                        paced += strstr(line, "an idle pace") != NULL;
                        backed_off = backed_off || strstr(line, text);
                        samples += backed_off && strstr(line, "sample read at");
                        if (samples >= 2) {
                                printf("wakes %u paced %u\n", wakes, paced);
                                fclose(f);
                                return 0;
                        }
                }
                clearerr(f);
                if ((double)(now_us() - t0) >= seconds * 1e6)
                        break;
                usleep(200000);
        }
        printf("%s wakes %u paced %u\n", backed_off ? "not two samples" : "not backed off", wakes, paced);
        fclose(f);
        return 1;
}

/* One thread's window, watched by a process started before it: from the
 * first line written to the FIFO 'go' (the thread's start, signalled by the
 * shell's builtin echo) until the log says 'want' or 'seconds' pass, then
 * 'hold' seconds more. Prints "from LEVEL" (at the go), "took S" or "at
 * LEVEL", and "moves A -> B;..." (every switch since the go). The test
 * starts no process in the window: under TCG each one is load the daemon
 * may rightly answer, and one that reads the moves after the window is
 * late to tell the thread's switches from its own. */
static int one_thread(const char *log, const char *want, double seconds, double hold, const char *go)
{
        struct moves m = { .want = want };
        char level[64] = "", line[8];
        uint64_t t0, t, reached = 0;
        FILE *f = fopen(log, "r"), *g;

        if (!f) {
                printf("at ? (%s: %s)\n", log, strerror(errno));
                return 1;
        }
        g = fopen(go, "r");
        if (!g || !fgets(line, sizeof(line), g)) {
                printf("at ? (%s: %s)\n", go, strerror(errno));
                if (g)
                        fclose(g);
                fclose(f);
                return 1;
        }
        fclose(g);
        log_level_scan(f, level, sizeof(level), NULL);
        printf("from %s\n", level[0] ? level : "?");
        snprintf(m.from, sizeof(m.from), "%s", level);
        t0 = now_us();
        for (;;) {
                usleep(200000);
                log_level_scan(f, level, sizeof(level), &m);
                t = now_us();
                if (!reached && strcmp(level, want) == 0) {
                        reached = t;
                        printf("took %.1f\n", (double)(t - t0) / 1e6);
                }
                if (reached ? (double)(t - reached) >= hold * 1e6 : (double)(t - t0) >= seconds * 1e6)
                        break;
        }
        if (!reached)
                printf("at %s\n", level[0] ? level : "?");
        printf("moves %s\nothers %s\nunexplained %u\n", m.all, m.others, m.unexplained);
        fclose(f);
        return reached ? 0 : 1;
}

/* Every process's user + system time in clock ticks, by pid. */
struct proc_time {
        int pid;
        char comm[20];
        unsigned long long ticks;
};

static size_t proc_times(struct proc_time *t, size_t max)
{
        DIR *d = opendir("/proc");
        struct dirent *e;
        size_t n = 0;

        if (!d)
                return 0;
        while (n < max && (e = readdir(d)) != NULL) {
                char path[64], buf[1024], *rp;
                unsigned long long ut, st;
                FILE *f;
                int pid = atoi(e->d_name);

                if (pid <= 0)
                        continue;
                snprintf(path, sizeof(path), "/proc/%d/stat", pid);
                f = fopen(path, "r");
                if (!f)
                        continue;
                if (fgets(buf, sizeof(buf), f) && (rp = strrchr(buf, ')')) != NULL &&
                    sscanf(rp + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) == 2) {
                        char *lp = strchr(buf, '(');
                        size_t len = lp ? (size_t)(rp - lp - 1) : 0;

                        t[n].pid = pid;
                        if (len >= sizeof(t[n].comm))
                                len = sizeof(t[n].comm) - 1;
                        memcpy(t[n].comm, lp ? lp + 1 : "", len);
                        t[n].comm[len] = '\0';
                        t[n].ticks = ut + st;
                        n++;
                }
                fclose(f);
        }
        closedir(d);
        return n;
}

/* Each CPU's busy ticks (user..steal less idle and iowait) from /proc/stat,
 * by CPU number; returns how many CPUs. */
static unsigned stat_busy(unsigned long long (*busy)[4], bool *present, unsigned max)
{
        static char text[256 * 1024];
        unsigned n = 0, cpu;
        unsigned long long v[8];
        size_t len;
        char *line;
        FILE *f = fopen("/proc/stat", "r");

        if (!f)
                return 0;
        len = fread(text, 1, sizeof(text) - 1, f);
        fclose(f);
        text[len] = '\0';
        for (line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
                /* "cpu  N ..." is the sum over CPUs: %u would skip the spaces */
                if (line[3] >= '0' && line[3] <= '9' &&
                    sscanf(line, "cpu%u %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1], &v[2], &v[3],
                           &v[4], &v[5], &v[6], &v[7]) == 9 && cpu < max) {
                        busy[cpu][0] = v[0] + v[1];     /* user, nice */
                        busy[cpu][1] = v[2];            /* system */
                        busy[cpu][2] = v[5];            /* irq */
                        busy[cpu][3] = v[6] + v[7];     /* softirq, steal */
                        present[cpu] = true;
                        if (cpu + 1 > n)
                                n = cpu + 1;
                }
        return n;
}

/* The switch lines the log gained since the last call; prints the first
 * 'show' of them. */
static unsigned new_switches(FILE *f, unsigned show)
{
        char line[4096];
        unsigned n = 0;

        while (fgets(line, sizeof(line), f))
                if (switch_target(line) && ++n <= show)
                        printf("%s", line);
        clearerr(f);
        return n;
}

/* The uptime's first field into 'buf' ("?" when unreadable). */
static void read_uptime(char *buf, size_t size)
{
        FILE *u = fopen("/proc/uptime", "r");
        char field[64];

        snprintf(buf, size, "?");
        if (!u)
                return;
        if (fscanf(u, "%63s", field) == 1)
                snprintf(buf, size, "%s", field);
        fclose(u);
}

#define IDLE_SETTLE_S 5
#define IDLE_SETTLE_TRIES 6

/* The idle scenario's window, measured from one sleeping process. Under TCG
 * the guest's shell commands are load: a few process starts in a row keep a
 * LITTLE CPU busy for the 100 ms the daemon needs to call it saturated. So
 * the window opens only after IDLE_SETTLE_S without a switch, and the
 * expensive look at every process comes after it closes (their times since
 * they started, not over the window). */
static int idle_window(const char *log, double seconds, bool from_start)
{
        static struct proc_time procs[4096];
        static unsigned long long busy0[64][4], busy1[64][4];
        bool present0[64] = { false }, present1[64] = { false };
        unsigned ncpu, tries = 0, switches;
        size_t np, shown = 0;
        long hz = sysconf(_SC_CLK_TCK);
        char uptime[64] = "?";
        FILE *f = fopen(log, "r");

        if (!f) {
                printf("error %s: %s\n", log, strerror(errno));
                return 1;
        }
        if (from_start) {
                char line[4096];

                /* Started before the daemon, so that no process starts
                 * beside it: its first seconds count from "started:". */
                for (;;) {
                        if (!fgets(line, sizeof(line), f)) {
                                clearerr(f);
                                usleep(200000);
                                continue;
                        }
                        if (strncmp(line, "started: ", 9) == 0)
                                break;
                }
        } else {
                fseek(f, 0, SEEK_END);
        }
        /* The reads that open the window, once before it: under TCG code run
         * for the first time is translated, and its pages faulted in, which
         * put one LITTLE CPU at 0.45 for 100 ms right where the window
         * opened (2+4 tree, read as an onset by the daemon). */
        read_uptime(uptime, sizeof(uptime));
        (void)stat_busy(busy0, present0, 64);
        do
                sleep(IDLE_SETTLE_S);
        while (new_switches(f, 0) > 0 && ++tries < IDLE_SETTLE_TRIES);
        read_uptime(uptime, sizeof(uptime));
        (void)stat_busy(busy0, present0, 64);
        usleep((useconds_t)(seconds * 1e6));
        ncpu = stat_busy(busy1, present1, 64);
        switches = new_switches(f, 2);
        fclose(f);
        printf("switches %u\nfrom %s s after %u s without a switch\n", switches, uptime,
               (tries + (tries < IDLE_SETTLE_TRIES)) * IDLE_SETTLE_S);
        np = proc_times(procs, 4096);
        printf("top since start");
        while (shown < 3) {
                unsigned long long best = 0;
                size_t bi = 0;

                for (size_t i = 0; i < np; i++)
                        if (procs[i].ticks > best) {
                                best = procs[i].ticks;
                                bi = i;
                        }
                if (!best)
                        break;
                printf(" %s:%d %llu ms", procs[bi].comm, procs[bi].pid, best * 1000 / (unsigned long long)hz);
                procs[bi].ticks = 0;
                shown++;
        }
        printf("\nbusy");
        /* CPUs online at both ends: one that went offline or came back has
         * no count for the window */
        for (unsigned c = 0; c < ncpu; c++)
                if (present0[c] && present1[c]) {
                        unsigned long long d[4], sum = 0;

                        for (unsigned i = 0; i < 4; i++) {
                                d[i] = (busy1[c][i] - busy0[c][i]) * 1000 / (unsigned long long)hz;
                                sum += d[i];
                        }
                        printf(" cpu%u %llu (user %llu sys %llu irq %llu softirq %llu)", c, sum, d[0], d[1], d[2],
                               d[3]);
                }
        printf(" ms\n");
        return 0;
}

int main(int argc, char **argv)
{
        int r;

        if ((argc == 3 || argc == 4) && strcmp(argv[1], "burn") == 0)
                r = burn(atof(argv[2]), argc == 4 ? argv[3] : NULL);
        else if (argc == 5 && strcmp(argv[1], "deadline") == 0)
                r = deadline((unsigned)atoi(argv[2]), strtoull(argv[3], NULL, 10), strtoull(argv[4], NULL, 10));
        else if (argc == 3 && strcmp(argv[1], "gaps") == 0)
                r = gaps(atof(argv[2]));
        else if ((argc == 4 || argc == 5) && strcmp(argv[1], "write") == 0)
                r = timed_write(argv[2], argv[3], argc == 5 ? atoi(argv[4]) : -1);
        else if (argc == 4 && strcmp(argv[1], "idle") == 0)
                return idle_window(argv[2], atof(argv[3]), false);
        else if (argc == 5 && strcmp(argv[1], "idle") == 0 && strcmp(argv[2], "--from-start") == 0)
                return idle_window(argv[3], atof(argv[4]), true);
        else if ((argc == 5 || argc == 6) && strcmp(argv[1], "wait-level") == 0)
                return wait_level(argv[2], argv[3], atof(argv[4]), argc == 6 ? atoi(argv[5]) : 0);
        else if (argc == 5 && strcmp(argv[1], "idle-stretch") == 0)
                return idle_stretch(argv[2], argv[3], atof(argv[4]));
        else if (argc == 7 && strcmp(argv[1], "one-thread") == 0)
                return one_thread(argv[2], argv[3], atof(argv[4]), atof(argv[5]), argv[6]);
        else {
                fprintf(stderr, "usage: vm-tool burn S [GO_FIFO] | deadline N RUNTIME_US PERIOD_US | gaps S | "
                                "write FILE VALUE [SPIN_CPU] | wait-level LOG LEVEL S [PID] | idle-stretch LOG TEXT S | "
                                "idle [--from-start] LOG S | "
                                "one-thread LOG LEVEL S HOLD GO_FIFO\n");
                return 64;
        }
        return r < 0 ? 1 : 0;
}
