// English function words, which SimHash leaves out of a text's features (docs/simhash.md):
// every English text is full of them, so they pull unrelated texts towards one fingerprint.
// The list is fixed: a change to it changes fingerprints, like any tokenizer change.
#pragma once

#include <string_view>

namespace seen::text {

// Whether the folded (lower-case) word is a stop word.
bool IsStopWord(std::string_view word);

}  // namespace seen::text
