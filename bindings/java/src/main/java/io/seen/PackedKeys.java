package io.seen;

/** Byte keys packed into one buffer plus n+1 offsets: the layout every batch call takes. */
final class PackedKeys {
  final byte[] data;
  final int[] offsets;

  private PackedKeys(byte[] data, int[] offsets) {
    this.data = data;
    this.offsets = offsets;
  }

  static PackedKeys of(byte[][] keys) {
    int[] offsets = new int[keys.length + 1];
    long total = 0;
    for (int i = 0; i < keys.length; i++) {
      total += keys[i].length;
      if (total > Integer.MAX_VALUE - 8) {
        throw new IllegalArgumentException("keys hold more than 2 GiB: split the batch");
      }
      offsets[i + 1] = (int) total;
    }
    byte[] data = new byte[(int) total];
    for (int i = 0; i < keys.length; i++) {
      System.arraycopy(keys[i], 0, data, offsets[i], keys[i].length);
    }
    return new PackedKeys(data, offsets);
  }
}
