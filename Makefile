# P4TC offload stack: top-level build and test entry points.
#
#   make demo     boot the guest and show the kernel and tools
#   make check    build everything that changed, run every test,
#                 end with "N passed, N failed"
#
# Every target installs what it needs (make deps) and rebuilds only what
# changed; the build scripts under scripts/ hold the logic, build/ holds
# every output (see docs/building.md).

SHELL := /bin/bash
.DEFAULT_GOAL := help

.PHONY: help deps bpf compiled install-compiler kernel kernel-bench qemu qemu-fuzz iproute2 build check bench cp-bench dp-bench offload-bench equivalence soak demo shell series clean distclean

help:
	@echo "make demo      boot the test guest and show the kernel and tools"
	@echo "make check     build what changed and run all tests"
	@echo "make build     kernel, QEMU and iproute2 (incremental)"
	@echo "make shell     interactive shell in the test guest"
	@echo "make bench     firmware-model benchmark (DPDK rte_hash/rte_lpm alongside)"
	@echo "make cp-bench  P4TC entry insertion against flower, in the guest (BENCH_N=100000)"
	@echo "make dp-bench  the P4 router against flower, frames/s in the guest, on the kernel without debug options (BENCH_DP_ROUTES, BENCH_KERNEL)"
	@echo "make offload-bench  routes into the p4nic, their counters, a flush (BENCH_N=20000)"
	@echo "make equivalence  every placement against all software, fuzzing (SEED=, ITER=, MIXED=)"
	@echo "make soak      the long runs: fuzzing, big tables, updates under traffic on 2 vCPUs (SOAK_ITER=, SOAK_SEED=, SOAK_LPM=, SOAK_ROUNDS=, SOAK_NETLINK=, SOAK_STRESS=, SOAK_P4NIC=)"
	@echo "make series    git format-patch series of our kernel changes (build/series/)"
	@echo "make deps      install Debian packages, fetch qemu and iproute2 sources"
	@echo "make install-compiler  p4tc-compile into PREFIX/bin (PREFIX=/usr/local, DESTDIR=)"

deps:
	@scripts/deps.sh

kernel: deps
	@scripts/timed kernel scripts/build-kernel.sh

# The same kernel without the debug and selftest fragments, for datapath
# figures that KASAN and lockdep do not dominate (build/linux-bench/).
# After the test kernel, which prepares the shared source tree.
kernel-bench: kernel
	@KERNEL_VARIANT=bench scripts/timed kernel-bench scripts/build-kernel.sh

qemu: deps
	@scripts/timed qemu scripts/build-qemu.sh

# QEMU's fuzzer for the p4nic (clang, libFuzzer, ASan, UBSan):
# tests/fuzz/p4nic/run
qemu-fuzz: qemu
	@scripts/timed qemu-fuzz scripts/build-qemu-fuzz.sh

iproute2: kernel
	@scripts/timed iproute2 scripts/build-iproute2.sh

build: kernel qemu qemu-fuzz iproute2 build/vm/init bpf compiled

.SECONDEXPANSION:

# The example programs written in P4 (tests/programs/*/NAME.p4), compiled
# by p4tc-compile (compiler/) to build/compiler/NAME/NAME.tc and .json.
P4_SRCS := $(wildcard tests/programs/*/*.p4)
P4_OUTS := $(patsubst tests/programs/%.p4,build/compiler/%.tc,$(P4_SRCS))
COMPILER_SRCS := compiler/p4tc-compile $(wildcard compiler/p4tc_compiler/*.py) \
	$(wildcard compiler/include/*.p4 compiler/include/*/*.p4)

compiled: $(P4_OUTS) build/bin/p4tc-compile

# the build's p4tc-compile, on a PATH of its own (build/bin), as the
# guest and the docs use it
build/bin/p4tc-compile: compiler/p4tc-compile
	@mkdir -p $(@D)
	ln -sf ../../compiler/p4tc-compile $@

# p4tc-compile with its modules and include files, for use outside the
# tree: PREFIX/lib/p4tc-compile/, run through PREFIX/bin/p4tc-compile
PREFIX ?= /usr/local
install-compiler:
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/p4tc-compile/p4tc_compiler \
		$(DESTDIR)$(PREFIX)/lib/p4tc-compile/include/tc
	install -m 755 compiler/p4tc-compile $(DESTDIR)$(PREFIX)/lib/p4tc-compile/
	install -m 644 compiler/p4tc_compiler/*.py $(DESTDIR)$(PREFIX)/lib/p4tc-compile/p4tc_compiler/
	install -m 644 compiler/include/core.p4 $(DESTDIR)$(PREFIX)/lib/p4tc-compile/include/
	install -m 644 compiler/include/tc/pna.p4 $(DESTDIR)$(PREFIX)/lib/p4tc-compile/include/tc/
	ln -sf ../lib/p4tc-compile/p4tc-compile $(DESTDIR)$(PREFIX)/bin/p4tc-compile

# a program's p4c.opts: its options (the pipeline id its tests know)
build/compiler/%.tc: tests/programs/%.p4 $(COMPILER_SRCS) $$(wildcard tests/programs/$$(dir $$*)p4c.opts)
	compiler/p4tc-compile $< -o $(@D) $$(cat $(dir $<)p4c.opts 2>/dev/null)

# The example eBPF programs (tests/programs/*/*.bpf.c): the router's eBPF
# parser for the p4 classifier's "prog tc" mode.  Built with Debian's
# clang against the patched kernel's UAPI headers and libbpf's.
BPF_SRCS := $(wildcard tests/programs/*/*.bpf.c)
BPF_OBJS := $(patsubst tests/programs/%.c,build/bpf/%.o,$(BPF_SRCS))
BPF_HDRS := $(wildcard tests/programs/*/*.bpf.h)
BPF_CFLAGS := -O2 -g -Wall -Werror -target bpf \
	-isystem build/linux/headers/include \
	-isystem /usr/include/$(shell $(CC) -dumpmachine)

# The router's eBPF parsers are p4tc-compile's (--bpf in its p4c.opts):
# made with its template script, built under the names the tests know.
BPF_OBJS += build/bpf/router/parser.bpf.o build/bpf/router/parser-xdp.bpf.o

bpf: $(BPF_OBJS)

build/bpf/router/parser.bpf.o: build/compiler/router/router.tc build/linux/headers/include/linux/p4tc.h
	@mkdir -p $(@D)
	clang $(BPF_CFLAGS) -c build/compiler/router/router.parser.bpf.c -o $@

# the XDP parser's cookie: what the tests' filters say (prog_cookie 22)
build/bpf/router/parser-xdp.bpf.o: build/compiler/router/router.tc build/linux/headers/include/linux/p4tc.h
	@mkdir -p $(@D)
	clang $(BPF_CFLAGS) -DP4TC_XDP_COOKIE=22 -c build/compiler/router/router.parser-xdp.bpf.c -o $@

build/bpf/%.bpf.o: tests/programs/%.bpf.c $(BPF_HDRS) build/linux/headers/include/linux/p4tc.h
	@mkdir -p $(@D)
	clang $(BPF_CFLAGS) -c $< -o $@

build/linux/headers/include/linux/p4tc.h: | kernel

# The guest's PID 1 (static, so that boot costs no dynamic exec).
build/vm/init: tests/vm/init.c
	@mkdir -p $(@D)
	$(CC) -static -O2 -Wall -Wextra -Werror -o $@ $<

# The build's wall time goes into make check's budget report.
check: deps
	@mkdir -p build/check; start=$$(date +%s); \
	$(MAKE) --no-print-directory build && \
	echo $$(($$(date +%s) - start)) >build/check/build-time && \
	P4TC_BUILD_TIMES=build/check/build-time tests/check

bench: deps
	@$(MAKE) -s -C firmware-model bench

# The control-plane benchmark: P4TC table entries against flower filters,
# inserted and deleted in the test guest (see tests/bench/cp-bench.sh).
build/bench/p4rt_bench: tests/bench/p4rt_bench.c kernel
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -Wextra -Werror -isystem build/linux/headers/include -o $@ $<

cp-bench: build build/bench/p4rt_bench
	@tests/bench/cp-bench.sh

# The datapath benchmark: the P4 router against tc-flower, frames/s with
# 1, 1,000 and 100,000 routes, in the guest on the bench kernel
# (tests/bench/dp-bench.sh).
build/bench/pktblast: tests/bench/pktblast.c
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -Wextra -Werror -o $@ $<

dp-bench: build kernel-bench build/bench/pktblast
	@tests/bench/dp-bench.sh

# Software/hardware equivalence: each program's corpus in every placement
# of its entries (sw, hw, both, mixed), compared with all software.
equivalence: build
	@tests/equivalence/run $(if $(SEED),--seed $(SEED)) $(if $(ITER),--iter $(ITER)) $(if $(MIXED),--mixed $(MIXED))

# The long runs make check keeps a fixed small share of: differential
# fuzzing (SOAK_ITER, SOAK_SEED), big tables (SOAK_LPM), updates under
# traffic (SOAK_ROUNDS), on a guest with two vCPUs.  Not part of CI.
soak: build
	@tests/soak/run

# The offload benchmark: routes into the p4nic, their counters dumped
# (read a table at a time), the table flushed; entries/s for each.
offload-bench: build
	@tests/bench/offload-bench.sh

demo: build
	@scripts/demo.sh

shell: build
	@tests/vm/run

series: deps
	@scripts/series.sh

clean:
	rm -rf build/linux/obj build/linux/mods build/linux-bench build/qemu build/qemu-fuzz build/iproute2 build/vm build/series build/firmware-model

distclean:
	rm -rf build
