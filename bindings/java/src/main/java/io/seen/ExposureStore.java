package io.seen;

import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;

/**
 * Exposure filtering for many users: one {@link Window}-like window per user id, for
 * millions of users, in one compact native arena (about 15 bytes per user beside the window).
 * A user appears on their first {@link #mark} or {@link #take}, and is dropped after the idle
 * timeout without one.
 *
 * <pre>{@code
 * ExposureStore store = ExposureStore.builder(WindowSpec.lastItems(500).fpr(0.01))
 *     .idleTimeout(Duration.ofDays(1)).maxBytes(8L << 30).expectedUsers(10_000_000).build();
 * long[] page = store.take(user, candidates, 0, candidates.length, 20, now);
 * }</pre>
 *
 * <p>Thread safety: every method except {@link #close()} is thread-safe, as in the C store:
 * users are spread over 64 shards, each with its own lock, so threads serving different users
 * rarely wait for each other. {@link #take} is atomic per user: two concurrent takes for one
 * user never return the same item. {@link #save} holds every shard's lock while it writes.
 * {@link #close()} needs exclusive access: no other call may run at the same time.
 *
 * <p>Time: {@code now} is the caller's clock in seconds of any epoch, at most 2^32 - 1 (else
 * {@link SeenException} INVALID_ARGUMENT). Idle time is counted in whole hours.
 *
 * <p>Lifetime: {@link #close()} frees the native memory (or unmaps the file), or a
 * {@link Cleaner} does once the store is unreachable. Closing twice is harmless; any other call
 * after close throws {@link IllegalStateException}.
 */
public final class ExposureStore implements AutoCloseable {
  /** The C API's idle_timeout meaning "never". */
  private static final long NEVER = 0xFFFF_FFFFL;

  private final NativeHandle handle;
  private final boolean readOnly;

  private ExposureStore(long handle, boolean readOnly) {
    this.readOnly = readOnly;
    this.handle = new NativeHandle(this, handle, Kind.STORE);
  }

  /** Counters of a store at one moment. */
  public static final class Stats {
    private final long users;
    private final long bytes;
    private final long evictions;
    private final long expirations;

    Stats(long[] v) {
      users = v[0];
      bytes = v[1];
      evictions = v[2];
      expirations = v[3];
    }

    /** Users held now. */
    public long users() {
      return users;
    }

    /** Native memory held by windows, ids, times and the index. */
    public long bytes() {
      return bytes;
    }

    /** Users dropped by the memory bound, since creation. */
    public long evictions() {
      return evictions;
    }

    /** Users dropped for idleness, since creation. */
    public long expirations() {
      return expirations;
    }

    @Override
    public String toString() {
      return String.format(Locale.ROOT,
          "Stats[users %d, bytes %d, evictions %d, expirations %d]",
          users, bytes, evictions, expirations);
    }
  }

  /** Options of a new store; every one has a default but the window. */
  public static final class Builder {
    private final WindowSpec window;
    private long idleTimeout;
    private long maxBytes;
    private long expectedUsers;

    private Builder(WindowSpec window) {
      this.window = Objects.requireNonNull(window, "window");
    }

    /**
     * Drops a user after this long without a mark or take (default 24 hours; counted in whole
     * hours). At least one second and below 2^32 - 1 seconds.
     */
    public Builder idleTimeout(Duration timeout) {
      long seconds = timeout.getSeconds();
      if (seconds < 1 || seconds >= NEVER) {
        throw new IllegalArgumentException("idleTimeout must be 1 s .. 2^32 - 2 s, not " + timeout);
      }
      idleTimeout = seconds;
      return this;
    }

    /** Keeps idle users until the memory bound evicts them. */
    public Builder neverExpire() {
      idleTimeout = NEVER;
      return this;
    }

    /**
     * The memory bound in bytes (default: none). At the bound a new user evicts the least
     * recently active of a sample of users, never the user being written, and
     * {@link Stats#evictions()} counts it.
     */
    public Builder maxBytes(long maxBytes) {
      if (maxBytes < 0) {
        throw new IllegalArgumentException("maxBytes is negative: " + maxBytes);
      }
      this.maxBytes = maxBytes;
      return this;
    }

    /** Sizes the index up front (default 2^20); more users still fit. */
    public Builder expectedUsers(long expectedUsers) {
      if (expectedUsers < 0) {
        throw new IllegalArgumentException("expectedUsers is negative: " + expectedUsers);
      }
      this.expectedUsers = expectedUsers;
      return this;
    }

    public ExposureStore build() {
      long[] out = new long[1];
      NativeStore.create(window.unit.code, window.span,
          window.expectedItems, window.fpr, window.maxSlack, window.seed, window.maxBytes,
          window.key, idleTimeout, maxBytes, expectedUsers, out);
      return new ExposureStore(out[0], false);
    }
  }

  /** Starts a store whose users each get a window as {@code window} says. */
  public static Builder builder(WindowSpec window) {
    return new Builder(window);
  }

  /** {@link #open(Path, Mode, boolean)} with the payload checksum verified. */
  public static ExposureStore open(Path path, Mode mode) {
    return open(path, mode, true);
  }

  /**
   * Maps a store written by {@link #save(Path)} (or by any binding). {@link Mode#READ_ONLY}
   * answers {@link #filter} only: mark and take throw {@link SeenException} READ_ONLY.
   * {@link Mode#PRIVATE_COPY} takes writes in memory; they reach a file on the next save, never
   * the mapped file in place. With {@code verify} false the payload checksum is skipped, so a
   * large store opens in about a second, and a corrupt window is refused when its user is
   * touched. Throws {@link SeenException} with BAD_MAGIC, TRUNCATED, BAD_CHECKSUM, IO, ... on
   * a bad file, and INCOMPATIBLE for a keyed store's file.
   */
  public static ExposureStore open(Path path, Mode mode, boolean verify) {
    return mapped(path, mode, verify, null);
  }

  /** {@link #open(Path, Mode, boolean, byte[])} with the payload checksum verified. */
  public static ExposureStore open(Path path, Mode mode, byte[] key) {
    return open(path, mode, true, key);
  }

  /**
   * Maps a keyed store's file (one built from a {@link WindowSpec#key keyed spec}), with its
   * key, as {@link #open(Path, Mode, boolean)}; a missing or wrong key throws SeenException
   * INCOMPATIBLE.
   */
  public static ExposureStore open(Path path, Mode mode, boolean verify, byte[] key) {
    return mapped(path, mode, verify, NativeObject.secret(key));
  }

  /** The store of a file, keyed if {@code key} is not null. */
  private static ExposureStore mapped(Path path, Mode mode, boolean verify, byte[] key) {
    long[] out = new long[1];
    int flags = mode.flags | (verify ? 0 : Mode.NO_VERIFY);
    NativeKinds.open(Kind.STORE.code, Utf8.nulTerminated(path), flags, key, out);
    return new ExposureStore(out[0], mode == Mode.READ_ONLY);
  }

  /**
   * Sets {@code unseen[i]} to true if {@code candidates[off + i]} was not shown to the user
   * (is not in their window), for i in 0 .. len. A user the store does not hold has seen
   * nothing. Does not count as activity. Never false for an item the user was shown within the
   * window's span; wrongly false for an unshown one at about the window's rate.
   */
  public void filter(long user, long[] candidates, int off, int len, long now, boolean[] unseen) {
    Objects.checkFromIndexSize(off, len, candidates.length);
    Batches.checkOut(len, unseen);
    handle.run(this, h -> NativeStore.filter(h, user, candidates, off, len, now, unseen, 0));
  }

  /** One answer per candidate: true if unseen. */
  public boolean[] filter(long user, long[] candidates, long now) {
    boolean[] unseen = new boolean[candidates.length];
    filter(user, candidates, 0, candidates.length, now, unseen);
    return unseen;
  }

  /** Records that {@code items[off .. off+len)} were shown to the user at {@code now}. */
  public void mark(long user, long[] items, int off, int len, long now) {
    Objects.checkFromIndexSize(off, len, items.length);
    handle.run(this, h -> NativeStore.mark(h, user, items, off, len, now));
  }

  public void mark(long user, long[] items, long now) {
    mark(user, items, 0, items.length, now);
  }

  public void mark(long user, long item, long now) {
    mark(user, new long[] {item}, 0, 1, now);
  }

  /**
   * The paginated feed, in one atomic step: the first {@code want} candidates of
   * {@code candidates[off .. off+len)} that the user has not seen, in order, go to
   * {@code taken[takenOff ..]} and are marked as shown. Returns how many were taken (fewer
   * than want when the candidates run out). Two concurrent takes for one user never return
   * the same item. {@code taken} needs room for {@code want} ids from takenOff.
   */
  public int take(long user, long[] candidates, int off, int len, int want, long now,
      long[] taken, int takenOff) {
    Objects.checkFromIndexSize(off, len, candidates.length);
    if (want < 0) {
      throw new IllegalArgumentException("want is negative: " + want);
    }
    Objects.checkFromIndexSize(takenOff, want, taken.length);
    return (int) handle.count(this,
        h -> NativeStore.take(h, user, candidates, off, len, want, now, taken, takenOff));
  }

  /** As {@link #take(long, long[], int, int, int, long, long[], int)}, into a new array. */
  public long[] take(long user, long[] candidates, int off, int len, int want, long now) {
    if (want < 0) {
      throw new IllegalArgumentException("want is negative: " + want);
    }
    long[] taken = new long[Math.max(0, Math.min(want, len))];
    int count = take(user, candidates, off, len, taken.length, now, taken, 0);
    return count == taken.length ? taken : Arrays.copyOf(taken, count);
  }

  /**
   * As {@link #filter(long, long[], int, int, long, boolean[])} for the 64-bit ids between the
   * position and limit of a direct buffer, in native byte order and 8-byte aligned: one byte
   * per candidate (1 = unseen, 0 = seen) goes to {@code unseen} from its position. No copy is
   * made. Positions are left unchanged.
   */
  public void filter(long user, ByteBuffer candidates, long now, ByteBuffer unseen) {
    long n = Batches.longsIn(candidates, "candidates");
    Batches.checkOut(n, unseen);
    handle.run(this, h -> NativeStore.filterDirect(h, user, candidates, candidates.position(), n,
        now, unseen, unseen.position()));
  }

  /** As {@link #mark(long, long[], int, int, long)} for the ids of a direct buffer. */
  public void mark(long user, ByteBuffer items, long now) {
    long n = Batches.longsIn(items, "items");
    handle.run(this, h -> NativeStore.markDirect(h, user, items, items.position(), n, now));
  }

  /**
   * As {@link #take(long, long[], int, int, int, long, long[], int)} for the ids of a direct
   * buffer: the ids taken are written to {@code taken} from its position, in native byte
   * order, which needs room for {@code want} of them and 8-byte alignment. Returns how many.
   * Positions are left unchanged.
   */
  public int take(long user, ByteBuffer candidates, int want, long now, ByteBuffer taken) {
    long n = Batches.longsIn(candidates, "candidates");
    if (want < 0) {
      throw new IllegalArgumentException("want is negative: " + want);
    }
    Batches.checkOut((long) want * Long.BYTES, taken);
    if (want > 0 && taken.alignmentOffset(taken.position(), Long.BYTES) != 0) {
      throw new IllegalArgumentException("taken must start 8-byte aligned");
    }
    return (int) handle.count(this, h -> NativeStore.takeDirect(
        h, user, candidates, candidates.position(), n, want, now, taken, taken.position()));
  }

  /** Drops every user idle longer than the idle timeout at {@code now}; returns how many. */
  public long expire(long now) {
    return handle.count(this, h -> NativeStore.expire(h, now));
  }

  public Stats stats() {
    long[] v = new long[4];
    handle.run(this, h -> NativeStore.stats(h, v));
    return new Stats(v);
  }

  /** What every user's window is: layout, span, slack, state bytes, predicted rate. */
  public WindowInfo windowInfo() {
    long[] v = WindowInfo.buffer();
    handle.run(this, h -> NativeStore.windowInfo(h, v));
    return WindowInfo.of(v);
  }

  /** True for a store opened with {@link Mode#READ_ONLY}. */
  public boolean isReadOnly() {
    handle.get();
    return readOnly;
  }

  /**
   * Saves crash-safely: a temporary file, fsync, then a rename over {@code path}; on failure
   * the previous file at path is left intact. Holds every shard's lock meanwhile, so other
   * calls wait.
   */
  public void save(Path path) {
    handle.run(this, h -> NativeKinds.save(Kind.STORE.code, h, Utf8.nulTerminated(path)));
  }

  /** Releases the native memory or the mapping. Idempotent; needs exclusive access. */
  @Override
  public void close() {
    handle.close();
  }
}
