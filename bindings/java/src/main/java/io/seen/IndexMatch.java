package io.seen;

/**
 * One stored id that an index query found, and how near it is to the query: what
 * {@link SimHashIndex.Match} (a distance in bits) and {@link MinHashIndex.Match} (an estimated
 * similarity) both are. Two matches are equal when their kind, id and nearness are; a match
 * shows as {@code id@nearness}, the form docs/java.md prints.
 */
abstract class IndexMatch {
  private final long id;
  /**
   * An Integer distance or a Double similarity: a Number, so that equality, hashing and the
   * text of both kinds are written once here; each kind's accessor reads it as its own type.
   */
  final Number nearness;

  IndexMatch(long id, Number nearness) {
    this.id = id;
    this.nearness = nearness;
  }

  public long id() {
    return id;
  }

  @Override
  public boolean equals(Object o) {
    if (o == null || o.getClass() != getClass()) {
      return false;
    }
    IndexMatch m = (IndexMatch) o;
    return m.id == id && m.nearness.equals(nearness);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(id) * 31 + nearness.hashCode();
  }

  @Override
  public String toString() {
    return id + "@" + nearness;
  }
}
