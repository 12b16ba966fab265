// Keys for separate purposes (domain separation): one purpose's outputs, such as the check
// value a keyed file carries, say nothing about another's, such as where keys land.
#pragma once

#include "core/hash.h"

namespace seen {

// The key `key` gives `purpose`: two SipHash-2-4 outputs under it, of the purpose's name
// followed by 0 and by 1. Distinct purposes get independent keys.
SecretKey Subkey(const SecretKey& key, const char* purpose);

// A fresh key from the system's random source, for a purpose the caller gave no key for.
SecretKey RandomKey();

}  // namespace seen
