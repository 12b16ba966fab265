// Real numbers in error messages, as %g prints them: 1e-80 stays 1e-80 where std::to_string
// would print 0.000000, and 0.01 stays 0.01 (not 0.010000). Every binding passes these
// messages on, so they read the same in C, Python, Java and Go.
#pragma once

#include <cstdio>
#include <string>

namespace seen {

inline std::string RealText(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

}  // namespace seen
