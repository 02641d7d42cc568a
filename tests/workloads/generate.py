#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes the trace suite of tests/workloads/ (bigLittle-trace v1, 1 ms steps).

Every trace is built from jobs: work (reference-us) that arrives on a lane
at some rate for some time, the way threads of a real use case wake up. Each
trace has its own seeded generator and uses only random.Random.random(), so
the output is the same bytes on every Python 3:
    tests/workloads/generate.py [DIR]      (default: the script's directory)
The held-out traces (HELD_OUT) go to DIR/holdout/.
Work per step is rounded to whole reference-us and capped at one step. Capacities in the comments
are the exynos5422-like board's: a LITTLE CPU at its top OPP executes 368
reference-us per 1 ms step (377/1024), a big one 1000.
"""
import os
import random
import sys

STEP_US = 1000


class Trace:
    def __init__(self, name, seconds, lanes, seed):
        self.name = name
        self.steps = int(seconds * 1000)
        self.lanes = lanes
        self.rng = random.Random(seed)
        self.work = [[0.0] * lanes for _ in range(self.steps)]

    def uniform(self, lo, hi):
        return lo + (hi - lo) * self.rng.random()

    def chance(self, p):
        return self.rng.random() < p

    def pick(self, n):
        return min(int(self.rng.random() * n), n - 1)

    def run(self, lane, start_ms, dur_ms, rate):
        """'rate' reference-us per ms on 'lane' for whole steps."""
        start = int(round(start_ms))
        for s in range(max(start, 0), min(start + int(round(dur_ms)), self.steps)):
            self.work[s][lane] += rate

    def burst(self, lane, start_ms, work, rate):
        """'work' reference-us arriving at 'rate' per ms from 'start_ms'."""
        s = int(round(start_ms))
        while work > 0 and s < self.steps:
            w = min(rate, work)
            if s >= 0:
                self.work[s][lane] += w
            work -= w
            s += 1

    def write(self, directory):
        path = os.path.join(directory, self.name + ".csv")
        with open(path, "w", newline="\n") as f:
            f.write("# bigLittle-trace v1 step_us=%d\n" % STEP_US)
            f.write("t_us," + ",".join("lane%d" % i for i in range(self.lanes)) + "\n")
            for s, row in enumerate(self.work):
                # One lane is one thread: it cannot ask for more than a whole
                # reference CPU, whatever overlapped in the generator.
                f.write("%d,%s\n" % (s * STEP_US, ",".join("%d" % round(min(w, STEP_US)) for w in row)))


def housekeeping(t, lanes, every_lo, every_hi, work_lo, work_hi):
    """Timer and kernel-thread blips: one short piece of work every so often."""
    ms = t.uniform(every_lo, every_hi)
    while ms < t.steps:
        t.burst(lanes[t.pick(len(lanes))], ms, t.uniform(work_lo, work_hi), 1000)
        ms += t.uniform(every_lo, every_hi)


def idle_bursts():
    t = Trace("idle-bursts", 10, 4, 101)
    housekeeping(t, range(4), 40, 160, 20, 120)
    ms = t.uniform(300, 900)
    while ms < t.steps - 100:
        lane = t.pick(4)
        dur = t.uniform(15, 60)
        t.run(lane, ms, dur, t.uniform(500, 900))
        t.run((lane + 1) % 4, ms + 2, dur / 2, t.uniform(100, 300))
        ms += t.uniform(600, 1800)
    return t


def app_launch():
    t = Trace("app-launch", 6, 4, 202)
    housekeeping(t, range(4), 60, 200, 20, 80)
    t.run(0, 300, 20, 300)                      # the touch
    ms = 320
    while ms < 1500:                            # main thread: load, inflate
        dur = t.uniform(40, 160)
        t.run(0, ms, dur, t.uniform(900, 1024))
        ms += dur + t.uniform(1, 6)
    ms = 600
    while ms < 1500:                            # render thread warming up
        t.run(1, ms, t.uniform(4, 8), t.uniform(400, 600))
        ms += 16.667
    ms = 350
    while ms < 1400:                            # binder and storage
        dur = t.uniform(20, 80)
        t.run(2, ms, dur, t.uniform(200, 700))
        ms += dur + t.uniform(30, 120)
    for start in (450, 900, 1250):              # JIT and GC
        t.run(3, start + t.uniform(0, 50), t.uniform(50, 150), 800)
    frame = 0
    ms = 1500
    while ms < 2500:                            # first frames, settling
        decay = 1.0 - frame / 70.0
        t.burst(0, ms, 4000 * decay + 800, 800)
        t.burst(1, ms + 4, 3000 * decay + 600, 600)
        ms += 16.667
        frame += 1
    return t


def scrolling():
    t = Trace("scrolling-60fps", 8, 4, 303)
    housekeeping(t, range(4), 80, 200, 20, 80)
    ms = 300
    while ms < t.steps - 1500:
        fling = t.uniform(1500, 2000)
        frame = 0
        end = ms + fling
        while ms < end:
            speed = 1.0 - 0.6 * (frame * 16.667 / fling)
            ui = t.uniform(2500, 4000) * speed
            if t.chance(0.12):                  # a new row to bind
                ui += 3000
            t.burst(0, ms, ui, 1000)
            t.burst(1, ms + 3, t.uniform(2000, 3000) * speed, 800)
            if t.chance(0.08):                  # an image to decode
                t.run(2, ms + 1, t.uniform(5, 10), 600)
            if frame * 16.667 < 250:            # the finger still on the glass
                t.run(3, ms, 1, 150)
                t.run(3, ms + 8, 1, 150)
            ms += 16.667
            frame += 1
        ms += t.uniform(200, 400)
    return t


def sustained_little():
    t = Trace("sustained-little", 10, 4, 404)
    level = [345.0, 345.0]
    for s in range(t.steps):
        for lane in range(2):
            # a slow random walk kept inside 330..360 (368 fits one LITTLE CPU)
            level[lane] = min(360.0, max(330.0, level[lane] + t.uniform(-4, 4)))
            t.work[s][lane] += level[lane]
    housekeeping(t, (2, 3), 20, 60, 5, 25)
    return t


def video():
    # Every thread at most 340 per ms, one per CPU: LITTLE keeps up with
    # every step (the decoder's key frames take most of a frame period).
    t = Trace("video-30fps", 10, 4, 505)
    frame = 0
    ms = 0.0
    while ms < t.steps:
        work = t.uniform(3000, 4500)
        if frame % 30 == 0:                     # a key frame
            work *= 2
        t.burst(0, ms, work, 340)               # decoder
        t.burst(3, ms + 12, t.uniform(1000, 1400), 300)    # renderer
        ms += 33.333
        frame += 1
    ms = 0.0
    while ms < t.steps:
        t.burst(1, ms, t.uniform(400, 600), 250)           # audio
        ms += 20
    ms = 0.0
    while ms < t.steps:
        t.burst(2, ms, t.uniform(1000, 1300), 320)         # compositor at vsync
        ms += 16.667
    return t


def ramp():
    t = Trace("ramp", 12, 4, 606)
    for s in range(t.steps):
        if s < 5000:
            x = s / 5000.0
        elif s < 7000:
            x = 1.0
        else:
            x = max(0.0, 1.0 - (s - 7000) / 5000.0)
        base = 30 + 920 * x
        for lane in range(4):
            share = 1.0 if lane < 2 else 0.4
            t.work[s][lane] += base * share * t.uniform(0.95, 1.05)
    return t


def parallel_sustained():
    # Two lanes per CPU: 560 per CPU needs the big cluster (OPP 717).
    t = Trace("parallel-sustained", 8, 8, 707)
    for s in range(t.steps):
        for lane in range(8):
            t.work[s][lane] += t.uniform(260, 300)
    return t


def background_sync():
    t = Trace("background-sync", 15, 3, 808)
    ms = 0.0
    while ms < t.steps:                         # alarms, wakelocks
        t.run(2, ms, 1, 150)
        ms += 100
    ms = t.uniform(500, 1500)
    while ms < t.steps - 600:
        end = ms + t.uniform(300, 600)
        while ms < end:                         # network and database
            dur = t.uniform(10, 40)
            t.run(0, ms, dur, t.uniform(150, 350))
            if t.chance(0.3):                   # parsing, crypto
                t.run(1, ms + dur / 2, t.uniform(10, 40), 700)
            ms += dur + t.uniform(10, 30)
        ms += t.uniform(2500, 4000)
    return t


def game_loop():
    t = Trace("game-loop", 10, 4, 909)
    ms = 0.0
    while ms < t.steps:
        t.run(0, ms, t.uniform(7, 9), 800)      # game logic
        t.run(1, ms + 2, t.uniform(5, 6), 700)  # render
        t.run(3, ms + 1, 3, 600)                # physics
        ms += 16.667
    ms = 0.0
    while ms < t.steps:
        t.run(2, ms, 1, 400)                    # audio mixer
        ms += 10
    return t


def compile_burst():
    # make -j4: a compiler per CPU on lanes 0-3 (900-950, a big CPU's
    # worth), make, ccache and the file system on lanes 4-7 beside them.
    t = Trace("compile-burst", 12, 8, 1010)
    housekeeping(t, range(4, 8), 20, 80, 10, 40)
    for lane in range(4):
        ms = 1000 + lane * t.uniform(10, 60)
        while ms < 9000:
            dur = min(t.uniform(150, 1500), 9000 - ms)
            t.run(lane, ms, dur, t.uniform(900, 950))
            t.run(4 + lane, ms + dur, t.uniform(5, 40), t.uniform(200, 400))  # fork, exec, write .o
            ms += dur + t.uniform(5, 40)
    t.run(0, 9050, 1500, 950)                   # the link
    return t


def audio_playback():
    # Light enough for LITTLE at low OPPs in every step.
    t = Trace("audio-playback", 10, 2, 1111)
    ms = 0.0
    while ms < t.steps:                         # mixer on a 6 ms tick
        t.burst(0, ms, t.uniform(250, 320), 160)
        ms += 6
    ms = 0.0
    while ms < t.steps:                         # decoder refills the buffer
        t.burst(1, ms, t.uniform(1000, 1300), 250)
        ms += 48
    return t


# Held out (issue 8): written before the default policy was designed and not
# run while it was tuned; tests/workloads/holdout/, reported on their own.

def camera_preview():
    # 30 fps preview (ISP post-processing and 3A, preview render), and every
    # 1.5-3 s a still capture: a JPEG encode on two lanes at big speed.
    t = Trace("camera-preview", 10, 4, 1212)
    housekeeping(t, range(4), 50, 150, 10, 60)
    ms = 0.0
    while ms < t.steps:
        t.burst(0, ms, t.uniform(2000, 3000), 500)
        t.burst(1, ms + 6, t.uniform(1000, 1500), 400)
        if t.chance(0.1):                       # autofocus / exposure update
            t.run(2, ms + 2, t.uniform(3, 8), 700)
        ms += 33.333
    ms = t.uniform(1000, 2000)
    while ms < t.steps - 400:
        dur = t.uniform(120, 250)
        t.run(2, ms, dur, t.uniform(950, 1024))
        t.run(3, ms + 5, dur * 0.8, t.uniform(700, 900))
        ms += t.uniform(1500, 3000)
    return t


def web_page_load():
    # Three page loads (script parse and layout at big speed, network beside
    # them), each followed by reading: idle with a few short 60 fps scrolls.
    t = Trace("web-page-load", 14, 4, 1313)
    housekeeping(t, range(4), 60, 180, 20, 80)
    ms = t.uniform(200, 500)
    for _ in range(3):
        load = t.uniform(400, 1200)
        end = ms + load
        while ms < end:
            dur = t.uniform(20, 120)
            t.run(0, ms, dur, t.uniform(800, 1024))
            if t.chance(0.5):
                t.run(1, ms + dur, t.uniform(10, 40), 600)
            t.run(2, ms, dur, t.uniform(150, 300))
            ms += dur + t.uniform(2, 20)
        read_end = ms + t.uniform(2000, 3500)
        ms += t.uniform(300, 800)
        while ms < read_end - 700 and ms < t.steps:
            scroll_end = ms + t.uniform(300, 600)
            while ms < scroll_end:
                t.burst(0, ms, t.uniform(1500, 2500), 900)
                t.burst(1, ms + 4, t.uniform(1000, 1800), 700)
                ms += 16.667
            ms += t.uniform(400, 1200)
        ms = read_end
    return t


def ml_inference():
    # On-device inference five times a second: four threads in parallel for
    # 30-60 ms at 500-800 each, idle between, with a timer thread.
    t = Trace("ml-inference", 10, 4, 1414)
    housekeeping(t, range(4), 30, 90, 10, 40)
    ms = t.uniform(50, 150)
    while ms < t.steps:
        dur = t.uniform(30, 60)
        for lane in range(4):
            t.run(lane, ms + t.uniform(0, 3), dur * t.uniform(0.85, 1.0), t.uniform(500, 800))
        ms += 200 + t.uniform(-10, 10)
    return t


def typing():
    # Keystrokes every 80-300 ms with pauses: per key the UI thread at big
    # speed for 4-12 ms and the renderer; every fourth key a prediction.
    t = Trace("typing", 12, 3, 1515)
    housekeeping(t, range(3), 80, 250, 10, 50)
    ms = t.uniform(200, 600)
    key = 0
    while ms < t.steps - 100:
        t.run(0, ms, t.uniform(4, 12), 1000)
        t.run(1, ms + 2, t.uniform(3, 5), 600)
        if key % 4 == 3:
            t.run(2, ms + 5, t.uniform(20, 40), 450)
        key += 1
        ms += t.uniform(80, 300)
        if t.chance(0.08):                      # thinking
            ms += t.uniform(1000, 2000)
    return t


def mixed_phases():
    # A day in 20 s: idle, a voice call (20 ms codec frames, echo canceller
    # on a 10 ms tick), three threads just under LITTLE's top, a 60 fps game
    # level, idle again.
    t = Trace("mixed-phases", 20, 4, 1616)
    housekeeping(t, range(4), 40, 160, 20, 100)
    ms = 2000.0
    while ms < 7000:
        t.burst(0, ms, t.uniform(300, 450), 300)
        ms += 20
    ms = 2000.0
    while ms < 7000:
        t.burst(1, ms, t.uniform(150, 250), 250)
        ms += 10
    for s in range(7000, 10000):
        for lane in range(3):
            t.work[s][lane] += t.uniform(300, 345)
    ms = 10000.0
    while ms < 14000:
        t.run(0, ms, t.uniform(6, 8), 900)
        t.run(1, ms + 2, t.uniform(4, 6), 650)
        t.run(2, ms, 1, 300)
        ms += 16.667
    return t


def single_thread_heavy():
    # One thread a little beyond LITTLE's top (380-450 per ms) for 1.5-3 s
    # at a time, resting at 100-150 between: too much for LITTLE, a low OPP
    # of big, and every CPU but one idle.
    t = Trace("single-thread-heavy", 12, 2, 1717)
    housekeeping(t, (1,), 30, 100, 10, 40)
    ms = 500.0
    while ms < t.steps:
        dur = t.uniform(1500, 3000)
        t.run(0, ms, dur, t.uniform(380, 450))
        ms += dur
        rest = t.uniform(700, 1500)
        t.run(0, ms, rest, t.uniform(100, 150))
        ms += rest
    return t


def sensor_hub():
    # A fitness tracker's fusion batch: the sensor hub wakes the main CPU every
    # 150 ms; each batch is more than LITTLE runs in its time, idle between.
    t = Trace("sensor-hub", 10, 3, 1212)
    housekeeping(t, range(3), 50, 200, 20, 100)
    ms = t.uniform(100, 300)
    while ms < t.steps - 100:
        dur = t.uniform(20, 40)
        t.run(0, ms, dur, t.uniform(600, 900))
        t.run(1, ms + 1, dur / 2, t.uniform(300, 500))
        ms += 150 + t.uniform(-8, 8)
    return t


TRACES = (idle_bursts, app_launch, scrolling, sustained_little, video, ramp, parallel_sustained,
          background_sync, game_loop, compile_burst, audio_playback, sensor_hub)
HELD_OUT = (camera_preview, web_page_load, ml_inference, typing, mixed_phases, single_thread_heavy)


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    for make in TRACES:
        make().write(directory)
    held_out = os.path.join(directory, "holdout")
    os.makedirs(held_out, exist_ok=True)
    for make in HELD_OUT:
        make().write(held_out)


if __name__ == "__main__":
    main()
