# The Java consumer (sourced by scripts/release-check): the README's command puts the jar and pom
# into a local repository (its mvn install:install-file), and a fresh Maven project with the
# README's <dependency> compiles and runs the example of docs/java.md, printing what the page
# says, where Debian's libhwy is hidden.
# maven_consumer DIST REPOSITORY
#   REPOSITORY: the local repository, kept between runs for Maven's plugins; never for seen.
maven_consumer() {
  local dist=$1 repository=$2 app="$scratch/maven"
  rm -rf "$repository/io/github/seen-bloom"
  mkdir -p "$app/src/main/java" && ln -sfn "$dist" "$app/dist"
  # MAVEN_OPTS: the README's command as written, into REPOSITORY instead of ~/.m2.
  check "the README's mvn command installs the jar and pom into a local repository" \
    sh -c 'cd "$0" && MAVEN_OPTS="-Dmaven.repo.local=$1" sh -ec "$2" >/dev/null' \
    "$app" "$repository" "$(readme_block 'Java: a Maven artifact')"
  {
    cat <<'POM'
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>example</groupId>
  <artifactId>app</artifactId>
  <version>1</version>
  <properties>
    <maven.compiler.source>11</maven.compiler.source>
    <maven.compiler.target>11</maven.compiler.target>
  </properties>
  <dependencies>
POM
    readme_block 'Java: a Maven artifact' xml
    echo '  </dependencies>'
    echo '</project>'
  } > "$app/pom.xml"
  first_block java "$root/docs/java.md" > "$app/src/main/java/SeenExample.java"
  first_block text "$root/docs/java.md" > "$scratch/maven-expected"
  check "a Maven project with the README's <dependency> compiles against it" \
    sh -c 'cd "$0" && mvn -B -q "-Dmaven.repo.local=$1" compile dependency:build-classpath -Dmdep.outputFile=cp.txt' \
    "$app" "$repository"
  check "and runs the example of docs/java.md where libhwy is hidden, printing what the page says" \
    without_libhwy sh -c 'java -cp "$0/target/classes:$(cat "$0/cp.txt")" SeenExample > "$1/maven-printed" &&
      diff "$1/maven-expected" "$1/maven-printed"' "$app" "$scratch"
}
