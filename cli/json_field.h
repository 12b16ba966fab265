// One string field of a JSON object, for `seen dedupe --field NAME` over JSONL.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace seen::cli {

// The decoded UTF-8 value of the top-level member `name` of the JSON object in `line`, if
// that member exists and is a string. Nested values are skipped whole. Throws Error(kIo)
// naming `where` for a line that is not a JSON object.
std::optional<std::string> JsonStringField(std::string_view line, const std::string& name,
                                           const std::string& where);

}  // namespace seen::cli
