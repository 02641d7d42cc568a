/* SPDX-License-Identifier: GPL-2.0-or-later */
/* No heap growth over 10^6 ticks: the core as the daemon drives it (the
 * shipped heuristics through the controller, the engine, idle back-off, the
 * switch history) on an 8-CPU big.LITTLE topology, under a synthetic load
 * that switches levels every 400 ms of simulated time. The heap in use
 * (mallinfo2's uordblks, plus what malloc mapped; ASan's count under the
 * sanitizers) after a warm-up must be what it is at the end. A second test
 * leaks on purpose and must be caught, so that the measure itself is shown
 * to work. */
#include <check.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/controller.h"
#include "core/history.h"
#include "policy/builtin.h"

#define TICKS 1000000UL
#define WARM_UP 10000UL
#define PHASE_USEC (400 * BL_USEC_PER_MSEC)
/* Allowed growth: none of the core's own, and slack for nothing else. */
#define HEAP_SLACK 0

struct rig {
        struct bl_topology topo;
        struct bl_ladder ladder;
        struct bl_config cfg;
        struct bl_controller ctl;
        struct bl_sample_buf sample;
        struct bl_history history;
        struct bl_decision decision;
        unsigned long switches;
};

#ifdef __SANITIZE_ADDRESS__
/* libasan's, declared in sanitizer/allocator_interface.h, which gcc 12 does
 * not install. */
size_t __sanitizer_get_current_allocated_bytes(void);
#endif

/* ASan's allocator replaces malloc's, and mallinfo2() then reads 0. */
static size_t heap_in_use(void)
{
#ifdef __SANITIZE_ADDRESS__
        return __sanitizer_get_current_allocated_bytes();
#else
        struct mallinfo2 mi = mallinfo2();

        return mi.uordblks + mi.hblkhd;
#endif
}

static void rig_init(struct rig *r)
{
        struct bl_cpu_info cpus[8];
        struct bl_diag diag;

        for (unsigned cpu = 0; cpu < 8; cpu++)
                cpus[cpu] = (struct bl_cpu_info){
                        .present = true, .online = true, .can_offline = cpu > 0,
                        .capacity = cpu < 4 ? 377 : 1024, .max_freq_khz = cpu < 4 ? 1400000 : 2000000,
                        .policy = cpu < 4 ? 0 : 4, .policy_size = 4, .cluster_id = cpu < 4 ? 1 : 0,
                };
        ck_assert_int_eq(topology_build(&r->topo, cpus, 8), 0);
        ck_assert_int_eq(ladder_build(&r->ladder, &r->topo, BL_MODE_CLUSTER, NULL), 0);
        diag_init(&diag);
        config_init(&r->cfg, policy_builtin);
        ck_assert_uint_eq(config_validate(&r->cfg, &diag), 0);
        ck_assert_int_eq(controller_init(&r->ctl, &r->ladder, &r->cfg, 0, 0), 0);
        sample_buf_init(&r->sample, 8);
        history_init(&r->history);
        r->switches = 0;
}

/* One tick as the daemon's: a sample of the CPUs the level runs on (busy all
 * the time in the loaded phases, 2% in the quiet ones), a decision, the
 * switch recorded; returns the time to the next tick. */
static bl_usec_t rig_tick(struct rig *r, bl_usec_t now, bl_usec_t interval)
{
        const bool loaded = (now / PHASE_USEC) % 2 == 1;
        bl_cpumask online;
        char from[BL_STATE_NAME_MAX], to[BL_STATE_NAME_MAX];

        controller_cpus(&r->ctl, NULL, &online);
        sample_set_online(&r->sample, &online);
        r->sample.s.now = now;
        r->sample.s.interval = interval;
        for (unsigned cpu = 0; cpu < 8; cpu++) {
                struct bl_cpu_sample *c = &r->sample.cpu[cpu];

                c->capacity = c->online ? (cpu < 4 ? 377 : 1024) : 0;
                c->max_capacity = c->capacity;
                c->busy = c->online ? (loaded && cpu % 4 < 2 ? 1.0f : 0.02f) : 0.0f;
        }
        if (controller_decide(&r->ctl, &r->sample.s, now, &r->decision)) {
                controller_state_name(&r->ctl, from, sizeof(from));
                controller_switched(&r->ctl, &r->decision, now);
                controller_state_name(&r->ctl, to, sizeof(to));
                history_add(&r->history, now, now, from, to, r->decision.reason);
                r->switches++;
        }
        return controller_next_interval(&r->ctl, &r->sample.s);
}

/* Runs 'ticks' ticks; every 'leak_every' ticks (0: never) leaks a small
 * block into 'leaks'. Returns the heap's growth from the warm-up to the end. */
static long heap_growth(struct rig *r, unsigned long ticks, unsigned long leak_every, void **leaks,
                        size_t nleaks)
{
        size_t after;
        bl_usec_t now = 0, interval = (bl_usec_t)r->cfg.sample_interval_ms * BL_USEC_PER_MSEC;
        size_t before = 0, leaked = 0;

        for (unsigned long t = 0; t < ticks; t++) {
                if (t == WARM_UP)
                        before = heap_in_use();
                now += interval;
                interval = rig_tick(r, now, interval);
                if (leak_every && t >= WARM_UP && t % leak_every == 0 && leaked < nleaks)
                        leaks[leaked++] = malloc(32);
        }
        after = heap_in_use();
        /* For tests/bench/RESULTS.md. */
        fprintf(stderr, "heap: %zu bytes in use after %lu ticks, %zu after %lu (%lu switches)\n", before,
                (unsigned long)WARM_UP, after, ticks, r->switches);
        return (long)after - (long)before;
}

START_TEST(test_heap_flat_over_a_million_ticks)
{
        static struct rig r;
        long growth;

        rig_init(&r);
        growth = heap_growth(&r, TICKS, 0, NULL, 0);
        /* The load switched all along, and the history ring wrapped. */
        ck_assert_uint_gt(r.switches, 1000);
        ck_assert_uint_eq(history_count(&r.history), BL_HISTORY_MAX);
        ck_assert_msg(growth <= HEAP_SLACK && growth >= -HEAP_SLACK, "the heap grew by %ld bytes", growth);
        controller_done(&r.ctl);
}
END_TEST

/* The same measure sees 32 bytes leaked every 10^4 ticks. */
START_TEST(test_heap_measure_sees_a_leak)
{
        static struct rig r;
        void *leaks[128] = { NULL };
        long growth;

        rig_init(&r);
        growth = heap_growth(&r, 200000, 10000, leaks, 128);
        ck_assert_int_ge(growth, 19 * 32);
        for (unsigned i = 0; i < 128; i++)
                free(leaks[i]);
        controller_done(&r.ctl);
}
END_TEST

static Suite *heap_suite(void)
{
        Suite *s = suite_create("heap");
        TCase *tc = tcase_create("growth");

        tcase_add_test(tc, test_heap_flat_over_a_million_ticks);
        tcase_add_test(tc, test_heap_measure_sees_a_leak);
        /* 10^6 ticks under the sanitizers take a while. */
        tcase_set_timeout(tc, 300);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(heap_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
