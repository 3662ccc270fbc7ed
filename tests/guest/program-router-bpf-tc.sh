#!/bin/bash
# The IPv4 router's whole test (program-router.sh) with the router's eBPF
# parser (router.parser.bpf.c, p4tc-compile --bpf's) in the parse graph's place:
# the p4 filters say "prog tc obj build/bpf/router/parser.bpf.o section
# p4tc/parser".  Every check must come out as with the graph: routing,
# TTL and checksum, the drops, the counters, the parser rejects of
# malformed IPv4, the paged frame, filters replaced under pings.
ROUTER_PARSER=tc exec "$(dirname "$0")/program-router.sh"
