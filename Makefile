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
export PATH := $(CURDIR)/$(VENV)/bin:$(PATH)

.PHONY: emuboard help venv sim test test-fast bench cpu-report mp32 build deploy device-report image flash release wiring repl check screenshots clean

help:
	@echo "make sim [HEAP=120k] [PY=cpython] [WINDOW=1] [SOURCE=1] [BOARD=sim]  play on this computer"
	@echo "make test                        every test (CPython + MicroPython unix port)"
	@echo "make bench [QUICK=1]             memory and speed figures -> tools/bench/results.md (+ the CPUs' time, memory)"
	@echo "make cpu-report [QUICK=1]        the CPU players' strength, time and memory (tools/cpu_report.py)"
	@echo "make mp32 [MICROPY_SRC=dir|tar.gz]  build the 32-bit unix port (the memory gauge; the frame model's, tools frozen; the heap model's, the ESP32's split heap) into build/mp32"
	@echo "make build|deploy|image|flash BOARD=x [PORT=...] [FIRMWARE=...]   put it on a board"
	@echo "make device-report PORT=... [BOARD=x] [QUICK=1]   on a board: the figures the models estimate (heap, frames, I2C, flash)"
	@echo "make release BOARD=x [FIRMWARE=stock.bin]   release files, SHA-256 sums"
	@echo "make wiring                      wiring diagrams (SVG, PNG) -> build/wiring/"
	@echo "make emuboard                    the unix port as a board on a pseudo-terminal (for make deploy)"
	@echo "make check                       type-check against ESP32 stubs, lint"

venv: $(STAMP)
$(STAMP): tools/requirements.txt
	test -x $(VPY) || $(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install -q -r tools/requirements.txt
	touch $@

sim: $(STAMP)
	$(VPY) tools/sim.py --fs $(FS) $(if $(HEAP),--heap $(HEAP)) $(if $(filter cpython,$(PY)),--cpython) $(if $(WINDOW),--window) $(if $(SOURCE),--source) $(if $(filter command line,$(origin BOARD)),--board $(BOARD))

test: $(STAMP)
	$(VPY) tools/check_board.py
	$(VPY) -m pytest -c host_tests/pytest.ini host_tests

test-fast: $(STAMP)
	$(VPY) -m pytest -c host_tests/pytest.ini host_tests -x -q -m "not slow"

bench: $(STAMP)
	$(VPY) tools/bench.py $(if $(QUICK),--quick)
	$(VPY) tools/build.py --board esp32_devkit --quiet
	build/mp32/obj/micropython -X heapsize=512k tools/cpu_report.py --part time --part memory --lib build/esp32_devkit $(if $(QUICK),--quick)

cpu-report: $(STAMP)
	$(VPY) tools/cpu_report.py $(if $(QUICK),--quick)

mp32: $(STAMP)
	$(VPY) tools/mp32.py --print
	$(VPY) tools/mp32.py --frame --print
	$(VPY) tools/mp32.py --heap --print

build: $(STAMP)
	$(VPY) tools/build.py --board $(BOARD)

deploy: $(STAMP)
	$(VPY) tools/deploy.py --board $(BOARD) --port $(PORT)

device-report: $(STAMP)
	$(VPY) tools/device_report.py --port $(PORT) --board $(BOARD) $(if $(QUICK),--quick)

image: $(STAMP)
	$(VPY) tools/image.py --board $(BOARD)

flash: $(STAMP)
	$(VPY) tools/image.py --board $(BOARD) --flash --port $(PORT) $(if $(FIRMWARE),--firmware $(FIRMWARE))

release: $(STAMP)
	$(VPY) tools/release.py --board $(BOARD) $(if $(FIRMWARE),--firmware $(FIRMWARE))

wiring: $(STAMP)
	$(VPY) tools/wiring.py --out build/wiring

repl: $(STAMP)
	$(VENV)/bin/mpremote connect $(PORT) repl

check: $(STAMP)
	$(VPY) tools/check.py

screenshots: $(STAMP)
	$(VPY) tools/screens.py --out tools/screenshots

clean:
	rm -rf build typings .pytest_cache .hypothesis

emuboard: $(STAMP)
	$(VPY) tools/emuboard.py --image build/emuboard-flash.bin $(if $(HEAP),--heap $(HEAP))
