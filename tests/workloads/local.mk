# The workloads, installed beside the boards so that an installed blsim has
# them by name (blsim list, --workload NAME). The generators and the rt-app
# tutorial stay in the source tree.
workloadsdir = $(pkgdatadir)/workloads
dist_workloads_DATA = tests/workloads/README.md \
	tests/workloads/app-launch.csv tests/workloads/audio-playback.csv \
	tests/workloads/background-sync.csv tests/workloads/compile-burst.csv \
	tests/workloads/game-loop.csv tests/workloads/idle-bursts.csv \
	tests/workloads/parallel-sustained.csv tests/workloads/ramp.csv \
	tests/workloads/scrolling-60fps.csv tests/workloads/sensor-hub.csv \
	tests/workloads/sustained-little.csv tests/workloads/video-30fps.csv
workloads_holdoutdir = $(workloadsdir)/holdout
dist_workloads_holdout_DATA = \
	tests/workloads/holdout/camera-preview.csv tests/workloads/holdout/mixed-phases.csv \
	tests/workloads/holdout/ml-inference.csv tests/workloads/holdout/single-thread-heavy.csv \
	tests/workloads/holdout/typing.csv tests/workloads/holdout/web-page-load.csv
workloads_rtappdir = $(workloadsdir)/rt-app
dist_workloads_rtapp_DATA = tests/workloads/rt-app/README.md \
	tests/workloads/rt-app/browser-long.json tests/workloads/rt-app/browser-short.json \
	tests/workloads/rt-app/custom-slice.json tests/workloads/rt-app/dvfs.json \
	tests/workloads/rt-app/mp3-long.json tests/workloads/rt-app/mp3-short.json \
	tests/workloads/rt-app/spreading-tasks.json tests/workloads/rt-app/template.json \
	tests/workloads/rt-app/video-long.json tests/workloads/rt-app/video-short.json
