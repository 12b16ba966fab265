"""The Spark session the Spark benchmarks run on: local[2] over loopback, with seen's jars."""
import os
import sys

from pyspark.sql import SparkSession


def session(app, jars):
    """A local[2] session whose Python workers import seen from this environment; jars is a
    comma-separated list, as spark-submit --jars takes it."""
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    spark = (SparkSession.builder.master("local[2]").appName(app)
             .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
             .config("spark.driver.bindAddress", "127.0.0.1")
             .config("spark.jars", jars).config("spark.driver.memory", "2g").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    return spark
