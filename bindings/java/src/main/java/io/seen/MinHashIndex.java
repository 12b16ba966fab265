package io.seen;

import java.lang.ref.Reference;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Texts by id, and for a query text every stored one whose estimated Jaccard similarity of
 * word (or CJK character) pairs is at least the threshold, most similar first, each match
 * verified (docs/minhash.md). Right where {@link SimHashIndex} is not: short texts, and texts
 * with an inserted header, footer or advert.
 *
 * <pre>{@code
 * try (MinHashIndex index = MinHashIndex.create(0.8)) {
 *   index.add(1, text);
 *   for (MinHashIndex.Match m : index.query(copy)) { ... }
 * }
 * }</pre>
 *
 * <p>Thread safety: {@link #query} and {@link #size} may run concurrently; {@link #add},
 * {@link #remove} and {@link #close} need exclusive access. The native memory is released by
 * {@link #close()}, or by a Cleaner once the index is unreachable.
 */
public final class MinHashIndex implements AutoCloseable {
  /** Matches a query expects at first; more cost a second native call. */
  private static final int FIRST_CAP = 16;

  private final NativeHandle handle;

  /** One stored text found by a query: its id and estimated Jaccard similarity. */
  public static final class Match extends IndexMatch {
    Match(long id, double similarity) {
      super(id, similarity);
    }

    public double similarity() {
      return nearness.doubleValue();
    }
  }

  private MinHashIndex(long h) {
    this.handle = new NativeHandle(this, h, Kind.MINHASH);
  }

  private static MinHashIndex make(double threshold, byte[] key) {
    long[] out = new long[1];
    NativeMinHash.create(threshold, key, out);
    return new MinHashIndex(out[0]);
  }

  /** An empty index at a Jaccard threshold in (0, 1]. */
  public static MinHashIndex create(double threshold) {
    return make(threshold, null);
  }

  /**
   * An index whose shingles hash under a secret key of 16 to 64 bytes, so that nobody without
   * it can craft a text near another's sketch (docs/SECURITY.md).
   */
  public static MinHashIndex createKeyed(double threshold, byte[] key) {
    return make(threshold, key.clone());
  }

  /** Stores text under id, replacing what id held. */
  public void add(long id, CharSequence text) {
    byte[] utf8 = Utf8.of(text);
    handle.run(this, h -> NativeMinHash.add(h, id, utf8));
  }

  /** Removes id; returns whether it was stored. */
  public boolean remove(long id) {
    return handle.answer(this, h -> NativeMinHash.remove(h, id)) == 1;
  }

  /** Every stored text at or above the threshold, most similar first. */
  public List<Match> query(CharSequence text) {
    byte[] utf8 = Utf8.of(text);
    long[] ids = new long[FIRST_CAP];
    double[] similarities = new double[FIRST_CAP];
    long found = query(utf8, ids, similarities);
    if (found > ids.length) {
      ids = new long[(int) found];
      similarities = new double[(int) found];
      found = query(utf8, ids, similarities);
    }
    List<Match> out = new ArrayList<>((int) found);
    for (int i = 0; i < found; i++) {
      out.add(new Match(ids[i], similarities[i]));
    }
    return out;
  }

  /** How many matches there are; up to ids.length of them are written. */
  private long query(byte[] utf8, long[] ids, double[] similarities) {
    return handle.count(this, h -> NativeMinHash.query(h, utf8, ids, similarities));
  }

  /** The serialized form (docs/FORMAT.md, kind 7), the same bytes every binding writes. */
  public byte[] toByteArray() {
    try {
      return Serialized.toByteArray(handle, Kind.MINHASH);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /** Saves crash-safely: a temporary file, fsync, then a rename over {@code path}. */
  public void save(Path path) {
    byte[] name = Utf8.nulTerminated(path);
    handle.run(this, h -> NativeKinds.save(Kind.MINHASH.code, h, name));
  }

  /**
   * A writable index from the serialized form, after full validation; its threshold comes from
   * the bytes. {@code key} is null for an unkeyed index; a keyed one needs its key (else
   * INCOMPATIBLE).
   */
  public static MinHashIndex fromBytes(byte[] bytes, byte[] key) {
    return NativeObject.fromBytes(Kind.MINHASH, bytes, key, MinHashIndex::wrap);
  }

  /** A writable index read from a file {@link #save(Path)} wrote, with the key rule of fromBytes. */
  public static MinHashIndex open(Path path, byte[] key) {
    return NativeObject.open(
        Kind.MINHASH, path, Mode.PRIVATE_COPY.flags, key, MinHashIndex::wrap);
  }

  /** A {@link NativeObject.Maker}; unlike a NativeObject, the index keeps no copy of its key. */
  private static MinHashIndex wrap(long h, byte[] key) {
    return new MinHashIndex(h);
  }

  /** Texts stored. */
  public long size() {
    return handle.count(this, NativeMinHash::size);
  }

  @Override
  public void close() {
    handle.close();
  }
}
