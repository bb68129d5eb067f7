#!/usr/bin/env bash
# Installs accelmath into a temporary prefix and builds tests/consumer against it, as another
# project would (docs/install.md):
#   (a) the shared install through find_package(accelmath), (b) the shared install through
#   pkg-config, (c) a static build of accelmath (library and CLI only), installed, through
#   find_package and through `pkg-config --static`.
# Each consumer must run and print its check; the shared ones must need libaccelmath.so.0.1 (the
# SONAME), the static ones no libaccelmath at all. Nothing installed may name the build or source
# tree. (Pipelines into `grep -q` are avoided: with pipefail, the writer's SIGPIPE would fail them.)
# Usage: install_consumer.sh <build dir> <source dir> <cmake> <C++ compiler>
set -euo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd) cmake=$3 cxx=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
consumer=$src/tests/consumer
jobs=2  # the CTest property PROCESSORS reserves as many

fail() { echo "FAIL: $*"; exit 1; }
step() { echo "== $*"; }

# Configure, build and run the consumer against the accelmath installed in prefix $1.
cmake_consumer() {
  local prefix=$1 dir=$2
  "$cmake" -S "$consumer" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$cxx" \
    -DCMAKE_PREFIX_PATH="$prefix" > "$dir.log" 2>&1 || { cat "$dir.log"; fail "configure $dir"; }
  "$cmake" --build "$dir" > "$dir.log" 2>&1 || { cat "$dir.log"; fail "build $dir"; }
  "$dir/consumer"
}

# The directory of accelmath.pc under prefix $1 (the GNUInstallDirs libdir: lib or lib64).
pc_dir() { dirname "$(find "$1" -name accelmath.pc -print -quit)"; }

# Prints the shared libraries binary $1 needs; fails unless it needs libaccelmath.so.0.1 ($2 = yes)
# or no libaccelmath at all ($2 = no).
check_needs() {
  local needs
  needs=$(readelf -d "$1" | grep NEEDED || true)
  echo "$needs"
  case $2 in
    yes) grep -q 'libaccelmath\.so\.0\.1\]' <<< "$needs" || fail "$1 does not need libaccelmath.so.0.1"
         # ... and loads the installed one, not the build tree's.
         grep -q "libaccelmath\.so\.0\.1 => $tmp/shared/" <<< "$(ldd "$1")" || fail "$1 does not load the installed library" ;;
    no) if grep -q libaccelmath <<< "$needs"; then fail "$1 needs libaccelmath"; fi ;;
  esac
}

step "install the build tree ($build)"
"$cmake" --install "$build" --prefix "$tmp/shared" > /dev/null
if grep -rIl -e "$build" -e "$src" "$tmp/shared"; then fail "installed files name the build or source tree"; fi
lib_dynamic=$(readelf -d "$(find "$tmp/shared" -name 'libaccelmath.so.*.*.*' -print -quit)")
grep -E 'SONAME|RUNPATH|RPATH' <<< "$lib_dynamic" || true
grep -q 'SONAME.*\[libaccelmath\.so\.0\.1\]' <<< "$lib_dynamic" || fail "SONAME is not libaccelmath.so.0.1"
"$tmp/shared/bin/accelmath" list > /dev/null || fail "installed CLI does not run"
# The GPU backend, where the build has it (ACCELMATH_CUDA): its library, headers and exported target.
if [ -e "$build/libaccelmath_cuda.so" ]; then
  [ -f "$(find "$tmp/shared" -name 'libaccelmath_cuda.so.0.1' -print -quit)" ] || fail "libaccelmath_cuda not installed"
  for h in cuda.h cuda_atomic.h detail/atomic_combine.h; do
    [ -f "$tmp/shared/include/accelmath/$h" ] || fail "accelmath/$h not installed"
  done
  grep -rq 'accelmath::accelmath_cuda' "$tmp/shared" || fail "no exported target accelmath::accelmath_cuda"
  echo "GPU backend installed: libaccelmath_cuda, accelmath/cuda.h, accelmath::accelmath_cuda"
fi

step "(a) shared, find_package"
cmake_consumer "$tmp/shared" "$tmp/a"
check_needs "$tmp/a/consumer" yes

step "(b) shared, pkg-config"
export PKG_CONFIG_PATH
PKG_CONFIG_PATH=$(pc_dir "$tmp/shared")
libdir=$(pkg-config --variable=libdir accelmath)
# shellcheck disable=SC2046  # pkg-config's flags are meant to split into words
"$cxx" -std=c++20 "$consumer/main.cc" -o "$tmp/b" $(pkg-config --cflags --libs accelmath) -Wl,-rpath,"$libdir"
"$tmp/b"
check_needs "$tmp/b" yes

step "(c) static: configure, build and install accelmath with BUILD_SHARED_LIBS=OFF"
"$cmake" -S "$src" -B "$tmp/static-build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$cxx" -DBUILD_SHARED_LIBS=OFF \
  -DACCELMATH_BUILD_TESTS=OFF -DACCELMATH_BUILD_BENCH=OFF -DACCELMATH_CUDA=OFF > "$tmp/static.log" 2>&1 \
  || { cat "$tmp/static.log"; fail "static configure"; }
"$cmake" --build "$tmp/static-build" -j "$jobs" > "$tmp/static.log" 2>&1 \
  || { cat "$tmp/static.log"; fail "static build"; }
"$cmake" --install "$tmp/static-build" --prefix "$tmp/static" > /dev/null
[ -f "$(find "$tmp/static" -name libaccelmath.a -print -quit)" ] || fail "no libaccelmath.a installed"

step "(c) static, find_package"
cmake_consumer "$tmp/static" "$tmp/c"
check_needs "$tmp/c/consumer" no

step "(c) static, pkg-config --static"
PKG_CONFIG_PATH=$(pc_dir "$tmp/static")
# shellcheck disable=SC2046
"$cxx" -std=c++20 "$consumer/main.cc" -o "$tmp/c-pc" $(pkg-config --static --cflags --libs accelmath)
"$tmp/c-pc"
check_needs "$tmp/c-pc" no

echo "install_consumer: ok"
