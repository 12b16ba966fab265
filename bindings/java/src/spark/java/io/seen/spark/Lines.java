package io.seen.spark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A text file's keys as {@code seen build} reads them (cli/lines.h, docs/distributed.md). A
 * line ends at LF. One CR before it (or before the end of the file) is dropped, and a line
 * left empty is no key. Every other byte is part of its key as it is: a bare CR inside a line,
 * a byte order mark at the start of the file, invalid UTF-8.
 */
final class Lines {
  private Lines() {}

  static List<byte[]> split(byte[] content) {
    List<byte[]> keys = new ArrayList<>();
    int start = 0;
    while (start < content.length) {
      int newline = start;
      while (newline < content.length && content[newline] != '\n') {
        newline++;
      }
      int end = newline;
      if (end > start && content[end - 1] == '\r') {
        end--;
      }
      if (end > start) {
        keys.add(Arrays.copyOfRange(content, start, end));
      }
      start = newline + 1;
    }
    return keys;
  }
}
