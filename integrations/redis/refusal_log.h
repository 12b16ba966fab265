// Windows refused on load (RESTORE, an RDB file or a replica's sync, SEEN.LOAD) are logged
// with the reason, at most one line a second: a client that sends 70,000 bad payloads gets
// 70,000 error replies but cannot flood the server's log. INFO seen counts them all.
#pragma once

#include <cstdint>

namespace seen::redis {

// Counts one refusal. Returns whether to log it now; *unlogged is then how many refusals
// went unlogged since the last line.
bool TakeRefusalLogTurn(uint64_t* unlogged);

// Every refusal since the server started.
uint64_t Refusals();

}  // namespace seen::redis
