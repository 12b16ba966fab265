package io.seen;

/** Run in a child JVM by LoaderTest: prints where the JNI library came from, then uses it. */
public final class LoaderProbe {
  private LoaderProbe() {}

  public static void main(String[] args) {
    System.out.println(NativeLoader.load());
    try (BloomFilter f = BloomFilter.create(10, 0.01)) {
      f.put(1L);
      System.out.println(f.mightContain(1L));
    }
  }
}
