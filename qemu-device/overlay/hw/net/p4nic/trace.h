#include "trace/trace-hw_net_p4nic.h"
