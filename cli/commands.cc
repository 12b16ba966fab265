// The subcommands of `seen`: their synopses, one-line summaries and options, which both the
// parser (cli/args.cc) and the help texts (cli/main.cc) read, so they cannot disagree.
#include "cli/cli.h"

namespace seen::cli {

const std::vector<CommandSpec>& Commands() {
  static const std::vector<CommandSpec> commands = {
      {"build", "--capacity N [--fpr P | --bytes SIZE] [--seed S | --key-file PATH] [--threads T] INPUT... -o FILE",
       "Builds a Bloom filter file from keys, one per line (- is stdin; a trailing \\r is "
       "dropped, empty lines are skipped).",
       {{"capacity", "N", "distinct keys the filter is sized for (1e9 style allowed)"},
        {"fpr", "P", "target false-positive rate at capacity (default 0.01)"},
        {"bytes", "SIZE", "a memory budget such as 1GiB or 512M, instead of --fpr"},
        {"seed", "S", "hash seed; filters merge only with the same seed (default 0)"},
        {"key-file", "PATH", "keyed mode: the secret key, 16 to 64 bytes raw or as hex; - reads it from stdin (docs/SECURITY.md)"},
        {"threads", "T", "threads that add keys (default: every core)"},
        {"output", "FILE", "the filter file to write (also -o FILE)"}},
       Build},
      {"query", "FILE [KEY...] [--new-only] [--key-file PATH]",
       "Prints KEY<TAB>seen|new for each key; reads keys from stdin when none are given, and in "
       "place of a KEY - (use -- before keys that start with -). FILE - reads the filter from stdin.",
       {{"new-only", nullptr, "print only the keys the filter has not seen"},
        {"key-file", "PATH", "the key of a keyed filter, 16 to 64 bytes raw or as hex; - reads it from stdin (docs/SECURITY.md)"},},
       Query},
      {"info", "FILE [--json] [--now T] [--key-file PATH]",
       "Prints the kind, parameters and size of a Bloom, counting or scalable filter, window, store, "
       "SimHash index or MinHash index file (- reads one from stdin) once its checksums are verified; for filters, windows "
       "and stores, the fill and the false-positive rate at it, and the users above target.",
       {{"json", nullptr, "one JSON object instead of a table"},
        {"now", "T", "the time (Unix seconds) time windows are measured at (default: now)"},
        {"key-file", "PATH", "the key of a keyed filter or MinHash index, 16 to 64 bytes raw or as hex; - reads it from stdin (docs/SECURITY.md)"},},
       Info},
      {"merge", "A B -o C [--key-file PATH]",
       "Writes the union of two filter files of the same shape and seed (or key); A or B may be - (stdin).",
       {{"output", "FILE", "the merged filter file (also -o FILE)"},
        {"key-file", "PATH", "the key of keyed filters, 16 to 64 bytes raw or as hex; - reads it from stdin (docs/SECURITY.md)"},},
       Merge},
      {"dedupe", "[--method simhash|minhash|auto] [--k K | --threshold T] [--ngram N] [--per-file | --field NAME] INPUT...",
       "Groups exact and near-duplicate documents: one document per line, per file, or per JSONL "
       "field. Every two members of a near group are verified close to each other; the group's first document is its representative. With minhash, "
       "a nearest line pairs a document with its most similar near one where grouping set them apart.",
       {{"method", "M", "simhash (8 bytes a document, long texts), minhash (short texts, inserted boilerplate) "
                        "or auto (the default: minhash when the median document is under 3,000 bytes)"},
        {"threshold", "T", "minhash: the least Jaccard similarity of the shingle sets of near duplicates, computed exactly (default 0.6)"},
        {"k", "K", "simhash: the largest Hamming distance of near duplicates, 0..7 (default 3)"},
        {"ngram", "N", "characters per shingle of CJK text, 1..8 (default 2)"},
        {"per-file", nullptr, "each INPUT file is one document"},
        {"field", "NAME", "documents are JSON lines; NAME is the text field"}},
       Dedupe},
      {"simulate", "exposure [--users N] [--window N] [--csv FILE] [--svg FILE]",
       "Runs the published exposure-filtering designs beside seen's windows on simulated users.",
       {{"users", "N", "simulated users (default 100000)"},
        {"window", "N", "the last N items each user must not see again (default 500)"},
        {"csv", "FILE", "the table as CSV (default exposure.csv)"},
        {"svg", "FILE", "the plot of fpr and recall, for a browser (default exposure.svg)"}},
       Simulate},
      {"demo", "[--keys N] [--fpr P] [--users N]",
       "Shows each capability on built-in data and checks its promises.",
       {{"keys", "N", "keys in the Bloom filter section (default 1000000)"},
        {"fpr", "P", "target false-positive rate of that filter (default 0.01)"},
        {"users", "N", "simulated users in the exposure section (default 100000)"}},
       Demo},
  };
  return commands;
}

}  // namespace seen::cli
