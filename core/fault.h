// A test seam in the system calls of a save (core/save.cc). A test sets a hook that sees each
// call's name ("open_tmpfile", "open", "flock", "fchmod" when replacing a file, "pwrite",
// "fsync", "linkat" (AT_EMPTY_PATH), "linkat_proc" (through /proc/self/fd, where the first
// is refused), "rename", "open_dir", "fsync_dir") before it is made, and may fail it
// with an errno, or end the process there to act out a crash. Without a hook, the default,
// each call costs one atomic load.
#pragma once

namespace seen::fault {

// Returns 0 to let the call run, or the errno it fails with instead.
using Hook = int (*)(const char* call);

// Installs hook (nullptr removes it) for every thread's saves. Tests only.
void SetHook(Hook hook);

// What the hook says about `call`: 0, or the errno to fail with.
int Injected(const char* call);

}  // namespace seen::fault
