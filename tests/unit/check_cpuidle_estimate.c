/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cpuidle_busy() on what a kernel shows: idle periods whose residency and
 * count (stateN/time, usage) grow only when they end, and /proc/stat's
 * USER_HZ ticks, whose idle time includes the period in progress. A small
 * model of one CPU plays the kernel (struct cpu_model); the readers'
 * tests at the end read the files as the daemon does. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sources/cpuidle.h"

#define USEC_PER_TICK 10000
#define RESOLUTION_US 10

/*
 * One CPU in 10 µs steps: a timer wakes it every wake_us (its first wake at
 * phase_us); at each wake it is given load x wake_us of work and runs until
 * the work is done, then idles until the next wake (a load of 1 or more:
 * it never idles). An idle period that ends adds its length to 'residency'
 * and one to 'usage', as cpuidle_enter_state() does; /proc/stat's idle
 * counts the period in progress too.
 */
struct cpu_model {
        uint64_t now, wake_us, next_wake;
        double load;
        uint64_t work;                  /* left to run */
        bool idle;
        uint64_t idle_since;
        uint64_t residency, usage;      /* cpuidle */
        uint64_t busy_us, idle_us;      /* /proc/stat, before the ticks */
};

static void model_init(struct cpu_model *m, uint64_t wake_us, uint64_t phase_us, double load)
{
        *m = (struct cpu_model){ .wake_us = wake_us, .next_wake = phase_us, .load = load, .idle = true };
}

static void model_run(struct cpu_model *m, uint64_t until)
{
        while (m->now < until) {
                if (m->now >= m->next_wake) {
                        if (m->idle) {
                                m->residency += m->now - m->idle_since;
                                m->usage++;
                                m->idle = false;
                        }
                        m->work += m->load >= 1.0 ? UINT64_MAX / 4 : (uint64_t)(m->load * (double)m->wake_us);
                        m->next_wake += m->wake_us;
                }
                if (!m->idle && m->work == 0) {
                        m->idle = true;
                        m->idle_since = m->now;
                }
                if (m->idle) {
                        m->idle_us += RESOLUTION_US;
                } else {
                        m->busy_us += RESOLUTION_US;
                        m->work = m->work > RESOLUTION_US ? m->work - RESOLUTION_US : 0;
                }
                m->now += RESOLUTION_US;
        }
}

/* The CPU's load from now on; with a load of 1 or more it runs at once. */
static void model_set_load(struct cpu_model *m, double load)
{
        m->load = load;
        if (load >= 1.0) {
                m->work = UINT64_MAX / 4;
                if (m->idle) {
                        m->residency += m->now - m->idle_since;
                        m->usage++;
                        m->idle = false;
                }
        } else if (!m->idle) {
                uint64_t per_wake = (uint64_t)(load * (double)m->wake_us);

                m->work = m->work > per_wake ? per_wake : m->work;
        }
}

/* The daemon's side: reads the model every interval, as the sampler does. */
struct reader {
        struct cpu_model *m;
        uint64_t last_res, last_usage, last_busy_ticks, last_idle_ticks;
        struct cpuidle_estimate est;
        float naive;                    /* residency over interval, clamped: what aliases */
        uint64_t ran_us;                /* the model's time since the last read, run by reader_advance() */
};

static void reader_init(struct reader *r, struct cpu_model *m)
{
        *r = (struct reader){ .m = m };
        r->last_res = m->residency;
        r->last_usage = m->usage;
        r->last_busy_ticks = m->busy_us / USEC_PER_TICK;
        r->last_idle_ticks = m->idle_us / USEC_PER_TICK;
}

/* A read of the files after 'interval'; 'resumed': the first after
 * skipped ones, which the reader hands to cpuidle_busy_woken(). */
static float reader_read_as(struct reader *r, uint64_t interval, bool resumed)
{
        struct cpu_model *m = r->m;
        uint64_t bt, it, res;
        float busy;

        model_run(m, m->now + interval - r->ran_us);
        r->ran_us = 0;
        bt = m->busy_us / USEC_PER_TICK;
        it = m->idle_us / USEC_PER_TICK;
        res = m->residency - r->last_res;
        busy = (resumed ? cpuidle_busy_woken : cpuidle_busy)(res, m->usage - r->last_usage, interval,
                                                             bt - r->last_busy_ticks, it - r->last_idle_ticks,
                                                             &r->est);
        r->naive = res >= interval ? 0.0f : 1.0f - (float)res / (float)interval;
        r->last_res = m->residency;
        r->last_usage = m->usage;
        r->last_busy_ticks = bt;
        r->last_idle_ticks = it;
        ck_assert(busy >= 0.0f && busy <= 1.0f);
        return busy;
}

static float reader_read(struct reader *r, uint64_t interval)
{
        return reader_read_as(r, interval, false);
}

/* Runs the model 'us' into the reader's next interval (a load can then
 * start within it). */
static void reader_advance(struct reader *r, uint64_t us)
{
        model_run(r->m, r->m->now + us);
        r->ran_us += us;
}

/* From now on a load of 'load' with a sleep every 'wake_us': work that wakes
 * the CPU, not a timer. */
static void model_start_load(struct cpu_model *m, uint64_t wake_us, double load)
{
        m->wake_us = wake_us;
        m->next_wake = m->now;
        model_set_load(m, load);
}

/* An interval in which the daemon leaves the files unread: /proc/stat is
 * read, cpuidle taken as unchanged; the baseline stays for the next read. */
static float reader_skip(struct reader *r, uint64_t interval)
{
        struct cpu_model *m = r->m;
        uint64_t bt, it;
        float busy;

        model_run(m, m->now + interval - r->ran_us);
        r->ran_us = 0;
        bt = m->busy_us / USEC_PER_TICK;
        it = m->idle_us / USEC_PER_TICK;
        busy = cpuidle_busy(0, 0, interval, bt - r->last_busy_ticks, it - r->last_idle_ticks, &r->est);
        r->last_busy_ticks = bt;
        r->last_idle_ticks = it;
        return busy;
}

/* Wakes every 11 ms, runs 2 % of the time, read every 20 ms: the residency
 * of an interval is one period (~46 % busy) or two (0 %). */
START_TEST(test_aliasing_wakes_11ms_read_20ms)
{
        for (uint64_t phase = 0; phase < 11000; phase += 1370) {
                struct cpu_model m;
                struct reader r;
                float lo = 1, hi = 0, naive_hi = 0, naive_lo = 1;
                double sum = 0;
                unsigned n = 0;

                model_init(&m, 11000, phase, 0.02);
                model_run(&m, 100000);
                reader_init(&r, &m);
                for (unsigned i = 0; i < 150; i++) {
                        float b = reader_read(&r, 20000);

                        /* the first reads learn the rhythm */
                        if (i < 10)
                                continue;
                        lo = fminf(lo, b);
                        hi = fmaxf(hi, b);
                        naive_lo = fminf(naive_lo, r.naive);
                        naive_hi = fmaxf(naive_hi, r.naive);
                        sum += b;
                        n++;
                }
                /* the case is the aliasing one */
                ck_assert_msg(naive_hi > 0.4f && naive_lo == 0.0f, "phase %llu: residency alone %.3f..%.3f",
                              (unsigned long long)phase, (double)naive_lo, (double)naive_hi);
                ck_assert_msg(hi < 0.1f, "phase %llu: busy up to %.3f", (unsigned long long)phase,
                              (double)hi);
                ck_assert_msg(fabs(sum / n - 0.02) < 0.015, "phase %llu: mean busy %.4f",
                              (unsigned long long)phase, sum / n);
                (void)lo;
        }
}
END_TEST

/* The same at 10 ms: most intervals see one period end, some none. */
START_TEST(test_aliasing_wakes_11ms_read_10ms)
{
        struct cpu_model m;
        struct reader r;
        float hi = 0;
        double sum = 0;

        model_init(&m, 11000, 3210, 0.02);
        model_run(&m, 100000);
        reader_init(&r, &m);
        for (unsigned i = 0; i < 300; i++) {
                float b = reader_read(&r, 10000);

                if (i < 10)
                        continue;
                hi = fmaxf(hi, b);
                sum += b;
        }
        ck_assert_msg(hi < 0.1f, "busy up to %.3f", (double)hi);
        ck_assert_msg(fabs(sum / 290 - 0.02) < 0.015, "mean busy %.4f", sum / 290);
}
END_TEST

/* Busy CPUs read busy: at 100 % no period ends; at 60 % (6.6 ms of every
 * 11) the periods are short and many. */
START_TEST(test_busy_cpu_reads_busy)
{
        static const double loads[] = { 1.0, 0.6, 0.3 };

        for (unsigned l = 0; l < sizeof(loads) / sizeof(loads[0]); l++) {
                struct cpu_model m;
                struct reader r;
                double sum = 0;

                model_init(&m, 11000, 500, loads[l]);
                model_run(&m, 100000);
                reader_init(&r, &m);
                for (unsigned i = 0; i < 100; i++) {
                        float b = reader_read(&r, 20000);

                        if (i < 5)
                                continue;
                        if (loads[l] >= 1.0)
                                ck_assert_msg(b == 1.0f, "read %u: %.3f", i, (double)b);
                        else
                                ck_assert_msg(fabsf(b - (float)loads[l]) < 0.2f, "load %.2f, read %u: %.3f",
                                              loads[l], i, (double)b);
                        sum += b;
                }
                ck_assert_msg(fabs(sum / 95 - loads[l]) < 0.05, "load %.2f: mean busy %.3f", loads[l],
                              sum / 95);
        }
}
END_TEST

/* A load starts on the idle CPU and ends again: busy within three reads
 * of its start, back near idle within five of its end. */
START_TEST(test_load_comes_and_goes)
{
        for (uint64_t phase = 0; phase < 11000; phase += 2300) {
                struct cpu_model m;
                struct reader r;

                model_init(&m, 11000, phase, 0.02);
                model_run(&m, 100000);
                reader_init(&r, &m);
                for (unsigned i = 0; i < 20; i++)
                        (void)reader_read(&r, 20000);
                model_run(&m, m.now + 7000);
                model_set_load(&m, 1.0);
                (void)reader_read(&r, 13000);
                /* the first full interval may be taken for a read skew */
                (void)reader_read(&r, 20000);
                for (unsigned i = 0; i < 50; i++)
                        ck_assert_msg(reader_read(&r, 20000) == 1.0f, "phase %llu: read %u under load",
                                      (unsigned long long)phase, i);
                model_run(&m, m.now + 4000);
                model_set_load(&m, 0.02);
                for (unsigned i = 0; i < 30; i++) {
                        float b = reader_read(&r, 20000);

                        if (i >= 5)
                                ck_assert_msg(b < 0.1f, "phase %llu: read %u after the load: %.3f",
                                              (unsigned long long)phase, i, (double)b);
                }
        }
}
END_TEST

/* Idle periods longer than the interval (a CPU the timer wakes every 50
 * ms): most intervals see none end, and read idle all the same. */
START_TEST(test_long_idle_periods)
{
        struct cpu_model m;
        struct reader r;

        model_init(&m, 50000, 1234, 0.004);
        model_run(&m, 200000);
        reader_init(&r, &m);
        for (unsigned i = 0; i < 200; i++) {
                float b = reader_read(&r, 20000);

                if (i >= 5)
                        ck_assert_msg(b < 0.1f, "read %u: %.3f", i, (double)b);
        }
}
END_TEST

/* A CPU idle for seconds (a timer wakes it every 300 ms), read every 10 ms,
 * and an 80 % load that sleeps every millisecond starts at any phase of an
 * interval. The history of 300 ms periods is not the CPU's any more: the
 * first full interval of load reads it, or where the load began too late in
 * the interval before for a busy tick, the next. (The history alone read it
 * 5 %, 12 %, 23 % in those three intervals.) */
START_TEST(test_load_after_long_idle_shows_at_once)
{
        for (uint64_t phase = 0; phase < 10000; phase += 1000) {
                struct cpu_model m;
                struct reader r;
                float second, third;

                model_init(&m, 300000, 100000, 0.0);
                model_run(&m, 100010);
                reader_init(&r, &m);
                for (unsigned i = 0; i < 90; i++)
                        ck_assert_float_lt(reader_read(&r, 10000), 0.01f);
                reader_advance(&r, phase);
                model_start_load(&m, 1000, 0.8);
                (void)reader_read(&r, 10000);
                second = reader_read(&r, 10000);
                third = reader_read(&r, 10000);
                if (phase <= 7000)
                        ck_assert_msg(fabsf(second - 0.8f) < 0.1f, "phase %llu: first full interval: %.3f",
                                      (unsigned long long)phase, (double)second);
                ck_assert_msg(fabsf(third - 0.8f) < 0.1f, "phase %llu: second full interval: %.3f",
                              (unsigned long long)phase, (double)third);
                for (unsigned i = 0; i < 20; i++) {
                        float b = reader_read(&r, 10000);

                        ck_assert_msg(fabsf(b - 0.8f) < 0.1f, "phase %llu: read %u: %.3f",
                                      (unsigned long long)phase, i, (double)b);
                }
        }
}
END_TEST

/* A CPU left unread while idle, as the sampler leaves a CPU without busy
 * ticks, that an 80 % load wakes 3 ms into an interval: its first read (at
 * the first busy tick, the load's second interval) cannot tell the load's
 * periods from the span's, but the read after it shows the load, not the
 * load averaged into the history of the idle CPU (8 %, then 17 %). */
START_TEST(test_woken_by_a_load_after_long_idle)
{
        struct cpu_model m;
        struct reader r;
        unsigned skipped = 0;

        model_init(&m, 300000, 100000, 0.0);
        model_run(&m, 100010);
        reader_init(&r, &m);
        for (unsigned i = 0; i < 30; i++)
                (void)reader_read(&r, 10000);
        for (unsigned i = 0; i < 34; i++)
                ck_assert_float_eq(reader_skip(&r, 10000), 0.0f);
        reader_advance(&r, 3000);
        model_start_load(&m, 1000, 0.8);
        for (;;) {
                reader_advance(&r, 10000 - r.ran_us);
                if (m.busy_us / USEC_PER_TICK != r.last_busy_ticks)
                        break;
                (void)reader_skip(&r, 10000);
                skipped++;
        }
        ck_assert_uint_eq(skipped, 1);
        (void)reader_read_as(&r, 10000, true);
        for (unsigned i = 0; i < 10; i++) {
                float b = reader_read(&r, 10000);

                ck_assert_msg(fabsf(b - 0.8f) < 0.1f, "read %u after the woken one: %.3f", i, (double)b);
        }
}
END_TEST

/* What the history is for stays: an idle CPU whose 300 ms timer wakes do
 * 0.3 ms of work, at every phase of the read, and its rare busy ticks, read
 * every 10 ms, unread for up to 49 reads at a time, or read every 20 ms. */
START_TEST(test_long_idle_with_short_wakes_stays_idle)
{
        static const uint64_t intervals[] = { 10000, 20000 };

        for (unsigned k = 0; k < 2; k++) {
                for (uint64_t phase = 0; phase < 20000; phase += 1300) {
                        struct cpu_model m;
                        struct reader r;
                        unsigned skipped = 0;

                        model_init(&m, 300000, 100000 + phase, 0.001);
                        model_run(&m, 100010);
                        reader_init(&r, &m);
                        for (unsigned i = 0; i < 1000; i++) {
                                uint64_t ticks = r.last_busy_ticks;
                                float b;

                                /* the sampler's skip: no busy tick, idle at the last answer */
                                if (k == 0 && i % 7 != 0 && r.est.have_last && r.est.last_busy < 0.005f &&
                                    skipped < CPUIDLE_SKIP_MAX) {
                                        b = reader_skip(&r, intervals[k]);
                                        if (r.last_busy_ticks == ticks) {
                                                skipped++;
                                                continue;
                                        }
                                }
                                b = skipped > 0 ? reader_read_as(&r, intervals[k], true)
                                                : reader_read(&r, intervals[k]);
                                skipped = 0;
                                r.est.last_busy = b;
                                r.est.have_last = true;
                                /* the first reads learn the rhythm */
                                if (i < 5)
                                        continue;
                                ck_assert_msg(b < 0.1f, "interval %llu, phase %llu, read %u: %.3f",
                                              (unsigned long long)intervals[k], (unsigned long long)phase, i,
                                              (double)b);
                        }
                }
        }
}
END_TEST

/* Two identical idle CPUs waking every 4 ms (first at 1 ms), no load yet, 100 ms
 * run, each with a reader: one read every interval, one left unread. */
static void twin_idle_cpus(struct cpu_model *ma, struct cpu_model *mb, struct reader *a, struct reader *b)
{
        model_init(ma, 4000, 1000, 0.0);
        model_init(mb, 4000, 1000, 0.0);
        model_run(ma, 100000);
        model_run(mb, 100000);
        reader_init(a, ma);
        reader_init(b, mb);
}

/* A quiet CPU left unread (cpuidle_read()'s skip) gives no idle time and
 * no period for CPUIDLE_SKIP_MAX intervals, then all of them at once. Its
 * estimate must then be what reads of every interval give: a second of
 * 4 ms periods must weigh as the last dozen of them, not as one read that
 * outweighs the load that comes next (at 70 %, the CPU would read ~10 %
 * busy for a tenth of a second: a switch down under load). */
START_TEST(test_skipped_reads_weigh_as_read)
{
        struct cpu_model ma, mb;
        struct reader a, b;

        twin_idle_cpus(&ma, &mb, &a, &b);
        for (unsigned i = 0; i < 5; i++) {
                ck_assert_float_eq(reader_read(&a, 20000), 0.0f);
                ck_assert_float_eq(reader_read(&b, 20000), 0.0f);
        }
        for (unsigned i = 0; i < CPUIDLE_SKIP_MAX; i++) {
                (void)reader_read(&a, 20000);
                ck_assert_float_eq(reader_skip(&b, 20000), 0.0f);
        }
        ck_assert_float_eq(reader_read(&a, 20000), 0.0f);
        ck_assert_float_eq(reader_read_as(&b, 20000, true), 0.0f);
        model_set_load(&ma, 0.7);
        model_set_load(&mb, 0.7);
        for (unsigned i = 0; i < 20; i++) {
                float ba = reader_read(&a, 20000), bb = reader_read(&b, 20000);

                ck_assert_msg(fabsf(ba - bb) < 0.02f, "read %u under load: %.3f read every interval, %.3f "
                              "after the skipped ones", i, (double)ba, (double)bb);
                if (i >= 5)
                        ck_assert_msg(bb > 0.5f, "read %u under load: %.3f", i, (double)bb);
        }
}
END_TEST

/* The load that wakes a CPU left unread while quiet shows at the read it
 * causes as it does when every interval is read: the second of idle before
 * is not averaged with it (cpuidle_busy_woken()). At 100 ms intervals (the
 * idle back-off's) a load of 70 % starting 30 ms into one is 49 % of it;
 * averaged over the 5 s before, it would read ~1 %. */
START_TEST(test_woken_read_shows_the_load)
{
        struct cpu_model ma, mb;
        struct reader a, b;
        uint64_t bt, it;
        float ba, bb;

        twin_idle_cpus(&ma, &mb, &a, &b);
        for (unsigned i = 0; i < 5; i++) {
                (void)reader_read(&a, 100000);
                (void)reader_read(&b, 100000);
        }
        for (unsigned i = 0; i < CPUIDLE_SKIP_MAX; i++) {
                (void)reader_read(&a, 100000);
                ck_assert_float_eq(reader_skip(&b, 100000), 0.0f);
        }
        model_run(&ma, ma.now + 30000);
        model_run(&mb, mb.now + 30000);
        model_set_load(&ma, 0.7);
        model_set_load(&mb, 0.7);
        ba = reader_read(&a, 70000);
        /* reader_read() with cpuidle_busy_woken() */
        model_run(&mb, mb.now + 70000);
        bt = mb.busy_us / USEC_PER_TICK;
        it = mb.idle_us / USEC_PER_TICK;
        ck_assert_uint_gt(bt - b.last_busy_ticks, 0);
        bb = cpuidle_busy_woken(mb.residency - b.last_res, mb.usage - b.last_usage, 100000,
                                bt - b.last_busy_ticks, it - b.last_idle_ticks, &b.est);
        b.last_res = mb.residency;
        b.last_usage = mb.usage;
        b.last_busy_ticks = bt;
        b.last_idle_ticks = it;
        /* no less than reading every interval shows (its history of the
         * idle second weighs too), no more than the interval's 49 % */
        ck_assert_msg(bb >= ba - 0.02f && bb < 0.52f, "the woken read: %.3f; read every interval: %.3f",
                      (double)bb, (double)ba);
        for (unsigned i = 0; i < 10; i++) {
                ba = reader_read(&a, 100000);
                bb = reader_read(&b, 100000);
                /* the woken read's interval weighs as one period: a little behind at first */
                ck_assert_msg(fabsf(ba - bb) < (i < 2 ? 0.1f : 0.02f), "read %u under load: %.3f read "
                              "every interval, %.3f after the skipped ones", i, (double)ba, (double)bb);
        }
}
END_TEST

/* cpuidle_busy_woken() one read at a time, on what check_idle's board
 * showed of a CPU at 2 % (11 ms wakes) left unread for 49 ticks of 10 ms:
 * 46 periods and 492.616 ms of residency in the 500 ms since it was last
 * read with a period ending, a busy tick in the last 10 ms. */
START_TEST(test_woken_rules)
{
        struct cpuidle_estimate e = { .idle = true, .span_us = 490000 }, f;
        double w = 1.0 / (45 * 0.08), cycle, idle;

        /* The 490 ms before: 10 ms x 490 / 510 = 9.607 ms of it busy
         * (integer µs: 9607), 480.393 ms idle, with 45 periods: past 32 the
         * history goes, and the span weighs as 1 / (45 x 0.08) of itself.
         * This interval: 492.616 - 480.393 = 12.223 ms idle of 10, one
         * period, the history kept by 0.92. */
        cycle = 490000 * w * 0.92 + 10000;
        idle = 480393 * w * 0.92 + 12223;
        f = e;
        ck_assert_float_eq_tol(cpuidle_busy_woken(492616, 46, 10000, 1, 1, &f), (float)(1 - idle / cycle), 1e-5f);
        ck_assert(f.idle);
        ck_assert_uint_eq(f.span_us, 0);
        /* below 0.5 %: the 2 % of 490 ms are not put into these 10 ms, which
         * (taken idle throughout) would read 74 % busy, 5.5 % with the history */
        ck_assert_float_lt(cpuidle_busy_woken(492616, 46, 10000, 1, 1, &(struct cpuidle_estimate){
                                                      .idle = true, .span_us = 490000 }), 0.005f);
        /* No busy tick (the read forced after CPUIDLE_SKIP_MAX), or one
         * period: as cpuidle_busy(), as reads of every interval would be. */
        f = e;
        ck_assert_float_eq(cpuidle_busy_woken(492616, 46, 10000, 0, 1, &f),
                           cpuidle_busy(492616, 46, 10000, 0, 1, &(struct cpuidle_estimate){
                                                .idle = true, .span_us = 490000 }));
        f = e;
        ck_assert_float_eq(cpuidle_busy_woken(495000, 1, 10000, 1, 0, &f),
                           cpuidle_busy(495000, 1, 10000, 1, 0, &(struct cpuidle_estimate){
                                                .idle = true, .span_us = 490000 }));
}
END_TEST

/* The rules one interval at a time. */
START_TEST(test_rules)
{
        struct cpuidle_estimate e = { 0 };

        ck_assert_float_eq(cpuidle_busy(5, 1, 0, 0, 1, &e), 0.0f);
        /* one period of 2.5 ms in 10: without history, the interval is the cycle */
        ck_assert_float_eq_tol(cpuidle_busy(2500, 1, 10000, 1, 0, &e), 0.75f, 1e-6f);
        ck_assert(!e.idle);
        /* no period ended and /proc/stat all busy: busy */
        ck_assert_float_eq(cpuidle_busy(0, 0, 10000, 1, 0, &e), 1.0f);
        ck_assert_float_eq(cpuidle_busy(0, 0, 10000, 0, 0, &e), 1.0f);
        ck_assert(!e.idle);
        ck_assert_uint_eq(e.span_us, 0);
        /* ... it went idle: /proc/stat's share, and idle from then on until
         * a busy tick says otherwise */
        ck_assert_float_eq_tol(cpuidle_busy(0, 0, 10000, 1, 1, &e), 0.5f, 1e-6f);
        ck_assert(e.idle);
        ck_assert_float_eq(cpuidle_busy(0, 0, 10000, 0, 0, &e), 0.0f);
        ck_assert_float_eq(cpuidle_busy(0, 0, 10000, 0, 1, &e), 0.0f);
        /* the idle part of the first of them, and the other two */
        ck_assert_uint_eq(e.span_us, 25000);
        /* one busy tick may be a wake between the reads; two in a row are not */
        ck_assert_float_eq(cpuidle_busy(0, 0, 10000, 1, 0, &e), 0.0f);
        ck_assert(e.idle && e.doubt);
        ck_assert_float_eq(cpuidle_busy(0, 0, 10000, 1, 0, &e), 1.0f);
        ck_assert(!e.idle && !e.doubt);
        /* ... and a period ending clears the doubt */
        e = (struct cpuidle_estimate){ .idle = true };
        ck_assert_float_eq(cpuidle_busy(0, 0, 10000, 1, 0, &e), 0.0f);
        (void)cpuidle_busy(9000, 1, 10000, 0, 1, &e);
        ck_assert(!e.doubt);
        /* time read without its count is one period */
        e = (struct cpuidle_estimate){ 0 };
        ck_assert_float_eq_tol(cpuidle_busy(4000, 0, 10000, 1, 0, &e), 0.6f, 1e-6f);
        /* cpuidle 95 % busy, /proc/stat all idle: /proc/stat wins */
        e = (struct cpuidle_estimate){ 0 };
        ck_assert_float_eq(cpuidle_busy(500, 1, 10000, 0, 1, &e), 0.0f);
        /* ... but not when /proc/stat is less sure than 90 % */
        e = (struct cpuidle_estimate){ 0 };
        ck_assert_float_eq_tol(cpuidle_busy(500, 1, 10000, 1, 8, &e), 0.95f, 1e-6f);
        /* no busy tick in /proc/stat for 20, then 40 ms: less than 10 ms of
         * them were busy, whatever cpuidle is behind with */
        e = (struct cpuidle_estimate){ 0 };
        ck_assert_float_eq_tol(cpuidle_busy(2000, 1, 20000, 0, 2, &e), 0.5f, 1e-6f);
        ck_assert_float_eq_tol(cpuidle_busy(2000, 1, 20000, 0, 2, &e), 0.25f, 1e-6f);
        ck_assert_float_eq_tol(cpuidle_busy(2000, 1, 20000, 1, 1, &e), 0.9f, 1e-6f);
        /* a period longer than the cycle reads idle, not negative */
        e = (struct cpuidle_estimate){ 0 };
        ck_assert_float_eq(cpuidle_busy(15000, 1, 10000, 0, 1, &e), 0.0f);
        ck_assert(e.idle);
}
END_TEST

/* The reader on files: a temporary cpu directory, as sysfs lays it out. */

static char dir[64];

static void put(unsigned cpu, unsigned state, const char *name, const char *text)
{
        char path[256];
        FILE *f;

        snprintf(path, sizeof(path), "%s/cpu%u/cpuidle/state%u", dir, cpu, state);
        for (char *p = path + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
                *p = '\0';
                (void)mkdir(path, 0755);
                *p = '/';
        }
        (void)mkdir(path, 0755);
        snprintf(path, sizeof(path), "%s/cpu%u/cpuidle/state%u/%s", dir, cpu, state, name);
        f = fopen(path, "w");
        ck_assert_ptr_nonnull(f);
        fputs(text, f);
        fclose(f);
}

static void files_setup(void)
{
        snprintf(dir, sizeof(dir), "/tmp/check_cpuidle.XXXXXX");
        ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void files_teardown(void)
{
        char cmd[128];

        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
        ck_assert_int_eq(system(cmd), 0);
}

static struct cpuidle_reader open_reader(const char *cpus)
{
        struct cpuidle_reader r;
        bl_cpumask set;

        ck_assert_int_eq(cpumask_parse(&set, cpus), 0);
        ck_assert_int_eq(cpuidle_open(&r, dir, &set), 0);
        cpuidle_read(&r, &set, NULL);
        return r;
}

START_TEST(test_reader_counts_periods)
{
        struct cpuidle_reader r;
        bl_cpumask all;
        float b = -1;

        put(0, 0, "time", "1000\n");
        put(0, 0, "usage", "10\n");
        put(0, 1, "time", "50000\n");
        put(0, 1, "usage", "3\n");
        r = open_reader("0");
        ck_assert(cpuidle_has(&r, 0));
        ck_assert(r.cpu[0].have_usage);
        put(0, 0, "time", "1500\n");
        put(0, 0, "usage", "12\n");
        put(0, 1, "time", "59500\n");
        put(0, 1, "usage", "4\n");
        ck_assert_int_eq(cpumask_parse(&all, "0"), 0);
        cpuidle_read(&r, &all, NULL);
        ck_assert_uint_eq(r.cpu[0].idle_us, 10000);
        ck_assert_uint_eq(r.cpu[0].periods, 3);
        /* 3 periods of 3.33 ms in a cycle of 20 / 3 ms: half busy */
        ck_assert(cpuidle_cpu_busy(&r, 0, 20000, 1, 1, 0, &b));
        ck_assert_float_eq_tol(b, 0.5f, 1e-6f);
        cpuidle_close(&r);
}
END_TEST

/* A CPU's history starts from its figures since it came online: 50 s
 * online, 49 s idle in 4500 periods (a cycle of ~11 ms, 98 % idle). An
 * interval in which nothing moved is then an idle period going on, not
 * busy time; when it ends, after 29.5 ms, the 30 ms read 2 % busy. A CPU
 * that was mostly busy since it came online reads busy. */
START_TEST(test_reader_history_from_boot)
{
        struct cpuidle_reader r;
        bl_cpumask all;
        float b = -1;

        put(0, 0, "time", "49000000\n");
        put(0, 0, "usage", "4500\n");
        put(1, 0, "time", "5000000\n");
        put(1, 0, "usage", "4500\n");
        r = open_reader("0-1");
        ck_assert_int_eq(cpumask_parse(&all, "0-1"), 0);
        cpuidle_read(&r, &all, NULL);
        ck_assert(cpuidle_cpu_busy(&r, 0, 10000, 0, 0, 50000000, &b));
        ck_assert_float_eq(b, 0.0f);
        ck_assert(cpuidle_cpu_busy(&r, 1, 10000, 0, 0, 50000000, &b));
        ck_assert_float_eq(b, 1.0f);
        put(0, 0, "time", "49029500\n");
        put(0, 0, "usage", "4501\n");
        cpuidle_read(&r, &all, NULL);
        ck_assert(cpuidle_cpu_busy(&r, 0, 20000, 0, 2, 50020000, &b));
        ck_assert_msg(b < 0.05f, "busy %.3f", (double)b);
        cpuidle_close(&r);
}
END_TEST

/* Bad contents: a state whose time is not a number, or a usage that is
 * not (read where the time moved), leaves the CPU without cpuidle for the interval (/proc/stat's
 * share stands), and the reader looks the states up again; negative or
 * falling counts start a new interval. Without usage files, residency
 * counts as one period. */
START_TEST(test_reader_bad_contents)
{
        struct cpuidle_reader r;
        bl_cpumask all;
        float b = -1;

        ck_assert_int_eq(cpumask_parse(&all, "0-3"), 0);
        for (unsigned cpu = 0; cpu < 4; cpu++) {
                put(cpu, 0, "time", "1000\n");
                put(cpu, 0, "usage", "10\n");
        }
        r = open_reader("0-3");
        put(0, 0, "time", "garbage\n");
        put(1, 0, "time", "1500\n");           /* usage is read where time moved */
        put(1, 0, "usage", "-5\n");
        put(2, 0, "time", "");
        put(3, 0, "time", "1200\n");
        put(3, 0, "usage", "9\n");              /* fell: someone else's, or reset */
        cpuidle_read(&r, &all, NULL);
        for (unsigned cpu = 0; cpu < 4; cpu++)
                ck_assert_msg(!cpuidle_cpu_busy(&r, cpu, 10000, 1, 0, 0, &b), "cpu%u", cpu);
        ck_assert(!cpuidle_has(&r, 0));
        ck_assert(!cpuidle_has(&r, 1));
        ck_assert(!cpuidle_has(&r, 2));
        ck_assert(cpuidle_has(&r, 3));
        ck_assert_float_eq(b, -1.0f);
        /* cpu3 counts from its new values on; without a history (and too
         * few periods since it came online to start one), /proc/stat's
         * share the first time, then the residency */
        put(3, 0, "time", "6000\n");
        put(3, 0, "usage", "10\n");
        cpuidle_read(&r, &all, NULL);
        ck_assert(cpuidle_cpu_busy(&r, 3, 10000, 1, 1, 0, &b));
        ck_assert_float_eq_tol(b, 0.5f, 1e-6f);
        put(3, 0, "time", "13500\n");
        put(3, 0, "usage", "11\n");
        cpuidle_read(&r, &all, NULL);
        ck_assert(cpuidle_cpu_busy(&r, 3, 10000, 1, 0, 0, &b));
        /* between the two intervals' own (0.5, then 0.25): the history weighs */
        ck_assert(b > 0.25f && b < 0.5f);
        cpuidle_close(&r);

        /* no usage files */
        put(5, 0, "time", "1000\n");
        r = open_reader("5");
        ck_assert(cpuidle_has(&r, 5));
        ck_assert(!r.cpu[5].have_usage);
        put(5, 0, "time", "3500\n");
        ck_assert_int_eq(cpumask_parse(&all, "5"), 0);
        cpuidle_read(&r, &all, NULL);
        ck_assert_uint_eq(r.cpu[5].periods, 1);
        ck_assert(cpuidle_cpu_busy(&r, 5, 10000, 1, 0, 0, &b));
        ck_assert_float_eq_tol(b, 0.75f, 1e-6f);
        cpuidle_close(&r);
}
END_TEST

/* cpuidle_read()'s skip set: a CPU in it with a baseline is taken as
 * read and unchanged (its files not read) at most CPUIDLE_SKIP_MAX times
 * in a row; one without a baseline is read. */
START_TEST(test_reader_skips)
{
        struct cpuidle_reader r;
        bl_cpumask all, skip;
        float b = -1;

        for (unsigned cpu = 0; cpu < 2; cpu++) {
                put(cpu, 0, "time", "1000\n");
                put(cpu, 0, "usage", "10\n");
        }
        r = open_reader("0-1");
        ck_assert_int_eq(cpumask_parse(&all, "0-1"), 0);
        ck_assert_int_eq(cpumask_parse(&skip, "0"), 0);
        ck_assert(!cpuidle_quiet(&r, 0));
        /* idle through the interval: the estimate says quiet */
        put(0, 0, "time", "11000\n");
        put(0, 0, "usage", "11\n");
        cpuidle_read(&r, &all, NULL);
        ck_assert(cpuidle_cpu_busy(&r, 0, 10000, 0, 1, 0, &b));
        ck_assert_float_eq(b, 0.0f);
        ck_assert(cpuidle_quiet(&r, 0));
        /* cpu1 was not asked: not quiet */
        ck_assert(!cpuidle_quiet(&r, 1));
        /* the files move, but cpu0 is not read */
        put(0, 0, "time", "511000\n");
        put(0, 0, "usage", "12\n");
        put(1, 0, "time", "3000\n");
        put(1, 0, "usage", "11\n");
        for (unsigned i = 1; i <= CPUIDLE_SKIP_MAX; i++) {
                cpuidle_read(&r, &all, &skip);
                ck_assert_uint_eq(r.cpu[0].skipped, i);
                ck_assert_uint_eq(r.cpu[0].total_us, 11000);
                ck_assert(r.cpu[0].have_idle);
                ck_assert_uint_eq(r.cpu[0].idle_us, 0);
                ck_assert_uint_eq(r.cpu[0].periods, 0);
                ck_assert_uint_eq(r.cpu[1].total_us, 3000);
        }
        /* ... until the forced read */
        cpuidle_read(&r, &all, &skip);
        ck_assert_uint_eq(r.cpu[0].skipped, 0);
        ck_assert_uint_eq(r.cpu[0].total_us, 511000);
        ck_assert_uint_eq(r.cpu[0].idle_us, 500000);
        ck_assert_uint_eq(r.cpu[0].periods, 1);
        /* without a baseline it is read, whatever the skip set says */
        ck_assert(cpuidle_cpu_busy(&r, 0, 10000, 0, 1, 0, &b));
        ck_assert(cpuidle_quiet(&r, 0));
        cpuidle_restart(&r);
        ck_assert(!cpuidle_quiet(&r, 0));
        put(0, 0, "time", "512000\n");
        cpuidle_read(&r, &all, &skip);
        ck_assert_uint_eq(r.cpu[0].total_us, 512000);
        ck_assert(!r.cpu[0].have_idle);
        cpuidle_close(&r);
}
END_TEST

/* The daemon's own share of its CPU comes off the answer the quiet test
 * reads: a CPU busy only with the daemon's ticks is quiet, one busy with
 * more than them is not. */
START_TEST(test_own_share_quiet)
{
        struct cpuidle_reader r;
        bl_cpumask all;
        char text[32];
        float b = -1;

        put(0, 0, "time", "1000\n");
        put(0, 0, "usage", "10\n");
        r = open_reader("0");
        ck_assert_int_eq(cpumask_parse(&all, "0"), 0);
        /* 10 ms intervals, each with one idle period of 9 ms: busy */
        for (unsigned i = 1; i <= 5; i++) {
                snprintf(text, sizeof(text), "%u\n", 1000 + i * 9000);
                put(0, 0, "time", text);
                snprintf(text, sizeof(text), "%u\n", 10 + i);
                put(0, 0, "usage", text);
                cpuidle_read(&r, &all, NULL);
                ck_assert(cpuidle_cpu_busy(&r, 0, 10000, i % 2, 1 - i % 2, 0, &b));
        }
        ck_assert_msg(b > 0.02f, "busy %f", b);
        ck_assert(!cpuidle_quiet(&r, 0));
        ck_assert_msg(b >= CPUIDLE_OWN_QUIET_BUSY, "busy %f", b);
        ck_assert(!cpuidle_quiet_own(&r, 0));
        /* the daemon ran all of it but 1 %: the others' share is not quiet,
         * but below what the daemon's own CPU may show */
        cpuidle_own_share(&r, 0, b - 0.01);
        ck_assert(!cpuidle_quiet(&r, 0));
        ck_assert(cpuidle_quiet_own(&r, 0));
        /* all but a trace: quiet */
        cpuidle_own_share(&r, 0, 0.0099);
        ck_assert(cpuidle_quiet(&r, 0));
        /* more than there was: 0, not below */
        cpuidle_own_share(&r, 0, 0.5);
        ck_assert_float_eq(r.cpu[0].est.last_busy, 0.0f);
        /* without an answer there is nothing to take it off */
        cpuidle_restart(&r);
        cpuidle_own_share(&r, 0, 0.5);
        ck_assert(!cpuidle_quiet(&r, 0));
        ck_assert(!cpuidle_quiet_own(&r, 0));
        cpuidle_close(&r);
}
END_TEST

static Suite *estimate_suite(void)
{
        Suite *s = suite_create("cpuidle_estimate");
        TCase *tc = tcase_create("estimate");

        tcase_add_test(tc, test_aliasing_wakes_11ms_read_20ms);
        tcase_add_test(tc, test_aliasing_wakes_11ms_read_10ms);
        tcase_add_test(tc, test_busy_cpu_reads_busy);
        tcase_add_test(tc, test_load_comes_and_goes);
        tcase_add_test(tc, test_long_idle_periods);
        tcase_add_test(tc, test_load_after_long_idle_shows_at_once);
        tcase_add_test(tc, test_woken_by_a_load_after_long_idle);
        tcase_add_test(tc, test_long_idle_with_short_wakes_stays_idle);
        tcase_add_test(tc, test_skipped_reads_weigh_as_read);
        tcase_add_test(tc, test_woken_read_shows_the_load);
        tcase_add_test(tc, test_woken_rules);
        tcase_add_test(tc, test_rules);
        suite_add_tcase(s, tc);
        tc = tcase_create("reader");
        tcase_add_checked_fixture(tc, files_setup, files_teardown);
        tcase_add_test(tc, test_reader_counts_periods);
        tcase_add_test(tc, test_reader_bad_contents);
        tcase_add_test(tc, test_reader_history_from_boot);
        tcase_add_test(tc, test_reader_skips);
        tcase_add_test(tc, test_own_share_quiet);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(estimate_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
