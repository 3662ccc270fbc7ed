#!/bin/bash
# The IPv4 router's whole test (program-router.sh) with the router's eBPF
# parser at XDP (router.parser-xdp.bpf.c, p4tc-compile --bpf's; generic XDP on
# both ports): the p4 filters say "prog xdp pinned PIN prog_cookie 22"
# and use what the parser left in each packet's metadata.  Every check
# must come out as with the graph.
ROUTER_PARSER=xdp exec "$(dirname "$0")/program-router.sh"
