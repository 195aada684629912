# Sourced by ./mnemo, bin/test and .ci/run: finds a JDK 21+ and Maven, or says what is missing.
# Sets JAVA_HOME and puts its bin first on PATH. Order: $JAVA_HOME, the java on PATH, then the
# usual install locations (/usr/lib/jvm, /opt/java, /usr/local, ~/.sdkman, ~/.jdks).

mnemo_java_major() { # prints the major version of "$1/bin/java", or nothing
  [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || return 0
  # A JDK's release file says its version (JAVA_VERSION="25.0.3"): read, not run, since every
  # ./mnemo call looks at each candidate and a `java -version` is 20-50 ms of it. Run when absent.
  local line v=""
  if [ -r "$1/release" ]; then
    while IFS= read -r line || [ -n "$line" ]; do
      case $line in JAVA_VERSION=*) v=${line#JAVA_VERSION=} && v=${v//\"/} && break ;; esac
    done <"$1/release"
  fi
  if [ -n "$v" ]; then
    v=${v#1.} # 1.8.0_292 is 8
    echo "${v%%[!0-9]*}"
    return 0
  fi
  "$1/bin/java" -version 2>&1 | awk -F'"' '/version/ { split($2, v, "."); print (v[1] == "1" ? v[2] : v[1]); exit }'
}

mnemo_find_jdk() {
  local candidates=() seen="" c major
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  if command -v java >/dev/null 2>&1; then
    candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")")
  fi
  for c in /usr/lib/jvm/* /opt/java/* /opt/jdk* /usr/local/jdk* "$HOME"/.sdkman/candidates/java/* "$HOME"/.jdks/*; do
    [ -d "$c" ] && candidates+=("$c")
  done
  # prefer the newest JDK of 21 or more
  local best="" best_major=0
  for c in "${candidates[@]}"; do
    case " $seen " in *" $c "*) continue ;; esac
    seen="$seen $c"
    major=$(mnemo_java_major "$c")
    [ -n "$major" ] || continue
    seen_versions="${seen_versions:-}$c (java $major); "
    if [ "$major" -ge 21 ] && [ "$major" -gt "$best_major" ]; then best="$c"; best_major="$major"; fi
  done
  if [ -z "$best" ]; then
    echo "mnemo: needs a JDK 21 or newer, and found none." >&2
    echo "  looked at: ${seen_versions:-no JDK at all}" >&2
    echo "  $(mnemo_jdk_hint)" >&2
    return 1
  fi
  export JAVA_HOME="$best"
  export PATH="$JAVA_HOME/bin:$PATH"
  if ! command -v mvn >/dev/null 2>&1; then
    echo "mnemo: needs Apache Maven 3.8+ to build, and 'mvn' is not on PATH." >&2
    echo "  install it (e.g. 'apt-get install maven') or put it on PATH." >&2
    return 1
  fi
}

# How to install a JDK 21+ here: distributions differ (Debian 12 ships only OpenJDK 17).
mnemo_jdk_hint() {
  local id="" version="" release="${MNEMO_OS_RELEASE:-/etc/os-release}"
  if [ -r "$release" ]; then
    id=$(. "$release" && echo "${ID:-}")
    version=$(. "$release" && echo "${VERSION_ID:-}")
  fi
  case "$id:$version" in
    debian:1[3-9]*|ubuntu:2[2-9]*|ubuntu:[3-9]*)
      echo "install one with 'apt-get install openjdk-21-jdk-headless' (or any JDK 21+), or set JAVA_HOME to it." ;;
    debian:*)
      echo "Debian ${version:-before 13} has no OpenJDK 21 package: install Eclipse Temurin 21+ (https://adoptium.net/installation/linux/, package temurin-21-jdk), or set JAVA_HOME to a JDK 21+." ;;
    *)
      echo "install a JDK 21 or newer (e.g. Eclipse Temurin from https://adoptium.net, or your system's openjdk-21 package), or set JAVA_HOME to it." ;;
  esac
}
