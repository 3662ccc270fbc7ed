/* The real UAPI header, found as the kernel finds it. */
#include "../../../../../../kernel/linux/include/uapi/linux/p4tc.h"
