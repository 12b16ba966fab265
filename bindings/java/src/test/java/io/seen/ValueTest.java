package io.seen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;

import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.BiPredicate;
import java.util.function.LongFunction;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Filters and windows as values, as Guava's filter is: copy, equals and hashCode (of every kind),
 * Java serialization, and predicate views.
 */
class ValueTest {
  /** One kind as a value: an empty object of seed s, its put and its query of a key. */
  private static final class Kind<T extends NativeObject<T>> {
    final LongFunction<T> make;
    final BiConsumer<T, String> put;
    final BiPredicate<T, String> contains;

    Kind(LongFunction<T> make, BiConsumer<T, String> put, BiPredicate<T, String> contains) {
      this.make = make;
      this.put = put;
      this.contains = contains;
    }
  }

  static Stream<Arguments> kinds() {
    return Stream.of(
        Arguments.of("bloom", new Kind<BloomFilter>(s -> BloomFilter.create(1000, 0.01, s),
            BloomFilter::put, BloomFilter::mightContain)),
        Arguments.of("counting", new Kind<CountingFilter>(
            s -> CountingFilter.create(1000, 0.01, s), CountingFilter::put,
            CountingFilter::mightContain)),
        Arguments.of("scalable", new Kind<ScalableFilter>(
            s -> ScalableFilter.create(1000, 0.01, 2, 0.5, s), ScalableFilter::put,
            ScalableFilter::mightContain)),
        Arguments.of("window", new Kind<Window>(
            s -> Window.create(WindowSpec.lastItems(100).seed(s), 0), Window::put,
            Window::mightContain)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kinds")
  <T extends NativeObject<T>> void aCopyIsEqualAndIndependent(String name, Kind<T> kind) {
    try (T f = kind.make.apply(3); T g = kind.make.apply(3)) {
      kind.put.accept(f, "a");
      kind.put.accept(g, "a");
      try (T copy = f.copy()) {
        assertEquals(f, copy);
        assertEquals(f.hashCode(), copy.hashCode());
        assertEquals(f, g);
        kind.put.accept(copy, "b");
        assertNotEquals(f, copy);
        assertTrue(kind.contains.test(copy, "b"));
        assertFalse(kind.contains.test(f, "b"), "the copy's put does not reach the original");
      }
      try (T otherSeed = kind.make.apply(4)) {
        kind.put.accept(otherSeed, "a");
        assertNotEquals(f, otherSeed);
      }
      assertNotEquals(f, "a");
    }
  }

  static byte[] javaSerialized(Object o) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(o);
    }
    return bytes.toByteArray();
  }

  static Object javaDeserialized(byte[] stream) throws IOException, ClassNotFoundException {
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(stream))) {
      return in.readObject();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kinds")
  <T extends NativeObject<T>> void javaSerializationMakesAnEqualIndependentObject(String name, Kind<T> kind)
      throws Exception {
    try (T f = kind.make.apply(5)) {
      kind.put.accept(f, "a");
      @SuppressWarnings("unchecked")
      T back = (T) javaDeserialized(javaSerialized(f));
      try (back) {
        assertEquals(f.getClass(), back.getClass());
        assertEquals(f, back);
        assertTrue(kind.contains.test(back, "a"));
        kind.put.accept(back, "b");
        assertFalse(kind.contains.test(f, "b"), "the copy's put does not reach the original");
      }
    }
  }

  @Test
  void keyedObjectsAndBadFormsAreRefused() throws Exception {
    byte[] key = new byte[16];
    try (BloomFilter keyed = BloomFilter.createKeyed(1000, 0.01, key)) {
      assertThrows(NotSerializableException.class, () -> javaSerialized(keyed));
    }
    byte[] garbage = javaSerialized(new SerialForm(io.seen.Kind.BLOOM, new byte[] {1, 2, 3}));
    assertThrows(InvalidObjectException.class, () -> javaDeserialized(garbage));
  }

  @Test
  void predicatesFilterStreams() {
    try (BloomFilter f = BloomFilter.create(1000, 0.01)) {
      f.put("seen-1");
      f.put(42L);
      List<String> fresh =
          List.of("seen-1", "new-1", "new-2").stream()
              .filter(f.asPredicate().negate())
              .collect(Collectors.toList());
      assertEquals(List.of("new-1", "new-2"), fresh);
      assertTrue(LongStream.of(1, 42, 43).anyMatch(f.asLongPredicate()));
      assertEquals(1, LongStream.of(1, 42, 43).filter(f.asLongPredicate()).count());
    }
  }
}
