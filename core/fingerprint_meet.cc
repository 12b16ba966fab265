#include "core/fingerprint_meet.h"

namespace seen {

[[gnu::noinline]] MeetScratch& ThreadMeetScratch() {
  thread_local MeetScratch scratch;
  return scratch;
}

}  // namespace seen
