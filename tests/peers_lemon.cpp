// PLACEHOLDER
#include <cstdint>
#include "support.h"
extern "C" int64_t pf_peer_lemon_value(const pf_network *net) { (void)net; return -1; }
