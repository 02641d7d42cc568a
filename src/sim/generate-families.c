/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The workload families. Each names its parameters with the range they are
 * drawn from (one draw per trace; jitter within a trace comes on top, as
 * commented), then builds its load from jobs. Capacities in the comments are
 * the exynos5422-like board's: a LITTLE CPU at its top OPP does 368
 * reference-µs per ms, a big one 1000. Lane numbers are threads: a lane is
 * one thread, wherever the simulator puts it.
 *
 * At most one draw per expression: C leaves the order in which a call's
 * arguments are evaluated open, and compilers for different machines take
 * different ones, which would give a seed different traces. */
#include "sim/generate-jobs.h"
#include "sim/generate.h"

#define FRAME_60 (1000.0 / 60.0)
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Game loops: per frame the main thread runs near a LITTLE CPU's top for most
 * of the frame, the render thread after it; the compositor wakes once a frame
 * (lane 3), the audio mixer every 10 ms (lane 2); every few seconds a heavy
 * burst (a level load, an explosion) on the main thread and a worker. The
 * worker shares the renderer's lane so that a board with two big CPUs (tc2:
 * lanes 0 and 2 on one, 1 and 3 on the other) can carry the burst. */
#define GAME_PARAMS(fps)                                                                                     \
        {                                                                                                    \
                { "fps", fps, fps, false, NULL, 0, "frames per second" },                                    \
                { "main_load", 0.5, 0.85, false, NULL, 0, "share of a frame the main thread works (+-10 %)" }, \
                { "main_rate", 300, 365, false, NULL, 0, "the main thread's rate per ms" },                  \
                { "render_share", 0.3, 0.6, false, NULL, 0, "render work per frame over the main thread's" }, \
                { "render_rate", 250, 360, false, NULL, 0, "the render thread's rate per ms" },              \
                { "burst_every_s", 1.5, 5, false, NULL, 0, "time between heavy bursts (x 0.5-1.5)" },       \
                { "burst_ms", 30, 150, false, NULL, 0, "length of a heavy burst" },                          \
                { "burst_rate", 700, 1000, false, NULL, 0, "main thread's rate in one (a worker by the renderer: 70 %)" }, \
        }

static void build_game(struct gen *g, const double *p)
{
        const double fps = p[0], load = p[1], main_rate = p[2], render_share = p[3], render_rate = p[4];
        const double burst_every = p[5] * 1000, burst_ms = p[6], burst_rate = p[7];
        const double period = 1000.0 / fps;
        double next_burst = g->t0 + gen_uniform(g, 0.2, 1.0) * burst_every, burst_end = g->t0;

        for (double ms = g->t0 + gen_uniform(g, 0, period); ms < g->t1; ms += period) {
                double work = load * period * main_rate * gen_uniform(g, 0.9, 1.1);
                double end;

                if (ms >= next_burst) {
                        burst_end = ms + burst_ms;
                        gen_run(g, 0, ms, burst_ms, burst_rate);
                        gen_run(g, 1, ms, burst_ms * gen_uniform(g, 0.5, 1.0), 0.7 * burst_rate);
                        next_burst = ms + burst_every * gen_uniform(g, 0.5, 1.5);
                }
                /* In a burst the frame's own work is part of the burst's. */
                end = ms < burst_end ? ms + work / main_rate : gen_burst(g, 0, ms, work, main_rate);
                gen_burst(g, 1, end, render_share * work * gen_uniform(g, 0.9, 1.1), render_rate);
                gen_run(g, 3, ms, 1, gen_uniform(g, 150, 300));
        }
        for (double ms = g->t0 + gen_uniform(g, 0, 10); ms < g->t1; ms += 10)
                gen_burst(g, 2, ms, gen_uniform(g, 150, 300), 300);
}

static const struct sim_gen_param game30_params[] = GAME_PARAMS(30);
static const struct sim_gen_param game60_params[] = GAME_PARAMS(60);
static const struct sim_gen_param game90_params[] = GAME_PARAMS(90);
static const struct sim_gen_param game120_params[] = GAME_PARAMS(120);

#define GAME_FAMILY(fps)                                                                                     \
        static const struct sim_gen_family game##fps = {                                                     \
                "game-" #fps "fps",                                                                          \
                "a " #fps " fps game loop: main thread near LITTLE's top for most of each frame, render "     \
                "thread after it, compositor per frame, audio mixer; a heavy burst every few seconds",       \
                4, 10 * BL_USEC_PER_SEC, game##fps##_params, ARRAY_LEN(game##fps##_params), build_game,     \
        }
GAME_FAMILY(30);
GAME_FAMILY(60);
GAME_FAMILY(90);
GAME_FAMILY(120);

/* Scrolling: flings at 60 fps, the UI thread's and render thread's work per
 * frame decaying as the fling slows, rows to bind, images to decode, input
 * events while the finger is on the glass. */
static const struct sim_gen_param scroll_params[] = {
        { "fling_s", 0.8, 2.5, false, NULL, 0, "length of a fling (x 0.8-1.2)" },
        { "gap_s", 0.2, 1.5, false, NULL, 0, "pause between flings (x 0.7-1.3)" },
        { "ui_work", 1500, 4000, false, NULL, 0, "UI thread's work per frame as a fling starts (+-15 %)" },
        { "ui_rate", 600, 1000, false, NULL, 0, "the UI thread's rate per ms" },
        { "render_work", 1000, 3000, false, NULL, 0, "render thread's work per frame as a fling starts" },
        { "render_rate", 500, 800, false, NULL, 0, "the render thread's rate per ms" },
        { "decay", 0.3, 0.7, false, NULL, 0, "how much of the work per frame is gone by a fling's end" },
        { "bind_chance", 0.05, 0.2, false, NULL, 0, "chance a frame binds a new row (+2000-3500 work)" },
};

static void build_scroll(struct gen *g, const double *p)
{
        const double fling = p[0] * 1000, gap = p[1] * 1000, ui_work = p[2], ui_rate = p[3];
        const double render_work = p[4], render_rate = p[5], decay = p[6], bind = p[7];

        gen_blips(g, 0, 4, 80, 200, 20, 80);
        for (double ms = g->t0 + gen_uniform(g, 100, 400); ms < g->t1; ms += gap * gen_uniform(g, 0.7, 1.3)) {
                const double start = ms, len = fling * gen_uniform(g, 0.8, 1.2);

                for (; ms < start + len && ms < g->t1; ms += FRAME_60) {
                        double speed = 1.0 - decay * (ms - start) / len;
                        double ui = ui_work * speed * gen_uniform(g, 0.85, 1.15);
                        double end;

                        if (gen_chance(g, bind))
                                ui += gen_uniform(g, 2000, 3500);
                        end = gen_burst(g, 0, ms, ui, ui_rate);
                        gen_burst(g, 1, end < ms + 8 ? end : ms + 8, render_work * speed * gen_uniform(g, 0.85, 1.15),
                                  render_rate);
                        if (gen_chance(g, 0.08))
                                gen_run(g, 2, ms + 1, gen_uniform(g, 5, 10), 600);
                        if (ms - start < 250) {
                                gen_run(g, 3, ms, 1, 150);
                                gen_run(g, 3, ms + 8, 1, 150);
                        }
                }
        }
}

static const struct sim_gen_family scrolling = {
        "scrolling", "flings at 60 fps: UI and render threads' work per frame decaying through each fling, "
                     "rows to bind, image decodes, input events",
        4, 10 * BL_USEC_PER_SEC, scroll_params, ARRAY_LEN(scroll_params), build_scroll,
};

/* Video playback: the decoder per frame (key frames twice the work), the
 * renderer after it, audio every 20 ms, the compositor on a 60 Hz vsync.
 * Rates stay within LITTLE's reach; whether LITTLE keeps up is the frame's
 * work. */
static const double video_fps[] = { 24, 25, 30, 50, 60 };
static const struct sim_gen_param video_params[] = {
        { "fps", 24, 60, false, video_fps, ARRAY_LEN(video_fps), "frames per second: 24, 25, 30, 50 or 60" },
        { "decode_work", 1500, 5000, false, NULL, 0, "decoder's work per frame, x 0.8-1.2 (key frames x 2)" },
        { "decode_rate", 250, 360, false, NULL, 0, "the decoder's rate per ms" },
        { "key_every", 30, 120, true, NULL, 0, "frames from one key frame to the next" },
        { "render_work", 600, 1400, false, NULL, 0, "renderer's work per frame, at 300 per ms" },
        { "audio_work", 300, 600, false, NULL, 0, "audio's work every 20 ms, at 250 per ms" },
        { "compose_work", 500, 1300, false, NULL, 0, "compositor's work per vsync, at 320 per ms" },
};

static void build_video(struct gen *g, const double *p)
{
        const double period = 1000.0 / p[0], decode_work = p[1], decode_rate = p[2], render_work = p[4];
        const unsigned key_every = (unsigned)p[3];
        unsigned frame = gen_pick(g, key_every);

        for (double ms = g->t0 + gen_uniform(g, 0, period); ms < g->t1; ms += period, frame++) {
                double work = decode_work * gen_uniform(g, 0.8, 1.2) * (frame % key_every == 0 ? 2 : 1);

                gen_burst(g, 0, ms, work, decode_rate);
                gen_burst(g, 3, ms + 0.6 * period, render_work * gen_uniform(g, 0.85, 1.15), 300);
        }
        for (double ms = g->t0 + gen_uniform(g, 0, 20); ms < g->t1; ms += 20)
                gen_burst(g, 1, ms, p[5] * gen_uniform(g, 0.8, 1.2), 250);
        for (double ms = g->t0 + gen_uniform(g, 0, FRAME_60); ms < g->t1; ms += FRAME_60)
                gen_burst(g, 2, ms, p[6] * gen_uniform(g, 0.85, 1.15), 320);
}

static const struct sim_gen_family video = {
        "video", "video playback: decoder per frame (key frames double), renderer, audio every 20 ms, "
                 "compositor at 60 Hz",
        4, 10 * BL_USEC_PER_SEC, video_params, ARRAY_LEN(video_params), build_video,
};

/* Camera preview: the ISP's and renderer's work per frame, autofocus blips,
 * and every few seconds a still capture: a JPEG encode beyond LITTLE on one
 * thread with a helper beside it. */
static const double camera_fps[] = { 24, 30 };
static const struct sim_gen_param camera_params[] = {
        { "fps", 24, 30, false, camera_fps, ARRAY_LEN(camera_fps), "preview frames per second: 24 or 30" },
        { "isp_work", 1500, 3000, false, NULL, 0, "the camera HAL's work per frame (+-15 %)" },
        { "isp_rate", 400, 550, false, NULL, 0, "its rate per ms" },
        { "render_work", 800, 1500, false, NULL, 0, "renderer's work per frame, at 400 per ms" },
        { "capture_every_s", 1.5, 5, false, NULL, 0, "time between still captures (x 0.6-1.4)" },
        { "capture_ms", 100, 300, false, NULL, 0, "length of a capture's encode (x 0.8-1.2)" },
        { "encode_rate", 900, 1024, false, NULL, 0, "the encoder's rate per ms" },
        { "helper_rate", 600, 900, false, NULL, 0, "the helper's rate per ms beside it" },
};

static void build_camera(struct gen *g, const double *p)
{
        const double period = 1000.0 / p[0], isp_work = p[1], isp_rate = p[2], render_work = p[3];
        const double every = p[4] * 1000, capture_ms = p[5], encode_rate = p[6], helper_rate = p[7];

        for (double ms = g->t0 + gen_uniform(g, 0, period); ms < g->t1; ms += period) {
                double end = gen_burst(g, 0, ms, isp_work * gen_uniform(g, 0.85, 1.15), isp_rate);

                gen_burst(g, 1, end, render_work * gen_uniform(g, 0.85, 1.15), 400);
        }
        gen_blips(g, 2, 1, 100, 300, 300, 600);
        for (double ms = g->t0 + every * gen_uniform(g, 0.3, 1.0); ms < g->t1; ms += every * gen_uniform(g, 0.6, 1.4)) {
                double len = capture_ms * gen_uniform(g, 0.8, 1.2);

                gen_run(g, 3, ms, len, encode_rate * gen_uniform(g, 0.95, 1.0));
                gen_run(g, 2, ms + 5, len * gen_uniform(g, 0.6, 1.0), helper_rate);
        }
}

static const struct sim_gen_family camera = {
        "camera", "camera preview at 24 or 30 fps with autofocus blips; every few seconds a still capture "
                  "(JPEG encode at 900-1024 per ms and a helper beside it)",
        4, 10 * BL_USEC_PER_SEC, camera_params, ARRAY_LEN(camera_params), build_camera,
};

/* App launch: a touch, then the main thread loading flat out with binder,
 * render and JIT/GC threads beside it, first frames settling, then idle
 * until the next launch. */
static const struct sim_gen_param launch_params[] = {
        { "first_s", 0.2, 2, false, NULL, 0, "idle before the first launch" },
        { "load_s", 0.6, 2, false, NULL, 0, "main thread's loading (x 0.8-1.2)" },
        { "main_rate", 850, 1024, false, NULL, 0, "its rate per ms, x 0.9-1" },
        { "settle_s", 0.5, 1.5, false, NULL, 0, "first frames settling" },
        { "frame_work", 2000, 5000, false, NULL, 0, "UI work of the first frame, decaying to a fifth" },
        { "between_s", 2, 6, false, NULL, 0, "idle after one launch before the next (x 0.7-1.3)" },
};

static void build_launch(struct gen *g, const double *p)
{
        const double load = p[1] * 1000, main_rate = p[2], settle = p[3] * 1000, frame_work = p[4];

        gen_blips(g, 0, 4, 60, 200, 20, 80);
        for (double ms = g->t0 + p[0] * 1000; ms < g->t1; ms += p[5] * 1000 * gen_uniform(g, 0.7, 1.3)) {
                const double start = ms + 20, end = start + load * gen_uniform(g, 0.8, 1.2);

                gen_run(g, 0, ms, 20, 300);
                for (double t = start; t < end;) {
                        double dur = gen_uniform(g, 40, 160);

                        gen_run(g, 0, t, dur, main_rate * gen_uniform(g, 0.9, 1.0));
                        t += dur + gen_uniform(g, 1, 6);
                }
                for (double t = start + 0.25 * (end - start); t < end; t += FRAME_60) {
                        double dur = gen_uniform(g, 4, 8);

                        gen_run(g, 1, t, dur, gen_uniform(g, 400, 600));
                }
                for (double t = start + 30; t < end;) {
                        double dur = gen_uniform(g, 20, 80);

                        gen_run(g, 2, t, dur, gen_uniform(g, 200, 700));
                        t += dur + gen_uniform(g, 30, 120);
                }
                for (unsigned k = 0, n = 2 + gen_pick(g, 3); k < n; k++) {
                        double at = gen_uniform(g, start, end);

                        gen_run(g, 3, at, gen_uniform(g, 50, 150), 800);
                }
                for (double t = end; t < end + settle; t += FRAME_60) {
                        double left = 1.0 - 0.8 * (t - end) / settle;

                        gen_burst(g, 0, t, frame_work * left, 800);
                        gen_burst(g, 1, t + 4, 0.7 * frame_work * left, 600);
                }
                ms = end + settle;
        }
}

static const struct sim_gen_family app_launch = {
        "app-launch", "app launches: main thread loading at 850-1024 per ms with binder, render and JIT/GC "
                      "threads, first frames settling, idle until the next",
        4, 10 * BL_USEC_PER_SEC, launch_params, ARRAY_LEN(launch_params), build_launch,
};

/* Page loads: script, layout and network together, then reading with short
 * scrolls at 60 fps. */
static const struct sim_gen_param page_params[] = {
        { "load_s", 0.4, 1.5, false, NULL, 0, "length of a load (x 0.8-1.2)" },
        { "script_rate", 800, 1024, false, NULL, 0, "the script thread's rate per ms" },
        { "layout_rate", 500, 700, false, NULL, 0, "layout's rate per ms" },
        { "net_rate", 150, 300, false, NULL, 0, "network thread's rate per ms" },
        { "read_s", 1.5, 4, false, NULL, 0, "reading after a load (x 0.7-1.3)" },
        { "scroll_work", 1200, 2500, false, NULL, 0, "main thread's work per frame of a scroll" },
        { "scroll_rate", 700, 1000, false, NULL, 0, "its rate per ms" },
};

static void build_page(struct gen *g, const double *p)
{
        const double load = p[0] * 1000, script_rate = p[1], layout_rate = p[2], net_rate = p[3];
        const double read = p[4] * 1000, scroll_work = p[5], scroll_rate = p[6];

        gen_blips(g, 0, 4, 80, 250, 20, 80);
        for (double ms = g->t0 + gen_uniform(g, 100, 500); ms < g->t1;) {
                const double end = ms + load * gen_uniform(g, 0.8, 1.2);
                const double read_end = end + read * gen_uniform(g, 0.7, 1.3);

                gen_run(g, 2, ms, end - ms, net_rate * gen_uniform(g, 0.8, 1.2));
                for (double t = ms + gen_uniform(g, 10, 60); t < end;) {
                        double dur = gen_uniform(g, 20, 120);

                        gen_run(g, 0, t, dur, script_rate * gen_uniform(g, 0.9, 1.0));
                        t += dur + gen_uniform(g, 5, 40);
                }
                for (double t = ms + gen_uniform(g, 50, 150); t < end; t += gen_uniform(g, 50, 150))
                        gen_run(g, 1, t, gen_uniform(g, 10, 40), layout_rate);
                for (double t = end + gen_uniform(g, 400, 1200); t < read_end && t < g->t1;
                     t += gen_uniform(g, 400, 1200)) {
                        const double stop = t + gen_uniform(g, 200, 600);

                        for (; t < stop; t += FRAME_60) {
                                gen_burst(g, 0, t, scroll_work * gen_uniform(g, 0.8, 1.2), scroll_rate);
                                gen_burst(g, 3, t + 2, gen_uniform(g, 800, 1200), 500);
                        }
                }
                ms = read_end;
        }
}

static const struct sim_gen_family page_load = {
        "page-load", "web page loads (script at 800-1024 per ms, layout, network), each followed by reading "
                     "with short 60 fps scrolls",
        4, 15 * BL_USEC_PER_SEC, page_params, ARRAY_LEN(page_params), build_page,
};

/* Typing: each keystroke wakes the UI thread flat out for a few ms and the
 * renderer after it; every few keys a word prediction; pauses now and then. */
static const struct sim_gen_param typing_params[] = {
        { "key_lo_ms", 80, 150, false, NULL, 0, "shortest time between keys" },
        { "key_hi_ms", 180, 350, false, NULL, 0, "longest time between keys" },
        { "pause_chance", 0.03, 0.15, false, NULL, 0, "chance of a 1-2 s pause after a key" },
        { "ui_ms", 4, 12, false, NULL, 0, "the UI thread's longest time per key (a third at least)" },
        { "ui_rate", 800, 1000, false, NULL, 0, "its rate per ms" },
        { "predict_every", 3, 6, true, NULL, 0, "keys per word prediction" },
        { "predict_ms", 15, 40, false, NULL, 0, "length of a prediction (x 0.7-1.3)" },
        { "predict_rate", 350, 500, false, NULL, 0, "its rate per ms" },
};

static void build_typing(struct gen *g, const double *p)
{
        const double key_lo = p[0], key_hi = p[1], pause = p[2], ui_ms = p[3], ui_rate = p[4];
        const unsigned predict_every = (unsigned)p[5];
        unsigned key = 0;

        gen_blips(g, 0, 3, 100, 300, 20, 60);
        for (double ms = g->t0 + gen_uniform(g, 50, 300); ms < g->t1; key++) {
                double ui = gen_uniform(g, ui_ms / 3, ui_ms);

                gen_run(g, 0, ms, ui, ui_rate);
                gen_run(g, 1, ms + ui, gen_uniform(g, 3, 5), 600);
                if (key % predict_every == predict_every - 1)
                        gen_run(g, 2, ms + 2, p[6] * gen_uniform(g, 0.7, 1.3), p[7]);
                ms += gen_chance(g, pause) ? gen_uniform(g, 1000, 2000) : gen_uniform(g, key_lo, key_hi);
        }
}

static const struct sim_gen_family typing = {
        "typing", "typing: per key the UI thread at 800-1000 per ms for a few ms and the renderer after it, "
                  "word predictions every few keys, pauses",
        3, 12 * BL_USEC_PER_SEC, typing_params, ARRAY_LEN(typing_params), build_typing,
};

/* Background sync: alarms, and every few seconds a sync of network and
 * database work with bursts of parsing. */
static const struct sim_gen_param sync_params[] = {
        { "alarm_ms", 50, 200, false, NULL, 0, "time between alarms (x 0.8-1.2), 20-120 work each" },
        { "sync_every_s", 2, 6, false, NULL, 0, "time between syncs (x 0.7-1.3)" },
        { "sync_s", 0.2, 0.8, false, NULL, 0, "length of a sync (x 0.7-1.3)" },
        { "net_rate", 150, 350, false, NULL, 0, "network thread's rate per ms (x 0.8-1.2)" },
        { "parse_rate", 600, 900, false, NULL, 0, "rate of a parsing burst per ms" },
};

static void build_sync(struct gen *g, const double *p)
{
        const double alarm = p[0], every = p[1] * 1000, sync = p[2] * 1000, net_rate = p[3], parse_rate = p[4];

        gen_blips(g, 0, 3, 0.8 * alarm, 1.2 * alarm, 20, 120);
        for (double ms = g->t0 + every * gen_uniform(g, 0.2, 1.0); ms < g->t1; ms += every * gen_uniform(g, 0.7, 1.3)) {
                const double len = sync * gen_uniform(g, 0.7, 1.3);

                gen_run(g, 0, ms, len, net_rate * gen_uniform(g, 0.8, 1.2));
                for (double t = ms + gen_uniform(g, 5, 30); t < ms + len; t += gen_uniform(g, 20, 80)) {
                        double dur = gen_uniform(g, 10, 50);

                        gen_run(g, 1, t, dur, gen_uniform(g, 200, 400));
                }
                for (unsigned k = 0, n = 2 + gen_pick(g, 4); k < n; k++) {
                        double at = ms + gen_uniform(g, 0, len);

                        gen_run(g, 2, at, gen_uniform(g, 10, 40), parse_rate);
                }
        }
}

static const struct sim_gen_family background_sync = {
        "background-sync", "screen-off background sync: alarms, and every few seconds network and database "
                           "work with parsing bursts at 600-900 per ms",
        3, 15 * BL_USEC_PER_SEC, sync_params, ARRAY_LEN(sync_params), build_sync,
};

/* Audio playback with the screen off: a mixer tick and a decoder refill,
 * LITTLE at low OPPs. */
static const struct sim_gen_param audio_params[] = {
        { "mixer_ms", 4, 20, false, NULL, 0, "mixer period" },
        { "mixer_work", 150, 400, false, NULL, 0, "mixer's work per tick (+-10 %), at 300 per ms" },
        { "decode_ms", 40, 100, false, NULL, 0, "decoder refill period" },
        { "decode_work", 600, 1500, false, NULL, 0, "decoder's work per refill (+-15 %), at 300 per ms" },
};

static void build_audio(struct gen *g, const double *p)
{
        for (double ms = g->t0 + gen_uniform(g, 0, p[0]); ms < g->t1; ms += p[0])
                gen_burst(g, 0, ms, p[1] * gen_uniform(g, 0.9, 1.1), 300);
        for (double ms = g->t0 + gen_uniform(g, 0, p[2]); ms < g->t1; ms += p[2])
                gen_burst(g, 1, ms, p[3] * gen_uniform(g, 0.85, 1.15), 300);
}

static const struct sim_gen_family audio = {
        "audio", "screen-off audio: a mixer tick every 4-20 ms and a decoder refill every 40-100 ms, both "
                 "within LITTLE",
        2, 10 * BL_USEC_PER_SEC, audio_params, ARRAY_LEN(audio_params), build_audio,
};

/* Sensor batches: a fusion batch every period (with jitter) on one thread
 * beyond LITTLE, a helper beside it for half of it, timer blips. */
static const struct sim_gen_param sensor_params[] = {
        { "period_ms", 50, 250, false, NULL, 0, "time between batches" },
        { "jitter_ms", 1, 10, false, NULL, 0, "each batch early or late by up to this" },
        { "batch_ms", 10, 40, false, NULL, 0, "length of a batch (x 0.8-1.2, at most 40 % of the period)" },
        { "batch_rate", 500, 900, false, NULL, 0, "the fusion thread's rate per ms" },
        { "helper_rate", 300, 500, false, NULL, 0, "the helper's rate per ms" },
        { "blip_ms", 20, 100, false, NULL, 0, "time between timer blips (x 0.5-1.5)" },
};

static void build_sensor(struct gen *g, const double *p)
{
        const double period = p[0], jitter = p[1], batch_rate = p[3], helper_rate = p[4];
        /* Batches never touch: a fusion run ends before the next begins. */
        const double batch = p[2] < 0.4 * period ? p[2] : 0.4 * period;

        gen_blips(g, 2, 1, 0.5 * p[5], 1.5 * p[5], 20, 100);
        for (double ms = g->t0 + gen_uniform(g, 0, period); ms < g->t1; ms += period) {
                double at = ms + gen_uniform(g, -jitter, jitter), len = batch * gen_uniform(g, 0.8, 1.2);

                gen_run(g, 0, at, len, batch_rate * gen_uniform(g, 0.9, 1.1));
                gen_run(g, 1, at + 1, len / 2, helper_rate);
        }
}

static const struct sim_gen_family sensor_batch = {
        "sensor-batch", "sensor fusion batches every 50-250 ms with jitter, 500-900 per ms on one thread and a "
                        "helper beside it, timer blips",
        3, 10 * BL_USEC_PER_SEC, sensor_params, ARRAY_LEN(sensor_params), build_sensor,
};

/* ML inference bursts: several threads at once, periodically, idle between. */
static const struct sim_gen_param ml_params[] = {
        { "period_ms", 100, 500, false, NULL, 0, "time between inferences" },
        { "jitter_ms", 2, 20, false, NULL, 0, "each early or late by up to this" },
        { "threads", 2, 4, true, NULL, 0, "threads of an inference" },
        { "burst_ms", 20, 80, false, NULL, 0, "length of an inference (x 0.8-1.2, at most 40 % of the period)" },
        { "rate", 400, 900, false, NULL, 0, "each thread's rate per ms (x 0.9-1.1)" },
};

static void build_ml(struct gen *g, const double *p)
{
        const double period = p[0], jitter = p[1], rate = p[4];
        const double burst = p[3] < 0.4 * period ? p[3] : 0.4 * period;
        const unsigned threads = (unsigned)p[2];

        gen_blips(g, 0, 4, 100, 300, 20, 60);
        for (double ms = g->t0 + gen_uniform(g, 0, period); ms < g->t1; ms += period) {
                double at = ms + gen_uniform(g, -jitter, jitter), len = burst * gen_uniform(g, 0.8, 1.2);

                for (unsigned k = 0; k < threads; k++) {
                        double dur = len * gen_uniform(g, 0.9, 1.0);

                        gen_run(g, k, at, dur, rate * gen_uniform(g, 0.9, 1.1));
                }
        }
}

static const struct sim_gen_family ml_burst = {
        "ml-burst", "ML inference every 100-500 ms on 2-4 threads at once at 400-900 per ms, idle between",
        4, 10 * BL_USEC_PER_SEC, ml_params, ARRAY_LEN(ml_params), build_ml,
};

/* A compile: idle, parallel jobs flat out with gaps for fork and exec, a
 * single-threaded link, idle. No more jobs than a cluster has CPUs: a job's
 * work is what it gets done, and more jobs than CPUs would ask for more than
 * any cluster does, late on every board whatever the policy. */
static const struct sim_gen_param compile_params[] = {
        { "lead_s", 0.3, 1.5, false, NULL, 0, "idle before the build" },
        { "jobs", 2, 4, true, NULL, 0, "parallel jobs (make -jN, one per CPU of a 4-CPU cluster)" },
        { "build_s", 4, 8, false, NULL, 0, "length of the parallel part" },
        { "job_lo_s", 0.1, 0.5, false, NULL, 0, "shortest job" },
        { "job_hi_s", 0.6, 1.5, false, NULL, 0, "longest job" },
        { "job_rate", 900, 1024, false, NULL, 0, "a job's rate per ms (x 0.95-1)" },
        { "link_s", 0.5, 2, false, NULL, 0, "the single-threaded link after it" },
};

static void build_compile(struct gen *g, const double *p)
{
        const double start = g->t0 + p[0] * 1000, end = start + p[2] * 1000, rate = p[5];
        const unsigned jobs = (unsigned)p[1];

        gen_blips(g, 0, 4, 40, 150, 20, 80);
        for (unsigned k = 0; k < jobs; k++)
                for (double t = start + gen_uniform(g, 0, 30); t < end && t < g->t1;) {
                        double dur = gen_uniform(g, p[3], p[4]) * 1000;

                        if (t + dur > end)
                                dur = end - t;
                        gen_run(g, k, t, dur, rate * gen_uniform(g, 0.95, 1.0));
                        t += dur + gen_uniform(g, 5, 30);
                }
        gen_run(g, 0, end + gen_uniform(g, 20, 80), p[6] * 1000, rate);
}

static const struct sim_gen_family compile = {
        "compile", "a build: idle, 2-4 parallel jobs at 900-1024 per ms for 4-8 s, a single-threaded link, idle",
        4, 12 * BL_USEC_PER_SEC, compile_params, ARRAY_LEN(compile_params), build_compile,
};

/* Parallel: many threads wandering around one level, all the time. */
static const struct sim_gen_param parallel_params[] = {
        { "threads", 4, 8, true, NULL, 0, "busy threads" },
        { "level", 150, 400, false, NULL, 0, "each thread's mean rate per ms (x 0.9-1.1 per thread)" },
        { "span", 10, 40, false, NULL, 0, "how far a thread wanders from it" },
        { "wander", 2, 8, false, NULL, 0, "how far per ms" },
};

static void build_parallel(struct gen *g, const double *p)
{
        for (unsigned k = 0; k < (unsigned)p[0]; k++)
                gen_walk(g, k, p[1] * gen_uniform(g, 0.9, 1.1), p[2], p[3]);
}

static const struct sim_gen_family parallel = {
        "parallel", "4-8 threads at 150-400 per ms each, all the time (8 lanes: two per CPU of a 4-CPU cluster, "
                    "within big's reach)",
        8, 10 * BL_USEC_PER_SEC, parallel_params, ARRAY_LEN(parallel_params), build_parallel,
};

/* Sustained: one to three threads at a steady level, which LITTLE carries or
 * just does not, and housekeeping. */
static const struct sim_gen_param sustained_params[] = {
        { "threads", 1, 3, true, NULL, 0, "busy threads" },
        { "level", 250, 450, false, NULL, 0, "their mean rate per ms (LITTLE's top is 368)" },
        { "span", 5, 30, false, NULL, 0, "how far a thread wanders from it" },
        { "wander", 1, 6, false, NULL, 0, "how far per ms" },
};

static void build_sustained(struct gen *g, const double *p)
{
        for (unsigned k = 0; k < (unsigned)p[0]; k++)
                gen_walk(g, k, p[1], p[2], p[3]);
        gen_blips(g, 3, 1, 20, 60, 5, 25);
}

static const struct sim_gen_family sustained = {
        "sustained", "1-3 threads at a steady 250-450 per ms, around LITTLE's top, and housekeeping",
        4, 10 * BL_USEC_PER_SEC, sustained_params, ARRAY_LEN(sustained_params), build_sustained,
};

/* Idle: a phone in the pocket, timer blips and now and then a short burst
 * with a helper. */
static const struct sim_gen_param idle_params[] = {
        { "blip_ms", 20, 200, false, NULL, 0, "time between timer blips (x 0.5-1.5)" },
        { "blip_work", 10, 150, false, NULL, 0, "a blip's work (x 0.5-1.5)" },
        { "burst_every_s", 0.5, 3, false, NULL, 0, "time between bursts (x 0.5-1.5)" },
        { "burst_ms", 10, 60, false, NULL, 0, "length of a burst (x 0.7-1.3)" },
        { "burst_rate", 400, 900, false, NULL, 0, "its rate per ms (a helper beside it: a third)" },
};

static void build_idle(struct gen *g, const double *p)
{
        const double every = p[2] * 1000;

        gen_blips(g, 0, 4, 0.5 * p[0], 1.5 * p[0], 0.5 * p[1], 1.5 * p[1]);
        for (double ms = g->t0 + every * gen_uniform(g, 0.2, 1.0); ms < g->t1; ms += every * gen_uniform(g, 0.5, 1.5)) {
                unsigned lane = gen_pick(g, 4);
                double len = p[3] * gen_uniform(g, 0.7, 1.3);

                gen_run(g, lane, ms, len, p[4]);
                gen_run(g, (lane + 1) % 4, ms + 2, len / 2, p[4] / 3);
        }
}

static const struct sim_gen_family idle = {
        "idle", "a phone in the pocket: timer blips every 20-200 ms, a 10-60 ms burst at 400-900 per ms every "
                "0.5-3 s",
        4, 10 * BL_USEC_PER_SEC, idle_params, ARRAY_LEN(idle_params), build_idle,
};

/* Mixed phases: one family after another, each with parameters of its own
 * (drawn as the family draws them, not listed among the trace's). */
static const struct sim_gen_family *const mixed_phases[] = {
        &idle, &audio, &sustained, &game60, &scrolling, &typing, &page_load, &video, &camera, &sensor_batch,
        &ml_burst, &app_launch, &background_sync,
};

static const struct sim_gen_param mixed_params[] = {
        { "phase_lo_s", 1.5, 3, false, NULL, 0, "shortest phase" },
        { "phase_hi_s", 3, 6, false, NULL, 0, "longest phase" },
};

static void build_mixed(struct gen *g, const double *p)
{
        const double end = g->t1;

        for (double ms = g->t0; ms < end;) {
                const struct sim_gen_family *f = mixed_phases[gen_pick(g, ARRAY_LEN(mixed_phases))];
                double q[SIM_GEN_MAX_PARAMS];

                g->t0 = ms;
                g->t1 = ms + gen_uniform(g, p[0], p[1]) * 1000;
                if (g->t1 > end)
                        g->t1 = end;
                sim_gen_draw_params(g, f, q);
                f->build(g, q);
                ms = g->t1;
        }
        g->t1 = end;
}

static const struct sim_gen_family mixed = {
        "mixed", "phases of 1.5-6 s, each of another family (idle, audio, sustained, game-60fps, scrolling, "
                 "typing, page-load, video, camera, sensor-batch, ml-burst, app-launch, background-sync)",
        4, 20 * BL_USEC_PER_SEC, mixed_params, ARRAY_LEN(mixed_params), build_mixed,
};

const struct sim_gen_family *const sim_gen_families[] = {
        &game30, &game60, &game90, &game120, &scrolling, &video, &camera, &app_launch, &page_load, &typing,
        &background_sync, &audio, &sensor_batch, &ml_burst, &compile, &parallel, &sustained, &idle, &mixed,
        NULL,
};
