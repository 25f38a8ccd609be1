# SPDX-License-Identifier: GPL-2.0
#
# LEAP: the whole workflow. `make help` lists the targets; README.md says
# what they cost. Every step prints what it does and is idempotent: run it
# again and it does only what changed.

SHELL := /bin/bash
.DEFAULT_GOAL := help
.SUFFIXES:
MAKEFLAGS += --no-print-directory

TOP := $(CURDIR)
WB := $(TOP)/workbench
# LINUX: the kernel version (a directory of patches/); 6.12 by default.
# Another version builds in build/linux-$(LINUX), its output in
# out/linux-$(LINUX) (workbench/lib.sh computes the same paths).
LINUX ?= 6.12
LINUXES := $(patsubst $(TOP)/patches/%/series,%,$(wildcard $(TOP)/patches/*/series))
ifeq ($(filter $(LINUX),$(LINUXES)),)
$(error LINUX=$(LINUX) is not a kernel version LEAP has patches for: use one of $(LINUXES))
endif
BUILD := $(TOP)/build$(if $(filter-out 6.12,$(LINUX)),/linux-$(LINUX))
OUTDIR := $(TOP)/out$(if $(filter-out 6.12,$(LINUX)),/linux-$(LINUX))
export LINUX

KERNEL ?= leap
FLAVOR ?= debug
CPUS ?= 2
MEM ?= 2G
TIMEOUT ?= 900
CMD ?= uname -a; nproc
export KSRC JOBS KASAN ACCEL CMD

ifeq ($(filter leap stock,$(KERNEL)),)
$(error KERNEL=$(KERNEL) is not a kernel of this workbench: use KERNEL=leap or KERNEL=stock)
endif

ifneq ($(filter perf user,$(FLAVOR)),)
IMAGE = $(BUILD)/obj/$(1)-$(FLAVOR)/arch/x86/boot/bzImage
else
IMAGE = $(BUILD)/obj/$(1)$(if $(filter 1,$(KASAN)),-kasan)/arch/x86/boot/bzImage
endif

.PHONY: help deps source tree kernel stock boot run test check-quick \
	test-stock test-long patch bench bench-quick bench-aa clean distclean

help:
	@echo 'LEAP workbench. Main commands:'
	@echo '  make run          build the LEAP kernel and show it at work in a 2-CPU VM'
	@echo '  make test         build, boot and run every test suite; ends "N passed, N failed"'
	@echo '  LINUX=7.3         any target for Linux 7.3 instead of 6.12 (patches/7.3/; build/linux-7.3)'
	@echo 'Steps:'
	@echo '  make deps         install the Debian packages needed (apt)'
	@echo '  make source       pristine tree (Debian linux-source-$(LINUX), or KSRC=/path)'
	@echo '  make tree         build/tree: pristine + new files + patches/$(LINUX)/series'
	@echo '  make kernel       LEAP kernel (FLAVOR=debug|perf|user, KASAN=1)'
	@echo '  make stock        unpatched EEVDF kernel, same source and config'
	@echo '  make boot         KERNEL=leap|stock CPUS=n MEM=.. TIMEOUT=s CMD="..."'
	@echo '  make check-quick  after an edit: rebuild, boot 2 CPUs, KUnit + quick suite'
	@echo '  make test-stock   the conformance suite on stock EEVDF'
	@echo '  make test-long    8 CPUs, longer stress'
	@echo '  make patch        out/leap-$(LINUX).patch and its git am series for your own tree'
	@echo '  make bench        A/B benchmark, LEAP vs EEVDF (bench-quick: short; bench-aa: stock vs stock)'
	@echo '                    perf-flavour kernels; PEERS="name=/path/to.patch[:fragment] ..." adds peers'

deps:
	@$(WB)/deps

source: deps
	@$(WB)/source

tree: source
	@$(WB)/tree

kernel: tree
	@$(WB)/kbuild leap $(FLAVOR)

stock: source
	@$(WB)/kbuild stock $(FLAVOR)

boot: $(if $(filter stock,$(KERNEL)),stock,kernel)
	@$(WB)/vm-run --kernel $(call IMAGE,$(KERNEL)) --cpus $(CPUS) --mem $(MEM) \
		--timeout $(TIMEOUT) --outdir $(OUTDIR)/guest -- sh -c "$$CMD"

run: kernel
	@if [ -t 0 ] && [ -t 1 ]; then i=--interactive; else i=; fi; \
	$(WB)/vm-run --kernel $(call IMAGE,leap) --cpus 2 --mem $(MEM) \
		--timeout $(TIMEOUT) --outdir $(OUTDIR)/run $$i -- sh $(WB)/demo

test: deps
	@$(WB)/run-tests full

check-quick: deps
	@$(WB)/run-tests quick

test-stock: deps
	@$(WB)/run-tests stock

test-long: deps
	@$(WB)/run-tests long

patch: tree
	@$(WB)/export-patch

bench bench-quick bench-aa: deps
	@FLAVOR=$(if $(filter command line environment,$(origin FLAVOR)),$(FLAVOR),perf) $(WB)/bench $@

clean:
	rm -rf $(BUILD)/obj $(BUILD)/stage $(BUILD)/export $(OUTDIR)

distclean:
	rm -rf $(BUILD) $(OUTDIR)
