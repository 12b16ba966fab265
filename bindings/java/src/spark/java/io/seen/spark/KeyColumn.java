package io.seen.spark;

import org.apache.spark.rdd.RDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;

/**
 * One column of a Dataset as the rows that hold its keys. They are Spark's internal rows, not
 * {@link Row}s: those would decode every string into a Java String (invalid UTF-8 turned into
 * U+FFFD) and box every long.
 */
final class KeyColumn {
  /** How the values of the column are read from its internal rows. */
  enum Kind { STRING, BINARY, LONG }

  private final Dataset<Row> selected;
  private final Kind kind;

  private KeyColumn(Dataset<Row> selected, Kind kind) {
    this.selected = selected;
    this.kind = kind;
  }

  /** The column, with the smaller integer types widened (sign-extended) to long. */
  static KeyColumn of(Dataset<Row> df, String column) {
    DataType type = df.schema().apply(column).dataType();
    if (type instanceof StringType) {
      return new KeyColumn(df.select(df.col(column)), Kind.STRING);
    }
    if (type instanceof BinaryType) {
      return new KeyColumn(df.select(df.col(column)), Kind.BINARY);
    }
    if (type instanceof LongType || type instanceof IntegerType || type instanceof ShortType
        || type instanceof ByteType) {
      return new KeyColumn(df.select(df.col(column).cast(DataTypes.LongType)), Kind.LONG);
    }
    throw new IllegalArgumentException(column + " is " + type.simpleString()
        + ": keys are strings, binaries or integers");
  }

  Kind kind() {
    return kind;
  }

  /** One row per value, the value in field 0. */
  RDD<InternalRow> rows() {
    return selected.queryExecution().toRdd();
  }
}
