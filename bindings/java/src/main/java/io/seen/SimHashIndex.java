package io.seen;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Every stored SimHash fingerprint within Hamming distance k of a query, exactly: the index
 * cuts the 64 bits into blocks and looks each block up in its own table (pigeonhole), so it
 * never misses a match that a brute-force scan would find. A query costs well under a
 * microsecond at a million fingerprints and k = 3, in about 30 bytes per fingerprint.
 *
 * <pre>{@code
 * try (SimHashIndex index = SimHashIndex.create(3)) {
 *   index.addAll(ids, fingerprints, 0, ids.length);
 *   for (SimHashIndex.Match m : index.query(SimHash.fingerprint(text))) { ... }
 * }
 * }</pre>
 *
 * <p>{@code maxK} (0 to 7) is fixed at creation; a query may use any k up to it (the default
 * is maxK). Up to 3 the index uses four 16-bit blocks; above, maxK + 1 smaller blocks, whose
 * buckets grow: a query roughly triples in time per step past 3 (docs/simhash.md).
 *
 * <p>Duplicate ids: the index is a multiset of (id, fingerprint) pairs, as in the C API.
 * Adding an id twice keeps both pairs and a query reports each; {@link #remove(long)} takes
 * every pair of that id.
 *
 * <p>Adds are staged: the first query after adds or removes rebuilds the tables, O(n) (about
 * 35 ms a million), once, while concurrent queries wait for it; {@link #build()} does it up
 * front.
 *
 * <p>Thread safety: the queries ({@code query*}, {@code any*}, {@link #clusters()},
 * {@link #size()}, {@link #memoryBytes()}, {@link #toByteArray()}, {@link #save(Path)}) and
 * {@link #build()} may run concurrently from any number of threads (a rebuild after adds happens
 * once, under a lock). {@code add*}, {@code remove*} and {@link #close()} need exclusive access:
 * no other call on this index may run at the same time.
 *
 * <p>Lifetime: the native memory (or mapping) is released by {@link #close()}, or by a
 * {@link Cleaner} once the index is unreachable. Closing twice is harmless; any other call
 * after close throws {@link IllegalStateException}.
 */
public final class SimHashIndex implements AutoCloseable {
  /** seen.h's SEEN_OPEN_READ_ONLY and SEEN_OPEN_NO_VERIFY. */
  private static final int READ_ONLY = 1;
  private static final int NO_VERIFY = 4;
  /** Matches a single query expects at first; more cost a second native call. */
  private static final int FIRST_CAP = 16;

  private final NativeHandle handle;
  private final int maxK;

  /** One stored pair within k of a query: its id and its distance in bits. */
  public static final class Match extends IndexMatch {
    public Match(long id, int distance) {
      super(id, distance);
    }

    public int distance() {
      return nearness.intValue();
    }
  }

  /**
   * The matches of a batch of queries, in flat arrays: the matches of query i are entries
   * {@link #start(int) start(i)} to {@link #end(int) end(i)} of {@link #ids()} and
   * {@link #distances()}, each query's sorted by distance, then id.
   */
  public static final class BatchMatches {
    private final int[] offsets;
    private final long[] ids;
    private final int[] distances;

    BatchMatches(int[] offsets, long[] ids, int[] distances) {
      this.offsets = offsets;
      this.ids = ids;
      this.distances = distances;
    }

    /** The number of queries. */
    public int size() {
      return offsets.length - 1;
    }

    public int start(int query) {
      return offsets[Objects.checkIndex(query, size())];
    }

    public int end(int query) {
      return offsets[Objects.checkIndex(query, size()) + 1];
    }

    /** The matches of one query. */
    public List<Match> get(int query) {
      int from = start(query);
      int to = end(query);
      List<Match> out = new ArrayList<>(to - from);
      for (int j = from; j < to; j++) {
        out.add(new Match(ids[j], distances[j]));
      }
      return out;
    }

    /** The ids of every match, query after query (shared, not copied). */
    public long[] ids() {
      return ids;
    }

    /** The distances beside {@link #ids()} (shared, not copied). */
    public int[] distances() {
      return distances;
    }
  }

  /**
   * All-pairs clusters that never chain: the pair with the smallest id leads a group and takes,
   * in id order, each pair within k of it that is within k of every member taken so far; then
   * the next pair not yet grouped, and so on. Every two members are within k of each other;
   * the smallest id is the group's representative. Pair i of the
   * index has id {@link #id(int) id(i)} and group {@link #group(int) group(i)}; groups are
   * numbered 0, 1, ... in the order the pairs are listed, and a pair with no neighbour is a
   * group of one.
   */
  public static final class Clusters {
    private final long[] ids;
    private final int[] groups;
    private final int groupCount;

    Clusters(long[] ids, int[] groups) {
      this.ids = ids;
      this.groups = groups;
      int max = -1;
      for (int g : groups) {
        max = Math.max(max, g);
      }
      this.groupCount = max + 1;
    }

    /** The number of pairs clustered: the index size. */
    public int size() {
      return ids.length;
    }

    public long id(int i) {
      return ids[i];
    }

    public int group(int i) {
      return groups[i];
    }

    /** The number of groups, singletons included. */
    public int groupCount() {
      return groupCount;
    }

    /** The ids of every group of at least {@code minSize} pairs, each in listing order. */
    public List<long[]> groups(int minSize) {
      int[] sizes = new int[groupCount];
      for (int g : groups) {
        sizes[g]++;
      }
      long[][] members = new long[groupCount][];
      int[] filled = new int[groupCount];
      for (int i = 0; i < ids.length; i++) {
        int g = groups[i];
        if (sizes[g] >= minSize) {
          if (members[g] == null) {
            members[g] = new long[sizes[g]];
          }
          members[g][filled[g]++] = ids[i];
        }
      }
      List<long[]> out = new ArrayList<>();
      for (long[] m : members) {
        if (m != null) {
          out.add(m);
        }
      }
      return out;
    }
  }

  private SimHashIndex(long handle) {
    this.handle = new NativeHandle(this, handle, NativeSimHash::indexFree, NativeSimHash::lastError);
    long[] v = new long[4];
    this.handle.checkOrFree(NativeSimHash.info(handle, v));
    this.maxK = (int) v[1];
  }

  /** Wraps the handle a native made; a native that failed has thrown already. */
  private static SimHashIndex adopt(long[] out) {
    return new SimHashIndex(out[0]);
  }

  /** An empty index for queries with k up to {@code maxK}, 0 to 7 (else INVALID_ARGUMENT). */
  public static SimHashIndex create(int maxK) {
    long[] out = new long[1];
    NativeSimHash.indexCreate(maxK, out);
    return adopt(out);
  }

  /**
   * Maps an index saved by {@link #save(Path)} (or by any binding or {@code seen}) read-only
   * and queries it in place, after verifying its checksums. Adds and removes throw READ_ONLY;
   * to change it, read a copy with {@link #readFrom}.
   */
  public static SimHashIndex open(Path path) {
    return open(path, true);
  }

  /**
   * As {@link #open(Path)}; {@code verify} false skips the payload checksum (bucket offsets are
   * still checked, so a damaged file cannot make a query read outside it).
   */
  public static SimHashIndex open(Path path, boolean verify) {
    long[] out = new long[1];
    NativeSimHash.open(Utf8.nulTerminated(path), READ_ONLY | (verify ? 0 : NO_VERIFY), out);
    return adopt(out);
  }

  /**
   * Reads a writable index from the serialized form (kind 6 of docs/FORMAT.md), after full
   * validation. Reads {@code in} to its end. Throws {@link SeenException} with BAD_MAGIC,
   * TRUNCATED, BAD_CHECKSUM, WRONG_KIND, ... on other input.
   */
  public static SimHashIndex readFrom(InputStream in) throws IOException {
    byte[] bytes = in.readAllBytes();
    long[] out = new long[1];
    NativeSimHash.deserialize(bytes, bytes.length, out);
    return adopt(out);
  }

  private int checkK(int k) {
    if (k < 0 || k > maxK) {
      throw new IllegalArgumentException("k must be 0 to maxK " + maxK + ", not " + k);
    }
    return k;
  }

  /** Adds the pair (id, fingerprint). An id already in the index gets a second pair. */
  public void add(long id, long fingerprint) {
    handle.run(this, h -> NativeSimHash.addOne(h, id, fingerprint));
  }

  /** Adds the pairs {@code (ids[off + i], fingerprints[off + i])} for i in 0 .. len. */
  public void addAll(long[] ids, long[] fingerprints, int off, int len) {
    Objects.checkFromIndexSize(off, len, ids.length);
    Objects.checkFromIndexSize(off, len, fingerprints.length);
    handle.run(this, h -> NativeSimHash.add(h, ids, fingerprints, off, len));
  }

  /**
   * Adds pairs from direct buffers, with no copy: the 64-bit ids and fingerprints between each
   * buffer's position and limit, in native byte order (fill them through
   * {@code order(ByteOrder.nativeOrder())}), 8-byte aligned, as many in each. Positions are
   * left unchanged.
   */
  public void addAll(ByteBuffer ids, ByteBuffer fingerprints) {
    long n = Batches.longsIn(ids, "ids");
    if (Batches.longsIn(fingerprints, "fingerprints") != n) {
      throw new IllegalArgumentException("ids and fingerprints hold different counts");
    }
    handle.run(this, h -> NativeSimHash.addDirect(h, ids, ids.position(), fingerprints,
        fingerprints.position(), n));
  }

  /** Removes every pair of {@code id}; returns how many (0 if the id is not in the index). */
  public long remove(long id) {
    return removeAll(new long[] {id}, 0, 1);
  }

  /**
   * Removes every pair whose id is among {@code ids[off .. off+len)}; returns how many. Each
   * removal call costs O(size), so remove many ids in one call.
   */
  public long removeAll(long[] ids, int off, int len) {
    Objects.checkFromIndexSize(off, len, ids.length);
    return handle.count(this, h -> NativeSimHash.remove(h, ids, off, len));
  }

  /** Rebuilds the tables now if pairs were added or removed since; safe beside queries. */
  public void build() {
    handle.run(this, h -> NativeSimHash.build(h));
  }

  /** Every pair within {@link #maxK()} of {@code fingerprint}, sorted by distance, then id. */
  public List<Match> query(long fingerprint) {
    return query(fingerprint, maxK);
  }

  /** Every pair within {@code k} (at most {@link #maxK()}), sorted by distance, then id. */
  public List<Match> query(long fingerprint, int k) {
    long[] ids = new long[FIRST_CAP];
    int[] distances = new int[FIRST_CAP];
    int found = query(fingerprint, k, ids, distances);
    if (found > ids.length) {
      ids = new long[found];
      distances = new int[found];
      found = query(fingerprint, k, ids, distances);
    }
    long[] finalIds = ids;
    int[] finalDistances = distances;
    int n = found;
    return new AbstractList<Match>() {
      @Override
      public Match get(int i) {
        return new Match(finalIds[Objects.checkIndex(i, n)], finalDistances[i]);
      }

      @Override
      public int size() {
        return n;
      }
    };
  }

  /**
   * Writes the matches within {@code k} into the caller's arrays, sorted by distance, then id,
   * with no allocation: the first {@code min(found, ids.length)} go to {@code ids} and
   * {@code distances} (at least as long as ids). Returns the number found, which may exceed
   * the arrays: then call again with larger ones.
   */
  public int query(long fingerprint, int k, long[] ids, int[] distances) {
    checkK(k);
    if (distances.length < ids.length) {
      throw new IllegalArgumentException(
          "distances holds " + distances.length + ", ids " + ids.length);
    }
    long found = handle.count(this,
        h -> NativeSimHash.query(h, fingerprint, k, ids, distances, ids.length));
    if (found > Serialized.MAX_ARRAY) {
      throw new IllegalStateException(found + " matches do not fit a Java array");
    }
    return (int) found;
  }

  /** Whether any pair lies within {@link #maxK()} of {@code fingerprint}; stops at the first. */
  public boolean any(long fingerprint) {
    return any(fingerprint, maxK);
  }

  public boolean any(long fingerprint, int k) {
    checkK(k);
    return handle.answer(this, h -> NativeSimHash.anyOne(h, fingerprint, k)) == 1;
  }

  /** Sets {@code out[i] = any(fingerprints[off + i], k)} for i in 0 .. len, in one native call. */
  public void anyAll(long[] fingerprints, int off, int len, int k, boolean[] out) {
    checkK(k);
    Objects.checkFromIndexSize(off, len, fingerprints.length);
    Batches.checkOut(len, out);
    handle.run(this, h -> NativeSimHash.any(h, fingerprints, off, len, k, out, 0));
  }

  /**
   * As {@link #anyAll(long[], int, int, int, boolean[])} over direct buffers, with no copy: the
   * native-order, 8-byte aligned fingerprints between position and limit; one byte per answer
   * (1 = a match within k) from out's position. Positions are left unchanged.
   */
  public void anyAll(ByteBuffer fingerprints, int k, ByteBuffer out) {
    checkK(k);
    long n = Batches.longsIn(fingerprints, "fingerprints");
    Batches.checkOut(n, out);
    handle.run(this, h -> NativeSimHash.anyDirect(h, fingerprints, fingerprints.position(), n, k,
        out, out.position()));
  }

  /** Every match of each of {@code fingerprints[off .. off+len)} within k, in one native call. */
  public BatchMatches queryAll(long[] fingerprints, int off, int len, int k) {
    checkK(k);
    Objects.checkFromIndexSize(off, len, fingerprints.length);
    Object[] out = new Object[3];
    handle.run(this, h -> NativeSimHash.queryBatch(h, fingerprints, off, len, k, out));
    return new BatchMatches((int[]) out[0], (long[]) out[1], (int[]) out[2]);
  }

  /** {@link #queryAll(long[], int, int, int)} of every fingerprint, within {@link #maxK()}. */
  public BatchMatches queryAll(long[] fingerprints) {
    return queryAll(fingerprints, 0, fingerprints.length, maxK);
  }

  /** All-pairs clusters within {@link #maxK()}. */
  public Clusters clusters() {
    return clusters(maxK);
  }

  /** All-pairs clusters within {@code k}: one query per pair, spread over up to 8 threads. */
  public Clusters clusters(int k) {
    checkK(k);
    Object[] out = new Object[2];
    handle.run(this, h -> NativeSimHash.clusters(h, k, out));
    return new Clusters((long[]) out[0], (int[]) out[1]);
  }

  private long[] info() {
    long[] out = new long[4];
    handle.run(this, h -> NativeSimHash.info(h, out));
    return out;
  }

  /** The pairs in the index, staged ones included. */
  public long size() {
    return info()[0];
  }

  /** The largest k a query may use. */
  public int maxK() {
    handle.get();
    return maxK;
  }

  /** True for an index opened from a file: adds and removes throw READ_ONLY. */
  public boolean isReadOnly() {
    return info()[2] != 0;
  }

  /** The memory of the built tables in bytes (builds them if needed). */
  public long memoryBytes() {
    return info()[3];
  }

  /** The serialized form (docs/FORMAT.md, kind 6), the same bytes every binding writes. */
  public byte[] toByteArray() {
    try {
      return Serialized.toByteArray(
          handle, NativeSimHash::serializedSize, NativeSimHash::serialize,
          Serialized.USE_SAVE);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /** Writes {@link #toByteArray()} to {@code out}; read it back with {@link #readFrom}. */
  public void writeTo(OutputStream out) throws IOException {
    out.write(toByteArray());
  }

  /** Saves crash-safely: a temporary file, fsync, then a rename over {@code path}. */
  public void save(Path path) {
    handle.run(this, h -> NativeSimHash.save(h, Utf8.nulTerminated(path)));
  }

  /** Releases the native memory or mapping. Idempotent. */
  @Override
  public void close() {
    handle.close();
  }

  @Override
  public String toString() {
    return handle.isClosed() ? "SimHashIndex[closed]" : "SimHashIndex[maxK " + maxK + "]";
  }
}
